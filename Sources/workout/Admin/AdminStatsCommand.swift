import ArgumentParser
import Foundation
import WorkoutClient

/// `workout admin stats`: the server's figures.
struct AdminStatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show the server's statistics: connections, calls and latencies by method, store, commits.")

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let stats = try await session.run("see the server's statistics") { client throws(WorkoutError) in try await client.stats() }
        if output.json {
            try Output.printJSON(stats)
            return
        }
        Output.lines(Self.lines(stats))
    }

    /// The human form.
    static func lines(_ stats: ServerStats) -> [String] {
        let lines = [
            "Up for \(Format.duration(seconds: stats.uptimeMilliseconds / 1000)), \(Format.count(stats.members, "member"))",
            "Connections: \(stats.openConnections) open (\(stats.authenticatedConnections) signed in), \(Format.grouped(stats.acceptedConnections)) accepted, \(Format.grouped(stats.rejectedConnections)) rejected",
            "Store:       \(Self.size(stats.storeUsedBytes)) used of \(Self.size(stats.storeSizeBytes))",
            "Writes:      \(Format.grouped(stats.writeOperations)) in \(Format.grouped(stats.commits)) commits (\(Format.number(stats.operationsPerCommit)) per commit)",
            "Log:         \(Self.size(stats.writeAheadLogUncoveredBytes)) not yet in the data file (writes stop at \(Self.size(stats.writeAheadLogCeilingBytes)))"
                + (stats.refusingWritesNotDurable ? "; WRITES REFUSED: the store cannot make its data file durable" : "")
                + (stats.dataFileSyncFailed ? "; a sync of the data file failed: check the disk, then restart workoutd" : ""),
            "",
        ]
        var table = Table([
            .init("Method"), .init("Calls", .right), .init("p50 µs", .right), .init("p99 µs", .right), .init("max µs", .right),
            .init("Statuses"),
        ])
        for method in stats.methods.filter({ $0.calls > 0 }).sorted(by: { $0.calls > $1.calls }) {
            table.append([
                method.name, Format.grouped(method.calls), Format.grouped(method.latency.p50Microseconds),
                Format.grouped(method.latency.p99Microseconds), Format.grouped(method.latency.maxMicroseconds),
                method.statuses.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "),
            ])
        }
        return lines + table.render()
    }

    /// Bytes as KiB, MiB or GiB.
    static func size(_ bytes: Int) -> String {
        var value = Double(bytes)
        for unit in ["bytes", "KiB", "MiB", "GiB"] {
            if value < 1024 || unit == "GiB" { return unit == "bytes" ? "\(bytes) bytes" : "\(Format.number(value)) \(unit)" }
            value /= 1024
        }
        return "\(bytes) bytes"
    }
}
