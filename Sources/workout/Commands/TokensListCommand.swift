import ArgumentParser
import Foundation
import WorkoutClient

/// `workout tokens [list] [--member EMAIL-or-ID]`: the member's device tokens, or (for an admin)
/// another member's.
struct TokensListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List your device tokens (admins: --member for another member's).")

    @Option(help: ArgumentHelp("Another member's tokens, by ID or email (admins only).", valueName: "id-or-email"))
    var member: String?

    @OptionGroup var output: OutputOptions

    /// Scopes as the tables and `create` show them: `read, log`.
    static func scopes(_ scopes: [TokenScope]) -> String {
        scopes.map(\.rawValue).joined(separator: ", ")
    }

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        var target: MemberInfo?
        if let member {
            let members = try await session.run("list other members' device tokens") { client throws(WorkoutError) in
                try await client.members()
            }
            target = try MemberReference.resolve(member, in: members)
        }
        let memberID = target?.id
        let tokens = try await session.run("list other members' device tokens") { client throws(WorkoutError) in
            try await client.deviceTokens(of: memberID)
        }
        if output.json {
            try Output.printJSON(tokens)
            return
        }
        guard !tokens.isEmpty else {
            if let target {
                Output.line("\(Describe.name(target)) <\(target.email)> has no device tokens.")
            } else {
                Output.line("No device tokens. Make one with `workout tokens create --name NAME --scope read`.")
            }
            return
        }
        let member = await session.memberZone()
        let zone = member.zone
        var table = Table([.init("ID"), .init("Name"), .init("Scopes"), .init("Created"), .init("Last used")])
        for token in tokens.sorted(by: { $0.createdAt > $1.createdAt }) {
            table.append([
                Format.id(token.id), token.name, Self.scopes(token.scopes) + (token.signed ? " (signed)" : ""), Format.dateTime(token.createdAt, in: zone),
                token.lastUsedAt.map { Format.dateTime($0, in: zone) } ?? "never",
            ])
        }
        Output.lines(table.render())
        member.printNote()
    }
}
