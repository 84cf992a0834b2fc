import ArgumentParser
import Foundation
import WorkoutClient

/// `workout register`: joins the household with an invite code from an admin, and signs in.
struct RegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Join your household with an invite code from an admin, and sign in.",
        discussion: """
            The new password (\(InputBounds.newPasswordRule); a letter beyond ASCII counts 2 to 4) \
            is asked for twice on the terminal without echo; --password-stdin reads one line of \
            standard input instead, for scripts.
            """)

    @Option(help: ArgumentHelp(
        "The server, HOST or HOST:PORT (default: $WORKOUT_SERVER, else 127.0.0.1:7420).", valueName: "host:port"))
    var server: String?

    @Option(help: ArgumentHelp("The invite code an admin gave you (CODE, or CODE@FINGERPRINT, which also pins the server's key).", valueName: "code"))
    var invite: String

    @Option(help: ArgumentHelp("Your email address (how you will sign in).", valueName: "email"))
    var email: String

    @Option(name: .customLong("first-name"), help: "Your first name.")
    var firstName: String

    @Option(name: .customLong("last-name"), help: "Your last name.")
    var lastName: String = ""

    @Option(name: .customLong("time-zone"), help: ArgumentHelp(
        "Your IANA time zone, e.g. Europe/Berlin (default: this machine's).", valueName: "zone"))
    var timeZone: String?

    @Flag(help: "Show your level, points and streak on the household's leaderboard.")
    var share = false

    @Flag(name: .customLong("password-stdin"), help: "Read the password as one line from standard input.")
    var passwordFromStandardInput = false

    @OptionGroup var trust: FingerprintOption

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let store = CredentialStore()
        let address = try ClientFactory.server(option: server, environment: ProcessInfo.processInfo.environment, stored: nil)
        // The arguments are checked before the password is asked for, twice.
        guard let invitation = InviteCode(invite) else {
            throw CLIError(.usage, "--invite: the part after @ is not a server key fingerprint")
        }
        try InputBounds.inviteCode(invitation.code)
        try InputBounds.email(email)
        let given = try trust.parsed()
        if let given, let carried = invitation.serverFingerprint, given != carried {
            throw CLIError(.usage, "--fingerprint \(given) and the invite's \(carried) differ: check both with the household's admin")
        }
        let password = try PasswordReader.read(
            fromStandardInput: passwordFromStandardInput, prompt: "New password for \(email)", confirm: true)
        try InputBounds.newPassword(password)
        let member = NewMember(
            email: email, firstName: firstName, lastName: lastName, timeZone: timeZone ?? TimeZone.current.identifier,
            shareWithHousehold: share)
        let client = ClientFactory.client(for: address, fingerprint: invitation.serverFingerprint ?? given)
        defer { client.close() }
        let signedIn: SignedIn
        do {
            signedIn = try await client.register(inviteCode: invitation.code, member: member, password: password)
        } catch {
            throw CLIError(error, context: .init(server: address.description, action: "join the household", registering: true))
        }
        try store.save(Credentials(server: address.description, email: email, sessionToken: signedIn.token, signedInAt: Date(),
            timeZone: signedIn.profile.timeZone))
        if output.json {
            try Output.printJSON(LoginCommand.Report(
                server: address.description, session: signedIn.session, profile: signedIn.profile, totals: signedIn.totals))
        } else {
            let profile = signedIn.profile
            Output.line("Welcome, \(Describe.name(profile))! You joined the household on \(address) as a \(profile.role.rawValue) and are signed in.")
        }
    }
}
