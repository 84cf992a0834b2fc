import ArgumentParser
import Foundation
import WorkoutClient

/// `workout admin invite`: makes an invite code for a new member.
struct AdminInviteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invite",
        abstract: "Make a single-use invite code for a new member (shown once).",
        discussion: "The new member joins with `workout register --invite CODE ...`.")

    @Option(help: "member or admin.", transform: Self.role)
    var role: Role = .member

    @Option(name: .customLong("expires-hours"), parsing: .unconditional, help: ArgumentHelp(
        "How many hours the code is valid (default: the server's).", valueName: "hours"))
    var expiresHours: Double?

    @Option(help: "Who it is for, for the list of invites.")
    var note: String = ""

    @OptionGroup var output: OutputOptions

    /// Parses `--role`.
    static func role(_ text: String) throws -> Role {
        switch text.lowercased() {
        case "member": .member
        case "admin": .admin
        default: throw ValidationError("expected member or admin")
        }
    }

    func validate() throws {
        if let expiresHours, !(expiresHours.isFinite && expiresHours > 0 && expiresHours <= 1_000_000) {
            throw ValidationError("--expires-hours must be a number above 0")
        }
    }

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let (role, note) = (self.role, self.note)
        let expiresIn = expiresHours.map { Duration.seconds(Int64(($0 * 3600).rounded())) }
        let created = try await session.run("create invites") { client throws(WorkoutError) in
            try await client.createInvite(role: role, expiresIn: expiresIn, note: note)
        }
        if output.json {
            try Output.printJSON(created)
            return
        }
        let member = await session.memberZone()
        let zone = member.zone
        // The key this machine pinned for the server travels with the code, so the new member's
        // device pins the same key without comparing anything.
        let pinned = try? ClientFactory.trust().knownServers.fingerprint(for: session.address)
        let invite = InviteCode(code: created.code, serverFingerprint: pinned)
        Output.lines([
            "Invite code: \(created.code)",
            "Role:        \(created.invite.role.rawValue)",
            "Expires:     \(Format.dateTime(created.invite.expiresAt, in: zone))",
        ] + (created.invite.note.isEmpty ? [] : ["Note:        \(created.invite.note)"]) + [
            "",
            "The code is shown only now. The new member runs:",
            "  workout register --server \(session.address) --invite \(invite) --email EMAIL --first-name NAME",
        ])
        member.printNote()
    }
}
