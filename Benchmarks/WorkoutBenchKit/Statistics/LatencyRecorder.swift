import Histogram

/// Latencies in nanoseconds, kept in an HdrHistogram (3 significant digits, up to a minute):
/// constant memory and constant time per value, whatever the number of calls.
package struct LatencyRecorder: Sendable {
    /// The largest latency kept apart; longer ones count as this.
    package static let highestNanoseconds: UInt64 = 60_000_000_000

    private(set) var histogram = Histogram<UInt64>(
        lowestDiscernibleValue: 1, highestTrackableValue: LatencyRecorder.highestNanoseconds, numberOfSignificantValueDigits: .three)

    /// An empty recorder.
    package init() {}

    /// Counts one call that took `nanoseconds`.
    @inline(__always)
    package mutating func record(nanoseconds: UInt64) {
        _ = histogram.record(min(max(nanoseconds, 1), Self.highestNanoseconds))
    }

    /// The number of values recorded.
    package var count: UInt64 { histogram.totalCount }

    /// Forgets every value.
    package mutating func reset() {
        histogram.reset()
    }

    /// Adds another recorder's values.
    package mutating func add(_ other: LatencyRecorder) {
        histogram.add(other.histogram)
    }

    /// The latency at `percentile` (0...100) in microseconds; 0 when nothing was recorded.
    package func microseconds(atPercentile percentile: Double) -> Double {
        guard count > 0 else { return 0 }
        return Double(histogram.valueAtPercentile(percentile)) / 1_000
    }

    /// The largest latency in microseconds; 0 when nothing was recorded.
    package var maxMicroseconds: Double {
        count > 0 ? Double(histogram.max) / 1_000 : 0
    }

    /// The mean latency in microseconds; 0 when nothing was recorded.
    package var meanMicroseconds: Double {
        count > 0 ? histogram.mean / 1_000 : 0
    }
}
