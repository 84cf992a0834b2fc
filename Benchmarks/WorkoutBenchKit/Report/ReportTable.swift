import Foundation

/// The report for a person: a few aligned lines, printed on standard output at the end.
package enum ReportTable {
    /// The lines of `report`.
    package static func render(_ report: BenchReport) -> String {
        var lines: [String] = []
        var shape = "\(report.connections) connection\(report.connections == 1 ? "" : "s") × \(report.pipeline) in flight"
        if let rate = report.rate { shape += ", open loop at \(grouped(rate)) calls/s" }
        if report.idleConnections > 0 { shape += ", \(report.idleConnections) idle connections held" }
        lines.append("workout-bench \(report.scenario): \(shape)")
        // Against a server the bench preloaded nothing (preloadPerUser 0): no plan to show.
        var data = report.preloadPerUser > 0 ? "\(report.users) members × \(report.preloadPerUser) meals" : "\(report.users) members"
        if let seconds = report.preloadSeconds { data += " (preloaded in \(fixed(seconds, 1)) s)" }
        lines.append(row("server", "\(report.server), \(data)"))
        lines.append(row("window", "\(fixed(report.durationSeconds, 2)) s after \(fixed(report.warmupSeconds, 1)) s of warm-up"))
        var ops = "\(grouped(Double(report.ops))) calls, \(grouped(report.opsPerSecond)) calls/s"
        if let cycles = report.cycles { ops += " (\(grouped(Double(cycles))) rounds)" }
        lines.append(row("throughput", ops))
        lines.append(row("latency µs", [
            "p50 \(fixed(report.p50Microseconds, 1))", "p90 \(fixed(report.p90Microseconds, 1))",
            "p99 \(fixed(report.p99Microseconds, 1))", "p99.9 \(fixed(report.p999Microseconds, 1))",
            "max \(fixed(report.maxMicroseconds, 1))",
        ].joined(separator: "  ")))
        if report.errors.isEmpty {
            lines.append(row("errors", "none"))
        } else {
            for name in report.errors.keys.sorted() {
                let message = report.errorMessages[name].map { " (first: \($0))" } ?? ""
                lines.append(row("errors", "\(name) × \(grouped(Double(report.errors[name]!)))\(message)"))
            }
        }
        if let cpu = report.serverCPUMicrosecondsPerOp {
            var server = "\(fixed(cpu, 1)) µs CPU per call"
            if let commits = report.commits, commits > 0, let perCommit = report.opsPerCommit {
                server += ", \(fixed(perCommit, 1)) writes per commit (\(grouped(Double(commits))) commits)"
            }
            if let anonymous = report.rssAnonBytes { server += ", RSS anon \(mebibytes(anonymous))" }
            if let resident = report.rssBytes { server += " (all \(mebibytes(resident)))" }
            lines.append(row("server", server))
        } else {
            lines.append(row("server", "no figures (Admin.Stats not asked)"))
        }
        lines.append(row("client", "\(fixed(report.clientCPUMicrosecondsPerOp, 1)) µs CPU per call (the bench itself)"))
        if let meals = report.probeMeals { lines.append(row("check", "a preloaded day holds \(meals) meals")) }
        if let summary = report.soakSummary { lines += SoakProgressLine.summaryRows(summary).map { row("soak", $0) } }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func row(_ label: String, _ value: String) -> String {
        "  " + label.padding(toLength: 11, withPad: " ", startingAt: 0) + " " + value
    }

    /// `value` with `digits` decimals.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }

    /// A whole number with thousands separators: 1,234,567.
    static func grouped(_ value: Double) -> String {
        let digits = String(Int64(value.rounded()))
        var result = ""
        for (index, character) in digits.reversed().enumerated() {
            if index > 0 && index % 3 == 0 && character != "-" { result.append(",") }
            result.append(character)
        }
        return String(result.reversed())
    }

    /// Bytes in MiB with one decimal.
    static func mebibytes(_ bytes: UInt64) -> String {
        fixed(Double(bytes) / 1_048_576, 1) + " MiB"
    }
}
