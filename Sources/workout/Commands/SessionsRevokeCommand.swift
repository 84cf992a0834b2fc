import ArgumentParser
import Foundation
import WorkoutClient

/// `workout sessions revoke ID`: ends one of the member's sessions (a lost phone).
struct SessionsRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "End one of your sessions, e.g. a lost phone's (IDs from `workout sessions`).")

    @Argument(help: ArgumentHelp("The session's ID.", valueName: "id"), transform: IDArgument.parse)
    var id: UUID

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
        let id = self.id
        let current = try await session.run("end sessions") { client throws(WorkoutError) in
            let current = try await client.sessions().first(where: \.isCurrent)?.id
            try await client.revokeSession(id)
            return current
        }
        let wasThisMachine = current == id
        if wasThisMachine { try session.store.delete() }
        if output.json {
            try Output.printJSON(Report(revoked: id, wasThisMachine: wasThisMachine))
        } else {
            Output.line("Ended session \(Format.id(id))\(wasThisMachine ? " (this machine's; you are signed out here)" : "").")
        }
    }
}
