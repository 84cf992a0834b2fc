import ArgumentParser
import WorkoutClient

/// `workout goals clear`: removes the goals named, from today (or `--from`); the others stay.
struct GoalsClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Clear goals by name: \(GoalKindArgument.all), or all.",
        discussion: "Example: workout goals clear weight steps")

    @Argument(help: ArgumentHelp("The goals to clear: \(GoalKindArgument.all), or all.", valueName: "goal"),
              transform: GoalKindArgument.parse)
    var goals: [[GoalKind]]

    @Option(help: ArgumentHelp("The first day without them, YYYY-MM-DD or yesterday (default: today).", valueName: "day"),
            transform: DayArgument.init(parsing:))
    var from: DayArgument?

    @Option(help: ArgumentHelp("An admin: the ID or email of a member under 18 whose goals to clear.", valueName: "member"))
    var member: String?

    @OptionGroup var output: OutputOptions

    func run() async throws {
        guard !goals.isEmpty else { throw ValidationError("name the goals to clear: \(GoalKindArgument.all), or all") }
        let session = try SignedInSession()
        defer { session.close() }
        let today = await session.memberZone().today()
        let day = from?.resolve(today: today)
        let clearing = Set(goals.joined())
        let id = try await GoalsMember.resolve(member, session: session)
        let (change, shown) = try await session.run("clear goals", fieldOptions: GoalsCommand.fieldOptions, quotesRefusals: true) { client throws(WorkoutError) in
            let change = try await client.setGoals(Goals(), clearing: clearing, from: day, for: id)
            return (change, try await client.goals(of: id))
        }
        if output.json {
            try Output.printJSON(change)
        } else {
            Output.line(change.unchanged ? "Nothing to clear: none of those goals was set." : "Goals cleared from \(change.entry.map { Format.longDay($0.effectiveFrom) } ?? "today").")
            Output.lines(GoalsRendering.goalLines(shown.goals))
        }
    }
}
