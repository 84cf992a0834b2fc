import ArgumentParser
import Foundation
import WorkoutClient

/// `workout admin remove-member`: removes a member and all their records.
struct AdminRemoveMemberCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-member",
        abstract: "Remove a member and all their records, for good.",
        discussion: "Asks for confirmation on the terminal; --yes confirms in advance (for scripts).")

    @Argument(help: ArgumentHelp("The member's ID or email.", valueName: "id-or-email"))
    var member: String

    @Flag(help: "Do not ask for confirmation.")
    var yes = false

    @OptionGroup var output: OutputOptions

    /// What `--json` prints.
    struct Report: Encodable {
        /// The member removed.
        var removed: MemberInfo
    }

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let members = try await session.run("remove members") { client throws(WorkoutError) in try await client.members() }
        let target = try MemberReference.resolve(member, in: members)
        try Confirmation.require("Remove \(Describe.name(target)) <\(target.email)> and all their records?", assumeYes: yes)
        try await session.run("remove members") { client throws(WorkoutError) in try await client.removeMember(target.id) }
        if output.json {
            try Output.printJSON(Report(removed: target))
        } else {
            Output.line("Removed \(Describe.name(target)) <\(target.email)> and all their records.")
        }
    }
}
