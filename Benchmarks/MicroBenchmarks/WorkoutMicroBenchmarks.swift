import Benchmark

/// `workout-microbench`: the cost of one operation where it is made — instructions, mallocs,
/// retains and releases per operation, and time — with ordo-one/benchmark.
///
///     swift package benchmark --target workout-microbench              # every benchmark, a table
///     swift package benchmark --target workout-microbench --filter 'read.*'
///
/// `swift package benchmark` builds the target in release mode and runs it under the package's
/// malloc interposer (what counts the mallocs); running the executable directly runs every
/// benchmark once and prints raw histograms (see Benchmarks/README.md).
///
/// The benchmarks:
/// - the frame codec, per frame (``FrameCodecBenchmarks``);
/// - protobuf, per message: a request decoded, a response header encoded (``ProtobufBenchmarks``);
/// - a read as the server serves it minus the socket: a `Queries.MealsOfDay` REQUEST frame
///   decoded, answered from a real LMDB store, the RESPONSE framed (``ReadPathBenchmarks``);
/// - a write: `Logging.LogWeight` through the store's group-commit writer, durable, one at a
///   time and many together (``WritePathBenchmarks``).
@main
struct WorkoutMicroBenchmarks: BenchmarkRunnerHooks {
    static func registerBenchmarks() {
        Benchmark.defaultConfiguration = .init(
            metrics: MicroBenchmarkMetrics.perOperation,
            maxDuration: .seconds(2),
            maxIterations: 1_000_000
        )
        FrameCodecBenchmarks.register()
        ProtobufBenchmarks.register()
        ReadPathBenchmarks.register()
        WritePathBenchmarks.register()
    }
}
