import ArgumentParser
import Foundation
import WorkoutClient

/// `workout watch`: one's changes, live, one line each, from any device.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print your changes as they happen, from any device, one line each (until Ctrl-C).",
        discussion: """
            Starts from now, or after --since REV (the changes after that revision come first). \
            With --json each change is one line of JSON (JSON lines). When the watch is live, a line \
            saying so goes to standard error. A lost connection is resumed where it broke.
            """)

    @Option(help: ArgumentHelp("Start after this revision (default: now).", valueName: "rev"))
    var since: UInt64?

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many changes.", valueName: "n"))
    var count: Int?

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be 1 or more") }
    }

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let member = await session.memberZone()
        let zone = member.zone
        // A watch has no last line: the note on the zone comes first.
        if !output.json { member.printNote() }
        let (json, limit, since) = (output.json, count, self.since)
        try await session.run("watch your changes") { client throws(WorkoutError) in
            let start: UInt64
            if let since { start = since } else { start = try await client.profile().revision }
            var printed = 0
            var live = false
            do {
                for try await event in client.watch(since: start) {
                    for change in event.changes {
                        Output.line(json ? try Self.jsonLine(change) : ChangeLine.describe(change, in: zone))
                        printed += 1
                        if let limit, printed >= limit { return }
                    }
                    if event.caughtUp && !live {
                        live = true
                        Output.message("Watching your changes after revision \(event.revision) live; Ctrl-C to stop.")
                    }
                }
            } catch let error as WorkoutError {
                throw error
            } catch {
                throw WorkoutError(code: .unknown, message: "\(error)")
            }
        }
    }

    /// A change as one line of JSON.
    static func jsonLine(_ change: Change) throws(WorkoutError) -> String {
        do {
            return String(decoding: try Output.encoder(pretty: false).encode(change), as: UTF8.self)
        } catch {
            throw WorkoutError(code: .internal, message: "cannot encode a change as JSON: \(error)")
        }
    }
}
