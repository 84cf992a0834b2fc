import Benchmark
import Dispatch
import Foundation

/// `workout-microbench`: the cost of one operation where it is made — mallocs and their bytes,
/// instructions where the CPU's counters can be read, and time — with ordo-one/benchmark.
///
///     swift package benchmark --target workout-microbench              # every benchmark, a table
///     swift package benchmark --target workout-microbench --filter 'read.*'
///     Benchmarks/micro-callgrind.sh                                    # instructions, retains (callgrind)
///
/// `swift package benchmark` builds the target in release mode and runs it under the package's
/// malloc interposer (what counts the mallocs); running the executable directly runs every
/// benchmark once and prints raw histograms; ``ProfileRun`` repeats one operation for callgrind
/// (see Benchmarks/README.md).
///
/// The benchmarks:
/// - the frame codec, per frame (``FrameCodecBenchmarks``);
/// - protobuf, per message: a request decoded, a response header encoded (``ProtobufBenchmarks``);
/// - a read as the server serves it minus the socket: a `Queries.MealsOfDay` REQUEST frame
///   decoded, answered from a real LMDB store, the RESPONSE framed (``ReadPathBenchmarks``);
/// - a write: `Logging.LogWeight` through the store's group-commit writer, durable, one at a
///   time and many together (``WritePathBenchmarks``);
/// - TLS's share of a call: a request and its reply through two TLS sessions; and a whole TLS
///   handshake (``TLSBenchmarks``).
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
        TLSBenchmarks.register()
    }

    /// Runs the benchmark runner (or, when ``ProfileRun/variable`` is set, a ``ProfileRun``) in a
    /// task while the main thread waits for it. (The runner's own `async` main would leave the
    /// main thread for `dispatch_main`, and valgrind 3.19 — which counts the instructions where
    /// the CPU's counters cannot be read — crashes when the main thread exits that way while the
    /// pool's threads run.)
    static func main() {
        let profile = ProcessInfo.processInfo.environment[ProfileRun.variable]
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            if let profile {
                let request: (operation: ProfileRun.Operation, count: Int)
                do {
                    request = try ProfileRun.parse(profile)
                } catch {
                    FileHandle.standardError.write(Data("workout-microbench: \(error)\n".utf8))
                    exit(64)
                }
                do {
                    try await ProfileRun.run(request.operation, count: request.count)
                } catch {
                    FileHandle.standardError.write(Data("workout-microbench: \(error)\n".utf8))
                    exit(1)
                }
            } else {
                await BenchmarkRunner.setupBenchmarkRunner(registerBenchmarks: registerBenchmarks)
            }
            finished.signal()
        }
        finished.wait()
    }
}
