import WorkoutProtocol

/// The latency distribution of one method on the server, in microseconds, from reading a
/// request to queueing its answer.
public struct LatencySummary: Sendable, Hashable, Codable {
    /// Median, µs.
    public var p50Microseconds: Int
    /// 90th percentile, µs.
    public var p90Microseconds: Int
    /// 99th percentile, µs.
    public var p99Microseconds: Int
    /// 99.9th percentile, µs.
    public var p999Microseconds: Int
    /// Largest latency seen, µs.
    public var maxMicroseconds: Int

    /// Creates a latency summary; all zero by default.
    ///
    /// - Parameters:
    ///   - p50Microseconds: Median, µs.
    ///   - p90Microseconds: 90th percentile, µs.
    ///   - p99Microseconds: 99th percentile, µs.
    ///   - p999Microseconds: 99.9th percentile, µs.
    ///   - maxMicroseconds: Largest, µs.
    public init(
        p50Microseconds: Int = 0, p90Microseconds: Int = 0, p99Microseconds: Int = 0, p999Microseconds: Int = 0,
        maxMicroseconds: Int = 0
    ) {
        self.p50Microseconds = p50Microseconds
        self.p90Microseconds = p90Microseconds
        self.p99Microseconds = p99Microseconds
        self.p999Microseconds = p999Microseconds
        self.maxMicroseconds = maxMicroseconds
    }
}

// MARK: Wire

extension LatencySummary {
    /// Creates a latency summary from the wire.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_LatencySummary) {
        self.init(
            p50Microseconds: Int(clamping: wire.p50Us), p90Microseconds: Int(clamping: wire.p90Us),
            p99Microseconds: Int(clamping: wire.p99Us), p999Microseconds: Int(clamping: wire.p999Us),
            maxMicroseconds: Int(clamping: wire.maxUs)
        )
    }
}
