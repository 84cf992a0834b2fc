// StepsRule: one step figure per day from several devices.
//
// Steps are reported per (local day, source), e.g. a phone and a watch. A source's
// report replaces its earlier report for that day when its `reported_at_ms` is later
// or equal (equal: a retried report is harmless); an older report is ignored, so
// reports arriving out of order cannot roll a day back. The day's figure is one
// source's, never a sum: a walk that both phone and watch saw is counted once. Which
// source is the member's choice (Health Connect's model): the first source of their
// priority list that reported that day; without one, or on a day none of them reported,
// the largest (among equals, the first by name).

/// The daily steps rules.
package enum StepsRule {
    /// The most sources a priority list may name (a day's most sources).
    package static let mostPrioritySources = 16

    /// A day's step figure and the source it is.
    ///
    /// - Parameters:
    ///   - reports: Each source's latest count for the day.
    ///   - priority: The member's sources, most trusted first (may be empty).
    /// - Returns: The count of the first source of `priority` that reported, else the largest
    ///   (ties: the first source by name); `(0, nil)` when no source reported.
    package static func dayFigure(
        _ reports: some Sequence<(source: String, steps: UInt32)>, priority: [String]
    ) -> (steps: UInt32, source: String?) {
        var best: (steps: UInt32, source: String)?
        var trusted: (rank: Int, steps: UInt32, source: String)?
        for report in reports {
            if let rank = priority.firstIndex(of: report.source), rank < (trusted?.rank ?? Int.max) {
                trusted = (rank, report.steps, report.source)
            }
            if let current = best, current.steps > report.steps || (current.steps == report.steps && current.source <= report.source) {
                continue
            }
            best = (report.steps, report.source)
        }
        if let trusted { return (trusted.steps, trusted.source) }
        return best.map { ($0.steps, $0.source) } ?? (0, nil)
    }

    /// Checks a priority list: at most ``mostPrioritySources`` sources, each 1..64 bytes, no two alike.
    ///
    /// - Parameter field: The request field holding it, named in the error.
    package static func checkPriority(_ sources: [String], field: String) throws(DomainError) {
        guard sources.count <= mostPrioritySources else {
            throw .invalid(field, "\(field) may name at most \(mostPrioritySources) sources (got \(sources.count))")
        }
        // The list's field is named (not the entry's): a person gave one list.
        var seen = Set<String>()
        for source in sources {
            do {
                try Bounds.text(source, field: field, bytes: RecordLimits.stepsSourceBytes)
            } catch {
                throw .invalid(field, "\(field): each source must be 1 to 64 bytes of text (got \"\(source.prefix(80))\")")
            }
            guard seen.insert(source).inserted else {
                throw .invalid(field, "\(field) names \"\(source)\" twice: each source is listed once")
            }
        }
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
