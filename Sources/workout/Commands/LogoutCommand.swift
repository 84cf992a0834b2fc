import ArgumentParser
import WorkoutClient
import WorkoutOffline

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
        // Writes queued offline stay for this account: say so, since nothing sends them now.
        if MemberOutbox.exists(in: store),
           let outbox = try? Outbox(path: MemberOutbox.path(in: store), account: MemberOutbox.account(of: credentials), lockTimeout: .seconds(2)) {
            let waiting = outbox.count
            outbox.close()
            if waiting > 0 {
                Output.message("workout: note: \(Format.count(waiting, "write")) queued offline still \(waiting == 1 ? "waits" : "wait") in the outbox; sign in again as \(credentials.email) and run `workout sync` to send them")
            }
        }
        if output.json {
            try Output.printJSON(Report(server: credentials.server, signedOut: true, endedOnServer: ended))
        } else {
            Output.line("Signed out of \(credentials.server).")
        }
    }
}
