import ArgumentParser
import WorkoutClient

/// `workout logout`: ends the session on the server and deletes the stored credentials.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Sign out: end this machine's session on the server and forget it here.")

    @Flag(help: "Forget the stored session even if the server cannot be reached (it then stays valid until it expires, unless revoked from another device with `workout sessions revoke`).")
    var forget = false

    @OptionGroup var output: OutputOptions

    /// What `--json` prints.
    struct Report: Encodable {
        /// The server signed out of (`nil`: nobody was signed in).
        var server: String?
        /// Whether credentials were deleted.
        var signedOut: Bool
        /// Whether the server ended the session (false with `--forget` when it was unreachable).
        var endedOnServer: Bool
    }

    func run() async throws {
        let store = CredentialStore()
        guard let credentials = try store.load() else {
            if output.json {
                try Output.printJSON(Report(server: nil, signedOut: false, endedOnServer: false))
            } else {
                Output.line("Not signed in; nothing to do.")
            }
            return
        }
        let session = try SignedInSession(credentials: credentials, store: store)
        defer { session.close() }
        var ended = true
        do {
            try await session.run("sign out") { client throws(WorkoutError) in try await client.logout() }
        } catch {
            guard forget else { throw error }
            Output.message("workout: warning: \(error); forgetting the session anyway")
            ended = false
        }
        try store.delete()
        if output.json {
            try Output.printJSON(Report(server: credentials.server, signedOut: true, endedOnServer: ended))
        } else {
            Output.line("Signed out of \(credentials.server).")
        }
    }
}
