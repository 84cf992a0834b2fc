import ArgumentParser
import Foundation
import WorkoutClient

/// `workout admin revoke-invite ID`: revokes an unused invite.
struct AdminRevokeInviteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke-invite",
        abstract: "Revoke an unused invite (IDs from `workout admin invites`).")

    @Argument(help: ArgumentHelp("The invite's ID.", valueName: "id"), transform: IDArgument.parse)
    var id: UUID

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let id = self.id
        let invite = try await session.run("revoke invites") { client throws(WorkoutError) in try await client.revokeInvite(id) }
        if output.json {
            try Output.printJSON(invite)
        } else {
            Output.line("Invite \(Format.id(invite.id)) is now \(invite.state.rawValue).")
        }
    }
}
