import ArgumentParser
import Foundation
import WorkoutClient
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `workout account delete`: deletes the member's account and every record of theirs, after
/// a typed confirmation (their email) and their password.
struct AccountDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete your account and all your records, for good.",
        discussion: """
            To confirm, type your account's email when asked, or pass it with --confirm EMAIL \
            (for scripts); anything else stops with nothing deleted. Then your password is asked \
            for on the terminal without echo (--password-stdin reads it from standard input). \
            The household's owner can leave only when another admin is there to take over.
            """)

    @Option(help: ArgumentHelp("Your account's email, to confirm without being asked.", valueName: "email"))
    var confirm: String?

    @Flag(name: .customLong("password-stdin"), help: "Read the password as one line from standard input.")
    var passwordFromStandardInput = false

    @OptionGroup var output: OutputOptions

    /// What `--json` prints.
    struct Report: Encodable {
        /// The server, `host:port`.
        var server: String
        /// The account deleted: its id.
        var id: UUID
        /// Its email.
        var email: String
    }

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let profile = try await session.run("delete your account") { client throws(WorkoutError) in try await client.profile() }.profile
        let typed = try confirmation(for: profile)
        guard Self.matches(typed, email: profile.email) else {
            throw CLIError(.failure, "\"\(typed)\" is not your account's email (\(profile.email)); nothing was deleted")
        }
        let password = try PasswordReader.read(fromStandardInput: passwordFromStandardInput, prompt: "Password for \(profile.email)")
        try await session.run("delete your account", checksPassword: true) { client throws(WorkoutError) in
            try await client.deleteAccount(password: password)
        }
        // The session ended with the account; the stored token is of no use any more.
        try session.store.delete()
        if output.json {
            try Output.printJSON(Report(server: session.address.description, id: profile.id, email: profile.email))
        } else {
            Output.line("Deleted the account \(profile.email) and all its records on \(session.address); signed out.")
        }
    }

    /// The email typed to confirm: `--confirm`, else asked for on the terminal.
    ///
    /// - Throws: ``CLIError`` (usage) without `--confirm` when standard input is not a terminal.
    private func confirmation(for profile: Profile) throws(CLIError) -> String {
        if let confirm { return confirm }
        guard isatty(STDIN_FILENO) == 1 else {
            throw CLIError(.usage, "deleting your account needs a confirmation: pass --confirm \(profile.email) (standard input is not a terminal); nothing was deleted")
        }
        let warning = "This deletes the account \(profile.email) (\(Describe.name(profile))) and all its workouts, meals, "
            + "weigh-ins, steps and achievements, for good.\nType the account's email to confirm: "
        FileHandle.standardError.write(Data(warning.utf8))
        return readLine() ?? ""
    }

    /// Whether `typed` is the account's email (ignoring case and surrounding spaces, as the
    /// server does).
    static func matches(_ typed: String, email: String) -> Bool {
        let text = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        return !text.isEmpty && text.lowercased() == email.lowercased()
    }
}
