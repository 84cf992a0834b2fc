import ArgumentParser
import Foundation
import WorkoutClient

/// `workout tokens create --name NAME --scope SCOPE… [--signed]`: makes a device token (and a
/// signed token's signing secret) and prints it, the only time it is shown.
struct TokensCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Make a device token for an automation (shown once).",
        discussion: """
            Scopes: read (your profile, history and summaries, the household view, the change feed, \
            the export), log (log, edit and delete your records), import (import history, and \
            the phones' ingest endpoints). The token never expires; revoke it with \
            `workout tokens revoke ID`. An HTTP client sends it as `Authorization: Bearer TOKEN`.

            --signed makes a token for a phone app that signs its pushes (Life Dashboard \
            Companion's signing secret): it prints a signing secret to paste into the app, and \
            the server refuses every post made with the token that is not signed with it.
            """)

    @Option(help: ArgumentHelp("What the token is for, e.g. \"Home Assistant\" (1 to 64 bytes).", valueName: "name"))
    var name: String

    @Option(name: .customLong("scope"), help: ArgumentHelp(
        "read, log or import; repeat for more than one.", valueName: "scope"), transform: Self.scope)
    var scopes: [TokenScope] = []

    @Flag(help: "Make a token whose posts must be signed (--scope import alone); prints its signing secret.")
    var signed = false

    @OptionGroup var output: OutputOptions

    /// Parses `--scope`.
    static func scope(_ text: String) throws -> TokenScope {
        guard let scope = TokenScope(rawValue: text.lowercased()) else {
            throw ValidationError("expected read, log or import")
        }
        return scope
    }

    func validate() throws {
        if scopes.isEmpty {
            throw ValidationError("give at least one --scope: read, log or import")
        }
        if signed, Set(scopes) != [.import] {
            throw ValidationError("--signed makes a token for the ingest endpoints alone: give it --scope import and no other")
        }
    }

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let name = self.name
        let signed = self.signed
        // Each scope once, in the order given: the server refuses a repeated one.
        var seen = Set<TokenScope>()
        let scopes = self.scopes.filter { seen.insert($0).inserted }
        let created = try await session.run("create device tokens", fieldOptions: ["name": "--name", "scopes": "--scope"]) {
            client throws(WorkoutError) in try await client.createDeviceToken(name: name, scopes: scopes, signed: signed)
        }
        if output.json {
            try Output.printJSON(created)
            return
        }
        let token = created.deviceToken
        var lines = [
            "Token:   \(created.token.base64)",
            "Name:    \(token.name)",
            "Scopes:  \(TokensListCommand.scopes(token.scopes))",
            "ID:      \(Format.id(token.id))",
        ]
        if let secret = created.signingSecret {
            lines.append("Secret:  \(secret)")
        }
        lines += [
            "",
            "The token is shown only now and cannot be shown again (the server keeps only its hash).",
            "An HTTP client sends it in the header  Authorization: Bearer <token>",
        ]
        if created.signingSecret != nil {
            lines.append("Paste the secret into the app's signing secret: every post must carry X-Signature: sha256=<HMAC-SHA256 of its body>.")
        }
        lines.append("Revoke it with `workout tokens revoke \(Format.id(token.id))`.")
        Output.lines(lines)
    }
}
