import ArgumentParser
import Foundation
import WorkoutClient

/// `workout admin reset-password`: sets a member's password when they forgot it.
struct AdminResetPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-password",
        abstract: "Set a new password for a member who forgot theirs; their sessions end.",
        discussion: """
            The new password (\(InputBounds.newPasswordRule); a letter beyond ASCII counts 2 to 4) \
            is asked for twice on the terminal without echo; --password-stdin reads one line of \
            standard input instead.
            """)

    @Argument(help: ArgumentHelp("The member's ID or email.", valueName: "id-or-email"))
    var member: String

    @Flag(name: .customLong("password-stdin"), help: "Read the new password as one line from standard input.")
    var passwordFromStandardInput = false

    @OptionGroup var output: OutputOptions

    /// What `--json` prints.
    struct Report: Encodable {
        /// The member whose password was set.
        var member: MemberInfo
        /// How many of their sessions ended.
        var endedSessions: Int
    }

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let members = try await session.run("reset passwords") { client throws(WorkoutError) in try await client.members() }
        let target = try MemberReference.resolve(member, in: members)
        let password = try PasswordReader.read(
            fromStandardInput: passwordFromStandardInput, prompt: "New password for \(target.email)", confirm: true)
        try InputBounds.newPassword(password)
        let ended = try await session.run("reset passwords") { client throws(WorkoutError) in
            try await client.resetPassword(of: target.id, to: password)
        }
        if output.json {
            try Output.printJSON(Report(member: target, endedSessions: ended))
        } else {
            Output.line("Set a new password for \(Describe.name(target)) <\(target.email)>; \(Format.count(ended, "session")) ended.")
        }
    }
}
