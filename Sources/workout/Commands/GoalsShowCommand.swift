import ArgumentParser
import Foundation
import WorkoutClient

/// `workout goals show`: the goals in effect, from which day, and a day's progress: each
/// daily goal's figure and what remains, the week's goals and days met, the weight trend.
struct GoalsShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show your goals and a day's progress towards them (the default).")

    @Option(help: ArgumentHelp("The day of the progress, YYYY-MM-DD, today or yesterday (default: today).", valueName: "day"),
            transform: DayArgument.init(parsing:))
    var day: DayArgument?

    @Option(help: ArgumentHelp("An admin: the ID or email of a member under 18 whose goals to show.", valueName: "member"))
    var member: String?

    @OptionGroup var output: OutputOptions

    /// What `--json` prints.
    struct Report: Encodable {
        /// The goals, their history, and whether the rules for children apply.
        var goals: MemberGoals
        /// The day's progress (one's own goals only).
        var progress: GoalsProgress?
    }

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let zone = await session.memberZone()
        let target = day?.resolve(today: zone.today()) ?? zone.today()
        let id = try await GoalsMember.resolve(member, session: session)
        let report = try await session.run("see a member's goals", fieldOptions: GoalsCommand.fieldOptions, quotesRefusals: true) { client throws(WorkoutError) in
            let goals = try await client.goals(of: id)
            return Report(goals: goals, progress: id == nil ? try await client.progress(on: target) : nil)
        }
        if output.json {
            try Output.printJSON(report)
        } else {
            Output.lines(GoalsRendering.lines(report.goals, progress: report.progress, isToday: target == zone.today(), who: member))
        }
    }
}
