import ArgumentParser
import Foundation
import WorkoutCore
import WorkoutRules

/// `workoutd reset-password`: sets a member's password from the server machine and signs them
/// out everywhere.
struct ResetPassword: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-password",
        abstract: "Set a member's password (the owner's too) and revoke all their sessions.",
        discussion: "Asks for the new password on the terminal without echoing it, twice; with --password-stdin it reads one line from standard input.")

    @OptionGroup var options: DataDirectoryOptions

    @Option(help: "The member's email address.")
    var email: String

    @Flag(name: .customLong("password-stdin"), help: "Read the new password as one line from standard input.")
    var passwordFromStandardInput = false

    func run() throws {
        try options.withHouseholdStore { store, directory in
            guard let member = try store.listMembersLocally().first(where: { $0.email.lowercased() == email.lowercased() }) else {
                throw CommandFailure(.badInput, "no member of the household in \(directory) has the email \(email)")
            }
            let password = try PasswordInput.read(fromStandardInput: passwordFromStandardInput, prompt: "New password for \(member.email)") {
                try Bounds.password(new: $0, field: "password")
            }
            let revoked = try store.resetPasswordLocally(email: member.email, newPassword: password)
            print("Set a new password for \(member.email); revoked \(revoked) session\(revoked == 1 ? "" : "s").")
        }
    }
}
