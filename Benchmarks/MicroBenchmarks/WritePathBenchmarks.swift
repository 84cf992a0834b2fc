import Benchmark

/// A write's cost: `Logging.LogWeight` through the group-commit writer into a real LMDB
/// store, durable (synced) before it answers. Alone, each call is one commit; together, the
/// calls share commits as the writer gathers them (the `commits` metric says how many a
/// round took). An iteration is one call, or one round of calls, and its malloc figures include
/// the runner's own per iteration: some 16 mallocs and 35 KB (a lone LogWeight shows 113 where
/// `--allocation-stacks`, which leaves them out, prints 96).
enum WritePathBenchmarks {
    /// Calls sent together in the group-commit benchmark: what 64 connections gave per commit
    /// in the log-weight 64×1 run of issue 17 (32).
    static let together = 32

    static func register() {
        let calls = FixtureSlot<LogWeightCalls>()
        // Every round writes new entries: bound the store's growth and the run's length.
        let configuration = Benchmark.Configuration(
            metrics: MicroBenchmarkMetrics.perOperation + [MicroBenchmarkMetrics.commits],
            maxDuration: .seconds(3),
            maxIterations: 5_000,
            setup: { calls.value = try await LogWeightCalls() },
            teardown: {
                calls.value?.fixture.remove()
                calls.value = nil
            })

        Benchmark("write: LogWeight, one call alone (one durable commit)", configuration: configuration) { benchmark in
            let served = try calls.get()
            let before = served.commits
            try await served.serveOne()
            benchmark.measurement(MicroBenchmarkMetrics.commits, served.commits - before)
        }

        Benchmark("write: LogWeight, \(together) calls together (figures per round of \(together))", configuration: configuration) { benchmark in
            let served = try calls.get()
            let before = served.commits
            try await served.serve(together: together)
            benchmark.measurement(MicroBenchmarkMetrics.commits, served.commits - before)
        }
    }
}
