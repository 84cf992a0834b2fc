import ArgumentParser
import Foundation
import WorkoutClient

/// `workout login`: signs in with email and password and keeps the session token (never the
/// password) in the configuration directory.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to your household's server and keep the session on this machine.",
        discussion: """
            The password is asked for on the terminal without echo; --password-stdin reads one line \
            of standard input instead, for scripts. Signing in again replaces the stored session and \
            ends the old one on the server.
            """)

    @Option(help: ArgumentHelp(
        "The server, HOST or HOST:PORT (default: $WORKOUT_SERVER, else the server signed in to last, else 127.0.0.1:7420).",
        valueName: "host:port"))
    var server: String?

    @Option(help: ArgumentHelp("Your email address (default: the one signed in with last).", valueName: "email"))
    var email: String?

    @Flag(name: .customLong("password-stdin"), help: "Read the password as one line from standard input.")
    var passwordFromStandardInput = false

    @OptionGroup var trust: FingerprintOption

    @OptionGroup var output: OutputOptions

    /// What `--json` prints: the server, the session (not its token), profile and totals.
    struct Report: Encodable {
        /// The server, `host:port`.
        var server: String
        /// The new session (its id, device name, expiry).
        var session: SessionInfo
        /// The member's profile.
        var profile: Profile
        /// Their totals.
        var totals: Totals
    }

    func run() async throws {
        let store = CredentialStore()
        // A damaged credentials file must not stand in the way of signing in again.
        let previous = try? store.load()
        let address = try ClientFactory.server(
            option: server, environment: ProcessInfo.processInfo.environment, stored: previous)
        guard let email = email ?? previous?.email else {
            throw CLIError(.usage, "--email is required (nobody has signed in on this machine yet)")
        }
        let fingerprint = try trust.parsed()
        let password = try PasswordReader.read(fromStandardInput: passwordFromStandardInput, prompt: "Password for \(email) on \(address)")
        let client = ClientFactory.client(for: address, fingerprint: fingerprint)
        defer { client.close() }
        let signedIn: SignedIn
        do {
            signedIn = try await client.login(email: email, password: password)
        } catch {
            throw CLIError(error, context: .init(server: address.description, action: "sign in", signingIn: true))
        }
        try store.save(Credentials(server: address.description, email: email, sessionToken: signedIn.token, signedInAt: Date(),
            timeZone: signedIn.profile.timeZone))
        if let old = previous, old.server == address.description, old.sessionToken != signedIn.token {
            // End the session this one replaces; it is forgotten here either way.
            let oldClient = ClientFactory.client(for: address, token: old.sessionToken)
            try? await oldClient.logout()
            oldClient.close()
        }
        if output.json {
            try Output.printJSON(Report(
                server: address.description, session: signedIn.session, profile: signedIn.profile, totals: signedIn.totals))
        } else {
            let profile = signedIn.profile
            Output.line("Signed in to \(address) as \(Describe.name(profile)) <\(profile.email)> (\(profile.role.rawValue)).")
            Output.line("Level \(signedIn.totals.level), \(Format.count(signedIn.totals.points, "point")), \(Format.count(signedIn.totals.totalWorkouts, "workout")).")
        }
    }
}
