import ArgumentParser
import Foundation
import WorkoutClient

/// `workout sessions revoke ID`: ends one of the member's sessions (a lost phone).
struct SessionsRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "End one of your sessions, e.g. a lost phone's (IDs from `workout sessions`).")

    @Argument(help: ArgumentHelp("The session's ID, or its first or last 4 or more hex digits, as `workout sessions` shows it.", valueName: "id"),
              transform: { text throws(ValidationError) in try RecordIDPrefix(parsing: text, listing: "`workout sessions`") })
    var id: RecordIDPrefix

    @OptionGroup var output: OutputOptions

    /// What `--json` prints.
    struct Report: Encodable {
        /// The session ended.
        var revoked: UUID
        /// Whether it was this machine's (whose credentials were then deleted).
        var wasThisMachine: Bool
    }

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let prefix = self.id
        let sessions = try await session.run("end sessions") { client throws(WorkoutError) in try await client.sessions() }
        let target = try prefix.unique(in: sessions, id: \.id, none: "no session of yours", plural: "sessions'", listing: "`workout sessions`")
        let id = target.id
        try await session.run("end sessions") { client throws(WorkoutError) in try await client.revokeSession(id) }
        let wasThisMachine = target.isCurrent
        if wasThisMachine { try session.store.delete() }
        if output.json {
            try Output.printJSON(Report(revoked: id, wasThisMachine: wasThisMachine))
        } else {
            Output.line("Ended session \(Format.id(id))\(wasThisMachine ? " (this machine's; you are signed out here)" : "").")
        }
    }
}
