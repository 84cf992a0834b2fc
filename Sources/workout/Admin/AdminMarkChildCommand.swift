import ArgumentParser
import Foundation
import WorkoutClient

/// `workout admin mark-child`: applies the household's rules for children to a member whatever
/// age they state, or lifts the mark.
struct AdminMarkChildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mark-child",
        abstract: "Mark a member a child (the household's rules for children apply), or lift the mark with --off.",
        discussion: """
            A child is never ranked by calories or weight, gets no energy goal below their \
            maintenance estimate, and a target weight only from an admin, who may set their goals \
            (workout goals set --member). A member whose stated age is under 18 is a child with or \
            without the mark.
            """)

    @Argument(help: ArgumentHelp("The member's ID or email.", valueName: "id-or-email"))
    var member: String

    @Flag(help: "Lift the mark instead of setting it.")
    var off = false

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let action = off ? "lift a child mark" : "mark a child"
        let members = try await session.run(action) { client throws(WorkoutError) in try await client.members() }
        let target = try MemberReference.resolve(member, in: members)
        let marked = try await session.run(action) { client throws(WorkoutError) in try await client.markChild(target.id, !off) }
        if output.json {
            try Output.printJSON(marked)
        } else if marked.markedChild {
            Output.line("\(Describe.name(marked)) is marked a child: the household's rules for children apply.")
        } else if marked.isChild {
            Output.line("Lifted the mark; \(Describe.name(marked)) stays a child: their stated age is under 18.")
        } else {
            Output.line("Lifted the mark: \(Describe.name(marked)) is not a child.")
        }
    }
}
