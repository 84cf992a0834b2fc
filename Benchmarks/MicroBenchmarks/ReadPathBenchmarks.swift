import Benchmark

/// A read's per-call cost: `Queries.MealsOfDay` of a day with 10 meals of 2 food items (as
/// `workout-bench --scenario meals-day` asks), from a real LMDB store.
enum ReadPathBenchmarks {
    static func register() {
        let call = FixtureSlot<MealsOfDayCall>()
        let configuration = Benchmark.Configuration(
            setup: { call.value = try await MealsOfDayCall() },
            teardown: {
                call.value?.fixture.remove()
                call.value = nil
            })

        Benchmark("read: MealsOfDay, REQUEST frame to RESPONSE frame (10 meals)", configuration: configuration) { benchmark in
            let served = try call.get()
            for _ in benchmark.scaledIterations {
                try served.serve()
            }
        }

        Benchmark("read: MealsOfDay, the store's query alone (mealsOfDayEncoded)", configuration: configuration) { benchmark in
            let served = try call.get()
            for _ in benchmark.scaledIterations {
                blackHole(try served.query())
            }
        }
    }
}
