import ArgumentParser
import WorkoutClient

/// `workout goals set`: sets the goals given, from today (or `--from`); the others stay.
struct GoalsSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set goals: only those given change, from today or --from.",
        discussion: """
            Protein, carbs and fat take grams (120 or 120g) or a share of the energy target (25%). \
            The server checks each goal (energy 800-10,000 kcal, steps 100-100,000, active minutes \
            1-10,080 a week, workouts 1-100 a week, weight 10-500 kg) and names the option at \
            fault. For a member under 18 the energy target cannot be set below their maintenance \
            estimate, and only an admin sets a target weight (--member). \
            Example: workout goals set --energy 2100 --protein 25% --steps 9000 --workouts 3
            """)

    @Option(parsing: .unconditional, help: ArgumentHelp("Daily energy target, kcal eaten.", valueName: "kcal"))
    var energy: Double?

    @Option(help: ArgumentHelp("Daily protein: grams (120g) or a share of energy (25%).", valueName: "amount"), transform: NutrientArgument.parse)
    var protein: NutrientTarget?

    @Option(help: ArgumentHelp("Daily carbohydrates: grams or a share of energy.", valueName: "amount"), transform: NutrientArgument.parse)
    var carbs: NutrientTarget?

    @Option(help: ArgumentHelp("Daily fat: grams or a share of energy.", valueName: "amount"), transform: NutrientArgument.parse)
    var fat: NutrientTarget?

    @Option(parsing: .unconditional, help: ArgumentHelp("Daily steps.", valueName: "steps"))
    var steps: Int?

    @Option(name: .customLong("active-minutes"), parsing: .unconditional, help: ArgumentHelp("Active minutes a week (Monday to Sunday).", valueName: "minutes"))
    var activeMinutes: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Workouts a week (Monday to Sunday).", valueName: "count"))
    var workouts: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Target weight, kg.", valueName: "kg"))
    var weight: Double?

    @Option(help: ArgumentHelp("The day to reach the target weight by, YYYY-MM-DD (with --weight).", valueName: "day"),
            transform: DayArgument.init(parsing:))
    var by: DayArgument?

    @Option(help: ArgumentHelp("The first day the change applies to, YYYY-MM-DD or yesterday (default: today).", valueName: "day"),
            transform: DayArgument.init(parsing:))
    var from: DayArgument?

    @Option(help: ArgumentHelp("An admin: the ID or email of a member under 18 whose goals to set.", valueName: "member"))
    var member: String?

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let energy, !energy.isFinite { throw ValidationError("--energy must be a number of kcal") }
        if let weight, !weight.isFinite { throw ValidationError("--weight must be a number of kilograms") }
        if by != nil, weight == nil { throw ValidationError("--by needs --weight: the day to reach a weight by needs the weight") }
    }

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let today = await session.memberZone().today()
        let goals = Goals(
            energyKcal: energy, protein: protein, carbs: carbs, fat: fat, dailySteps: steps, weeklyActiveMinutes: activeMinutes,
            weeklyWorkouts: workouts, targetWeightKg: weight, targetWeightBy: by?.resolve(today: today))
        // Here, not in validate(): ArgumentParser validates before it reports an unknown option.
        guard !goals.isEmpty else {
            throw ValidationError("nothing to set; give at least one of --energy, --protein, --carbs, --fat, --steps, --active-minutes, --workouts, --weight")
        }
        let day = from?.resolve(today: today)
        let id = try await GoalsMember.resolve(member, session: session)
        let (change, shown) = try await session.run("set goals", fieldOptions: GoalsCommand.fieldOptions, quotesRefusals: true) { client throws(WorkoutError) in
            let change = try await client.setGoals(goals, from: day, for: id)
            return (change, try await client.goals(of: id))
        }
        if output.json {
            try Output.printJSON(change)
        } else {
            Output.line(change.unchanged ? "Goals unchanged: they were already so." : "Goals set from \(change.entry.map { Format.longDay($0.effectiveFrom) } ?? "today").")
            Output.lines(GoalsRendering.goalLines(shown.goals))
            for achievement in change.unlocked { Output.line("Achievement unlocked: \(Describe.achievement(achievement))") }
        }
    }
}
