import ArgumentParser
import Foundation
import WorkoutClient

/// `workout tokens revoke ID`: revokes a device token; it stops working at once.
struct TokensRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Revoke a device token, yours or (admins) any member's (IDs from `workout tokens list`).")

    @Argument(help: ArgumentHelp("The token's ID.", valueName: "id"), transform: IDArgument.parse)
    var id: UUID

    @OptionGroup var output: OutputOptions

    /// What `--json` prints.
    struct Report: Encodable {
        /// The token revoked.
        var revoked: UUID
    }

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let id = self.id
        let revoked = try await session.run("revoke other members' device tokens") { client throws(WorkoutError) in
            try await client.revokeDeviceToken(id)
        }
        guard revoked else {
            throw CLIError(.notFound, "not found: no device token you may revoke has the ID \(Format.id(id)) (see `workout tokens list`)")
        }
        if output.json {
            try Output.printJSON(Report(revoked: id))
        } else {
            Output.line("Revoked device token \(Format.id(id)); it no longer works.")
        }
    }
}
