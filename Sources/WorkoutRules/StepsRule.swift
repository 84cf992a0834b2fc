// StepsRule: one step figure per day from several devices.
//
// Steps are reported per (local day, source), e.g. a phone and a watch. A source's
// report replaces its earlier report for that day when its `reported_at_ms` is later
// or equal (equal: a retried report is harmless); an older report is ignored, so
// reports arriving out of order cannot roll a day back. The day's figure is the
// maximum over sources, not the sum: a walk that both phone and watch saw is counted
// once, at the larger of the two counts.

/// The daily steps rules.
package enum StepsRule {
    /// A day's step figure from each source's latest count: the maximum.
    ///
    /// - Parameter sourceCounts: The latest count of each source for the day.
    /// - Returns: The largest count, or 0 when no source reported.
    package static func dayTotal(_ sourceCounts: some Sequence<UInt32>) -> UInt32 {
        sourceCounts.reduce(0, max)
    }

    /// Whether a new report of a source for a day replaces the stored one.
    ///
    /// - Parameters:
    ///   - existingReportedAt: `reported_at_ms` of the stored report.
    ///   - newReportedAt: `reported_at_ms` of the new report.
    /// - Returns: `true` if the new report is as late or later; `false` if it is older
    ///   and must be ignored.
    package static func shouldReplace(existingReportedAt: Int64, newReportedAt: Int64) -> Bool {
        newReportedAt >= existingReportedAt
    }
}
