import ArgumentParser
import Foundation
import WorkoutClient

/// `workout admin invites`: the household's invites.
struct AdminInvitesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invites",
        abstract: "List the invites that can still be used (--all: also used, revoked and expired ones).")

    @Flag(help: "Also used, revoked and expired invites.")
    var all = false

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        // Every invite is read, so each ID is shown by the shortest prefix unique among all of
        // them (what `revoke-invite` takes); only the usable ones are shown without --all.
        let every = try await session.run("list invites") { client throws(WorkoutError) in try await client.invites(includeInactive: true) }
        let invites = all ? every : every.filter { $0.state == .active }
        if output.json {
            try Output.printJSON(invites)
            return
        }
        guard !invites.isEmpty else {
            Output.line(all ? "No invites." : "No open invites. Make one with `workout admin invite`.")
            return
        }
        let member = await session.memberZone()
        let zone = member.zone
        let ids = ShortID.prefixes(every.map(\.id), minimum: RecordIDPrefix.minimumDigits)
        var table = Table([.init("ID"), .init("State"), .init("Role"), .init("Created"), .init("Expires"), .init("Note")])
        for invite in invites.sorted(by: { $0.createdAt > $1.createdAt }) {
            table.append([
                ids[invite.id] ?? Format.id(invite.id), invite.state.rawValue, invite.role.rawValue, Format.dateTime(invite.createdAt, in: zone),
                Format.dateTime(invite.expiresAt, in: zone), invite.note,
            ])
        }
        Output.lines(table.render())
        member.printNote()
    }
}
