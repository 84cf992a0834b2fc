import ArgumentParser
import Foundation
import WorkoutClient

/// `workout password`: changes the member's password; their other sessions end, this one
/// goes on.
struct PasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password",
        abstract: "Change your password; your other devices are signed out.",
        discussion: """
            The current password, then the new one twice, are asked for on the terminal without \
            echo; --password-stdin reads two lines of standard input instead, the current password \
            then the new one, for scripts. The new password must be \(InputBounds.newPasswordRule) (a \
            letter beyond ASCII counts 2 to 4).
            """)

    @Flag(name: .customLong("password-stdin"), help: "Read the current and the new password as two lines from standard input.")
    var passwordFromStandardInput = false

    @OptionGroup var output: OutputOptions

    /// What `--json` prints.
    struct Report: Encodable {
        /// How many other sessions (devices) were signed out.
        var revokedSessions: Int
    }

    /// The request fields of `Auth.ChangePassword` by what sets them.
    static let fieldOptions = ["current_password": "the current password", "new_password": "the new password"]

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let email = session.credentials.email
        let current = try PasswordReader.read(fromStandardInput: passwordFromStandardInput, prompt: "Current password for \(email)")
        let new = try PasswordReader.read(fromStandardInput: passwordFromStandardInput, prompt: "New password", confirm: true)
        try InputBounds.newPassword(new)
        let revoked = try await session.run("change your password", fieldOptions: Self.fieldOptions, checksPassword: true) {
            client throws(WorkoutError) in try await client.changePassword(current: current, new: new)
        }
        if output.json {
            try Output.printJSON(Report(revokedSessions: revoked))
        } else {
            Output.line("Password changed\(revoked > 0 ? "; \(Format.count(revoked, "other device was", "other devices were")) signed out" : "").")
        }
    }
}
