import Foundation

/// The line printed on standard error at the end of each minute of a soak, and the summary's
/// rows in the report table.
package enum SoakProgressLine {
    /// `[minute  3/60]  21,000 calls  p50 812.0 µs  p99 4210.0 µs  errors 0  rounds 2,990
    /// logins 299  watch 1,794  RSS anon 41.2 MiB (all 180.3 MiB)  fds 52  store 96.0 MiB  cpu 48.1 %`.
    package static func render(_ minute: SoakMinute, of minutes: Int) -> String {
        let width = String(minutes).count
        return "[minute \(String(minute.minute).leftPadded(to: width))/\(minutes)] "
            + ReportTable.grouped(Double(minute.calls)).leftPadded(to: 8) + " calls"
            + "  p50 " + ReportTable.fixed(minute.p50Microseconds, 1) + " µs"
            + "  p99 " + ReportTable.fixed(minute.p99Microseconds, 1) + " µs"
            + "  errors \(minute.errors)"
            + "  rounds \(ReportTable.grouped(Double(minute.rounds)))"
            + "  logins \(ReportTable.grouped(Double(minute.logins)))"
            + "  watch \(ReportTable.grouped(Double(minute.watchEvents)))"
            + "  RSS anon \(ReportTable.mebibytes(minute.rssAnonBytes)) (all \(ReportTable.mebibytes(minute.rssBytes)))"
            + "  fds \(minute.openDescriptors)"
            + "  store \(ReportTable.mebibytes(minute.storeSizeBytes))"
            + "  cpu \(ReportTable.fixed(minute.serverCPUPercent, 1)) %"
    }

    /// One row per compared figure, then the verdict: `RSS anon 41.0 → 41.5 MiB (×1.01, flat)`.
    package static func summaryRows(_ summary: SoakSummary) -> [String] {
        func bytes(_ value: Double) -> String { ReportTable.fixed(value / 1_048_576, 1) }
        func verdict(_ comparison: SoakComparison) -> String {
            let ratio = comparison.ratio.map { "×" + ReportTable.fixed($0, 3) } ?? "×∞"
            return "(\(ratio), \(comparison.flat ? "flat" : "not flat"))"
        }
        let span = "first \(summary.minutesCompared) vs last \(summary.minutesCompared) minutes (medians)"
        return [
            span,
            "RSS anon \(bytes(summary.rssAnonBytes.first)) → \(bytes(summary.rssAnonBytes.last)) MiB \(verdict(summary.rssAnonBytes))",
            "RSS all \(bytes(summary.rssBytes.first)) → \(bytes(summary.rssBytes.last)) MiB \(verdict(summary.rssBytes))",
            "descriptors \(Int(summary.openDescriptors.first)) → \(Int(summary.openDescriptors.last)) \(verdict(summary.openDescriptors))",
            "LMDB map \(bytes(summary.storeSizeBytes.first)) → \(bytes(summary.storeSizeBytes.last)) MiB \(verdict(summary.storeSizeBytes))",
            "p99 \(ReportTable.fixed(summary.p99Microseconds.first, 1)) → \(ReportTable.fixed(summary.p99Microseconds.last, 1)) µs \(verdict(summary.p99Microseconds))",
            summary.flat ? "verdict: flat (RSS anon, descriptors and p99 within 10 %)" : "verdict: NOT flat (RSS anon, descriptors or p99 moved more than 10 %)",
        ]
    }
}
