import ArgumentParser
import Foundation
import WorkoutClient

/// `workout admin revoke-invite ID`: revokes an unused invite.
struct AdminRevokeInviteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke-invite",
        abstract: "Revoke an unused invite (IDs from `workout admin invites`).")

    @Argument(help: ArgumentHelp("The invite's ID, or its first or last 4 or more hex digits, as `workout admin invites` shows it.", valueName: "id"),
              transform: { text throws(ValidationError) in try RecordIDPrefix(parsing: text, listing: "`workout admin invites`") })
    var id: RecordIDPrefix

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let prefix = self.id
        let invites = try await session.run("revoke invites") { client throws(WorkoutError) in try await client.invites(includeInactive: true) }
        let id = try prefix.unique(in: invites, id: \.id, none: "no invite", plural: "invites'", listing: "`workout admin invites --all`").id
        let invite = try await session.run("revoke invites") { client throws(WorkoutError) in try await client.revokeInvite(id) }
        if output.json {
            try Output.printJSON(invite)
        } else {
            Output.line("Invite \(Format.id(invite.id)) is now \(invite.state.rawValue).")
        }
    }
}
