import Benchmark

/// A read's per-call cost: `Queries.MealsOfDay` of a day with 10 meals of 2 food items (as
/// `workout-bench --scenario meals-day` asks), from a real LMDB store. Figures are per call.
enum ReadPathBenchmarks {
    static func register() {
        let call = FixtureSlot<MealsOfDayCall>()
        // 1,000 calls an iteration, so that the figures are per call and the runner's own work
        // per iteration (some 16 mallocs, 35 KB) is a rounding error.
        let configuration = Benchmark.Configuration(
            scalingFactor: .kilo,
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
