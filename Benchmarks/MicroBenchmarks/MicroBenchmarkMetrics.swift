import Benchmark

/// What every micro-benchmark reports per operation.
enum MicroBenchmarkMetrics {
    /// Instructions (where the CPU's counters can be read: `perf stat -e instructions true`
    /// tells), mallocs and their bytes, CPU and wall time.
    ///
    /// Not retains and releases: with Swift 6.3 on Linux the package counts them through its
    /// Swift runtime interposer (a trait this package leaves off: the local package mirror has
    /// no swift-runtime-interposer), and the runtime's own hooks, its fallback, crash in
    /// `swift_retain` there. `valgrind --tool=callgrind` counts them instead (Benchmarks/README.md).
    static let perOperation: [BenchmarkMetric] = [
        .instructions, .mallocCountTotal, .mallocBytesCount, .cpuTotal, .wallClock, .throughput,
    ]

    /// Durable commits the store made in one iteration (a write benchmark's batching).
    static let commits = BenchmarkMetric.custom("commits", polarity: .prefersSmaller, useScalingFactor: false)
}
