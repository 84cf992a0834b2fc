import ArgumentParser
import Foundation
import WorkoutClient

/// `workout today`: one day at a glance: meals with their items and the day's nutrition,
/// workouts, steps, calories eaten and burned.
struct TodayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: "Show a day: meals and nutrition, workouts, steps, calories in and out.")

    @Option(help: ArgumentHelp("The day, YYYY-MM-DD, today or yesterday (default: today).", valueName: "day"),
            transform: DayArgument.init(parsing:))
    var day: DayArgument?

    @OptionGroup var output: OutputOptions

    /// What `--json` prints.
    struct Report: Encodable {
        /// The day.
        var day: LocalDate
        /// The zone its bounds are in.
        var timeZone: String
        /// Its first instant.
        var dayStart: Date
        /// The first instant after it.
        var dayEnd: Date
        /// Meals in time order, with their items.
        var meals: [Meal]
        /// The meals' nutrition.
        var nutrition: NutritionTotals
        /// Workouts in time order.
        var workouts: [Workout]
        /// The day's step count.
        var steps: Int
        /// Calories eaten.
        var caloriesEaten: Double
        /// Calories burned in workouts.
        var caloriesBurned: Double
        /// Time spent in workouts.
        var activeSeconds: Int
    }

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        // The member's day, in the member's zone.
        let member = await session.memberZone()
        let today = member.today()
        let target = day?.resolve(today: today) ?? today
        // A day the server has nothing for yet, or before any record can be, is said in the
        // person's terms: the day they typed, not the query's instants.
        let earliest = LocalDate(year: 2000, month: 1, day: 1)!
        guard target <= today.adding(days: 1), target >= earliest else {
            throw CLIError(.invalidInput, "invalid input: --day must be from \(earliest) to tomorrow, \(today.adding(days: 1)) (got \(target))")
        }
        let options = ["day": "--day", "from_ms": "--day", "to_ms": "--day", "time_zone": "your profile's time zone (workout profile set --zone)"]
        let report = try await session.run("see your day", fieldOptions: options) { client throws(WorkoutError) in
            try await Self.report(of: target, zone: member.identifier, client: client)
        }
        if output.json {
            try Output.printJSON(report)
        } else {
            Output.lines(Self.lines(report, zone: member.zone, isToday: target == today))
            member.printNote()
        }
    }

    /// Gathers the day: its meals (whose answer gives the day's bounds), the workouts between
    /// those bounds (all pages), and the day's summary.
    static func report(of day: LocalDate, zone: String, client: WorkoutClient) async throws(WorkoutError) -> Report {
        let meals = try await client.mealsOfDay(day, timeZone: zone)
        var workouts: [Workout] = []
        var token: PageToken?
        repeat {
            let page = try await client.workoutHistory(from: meals.dayStart, to: meals.dayEnd, pageSize: 100, pageToken: token)
            workouts += page.items
            token = page.nextPageToken
        } while token != nil
        workouts.sort { $0.performedAt < $1.performedAt }
        let summary = try await client.summaries(from: day, to: day).first
        return Report(
            day: meals.day, timeZone: meals.timeZone, dayStart: meals.dayStart, dayEnd: meals.dayEnd,
            meals: meals.meals, nutrition: meals.totals, workouts: workouts, steps: summary?.steps ?? 0,
            caloriesEaten: meals.totals.calories,
            caloriesBurned: summary?.caloriesBurned ?? workouts.reduce(0) { $0 + $1.caloriesBurned },
            activeSeconds: summary?.activeSeconds ?? workouts.reduce(0) { $0 + $1.durationSeconds })
    }

    /// The human form of a day.
    static func lines(_ report: Report, zone: TimeZone, isToday: Bool) -> [String] {
        var lines = ["\(isToday ? "Today, " : "")\(Format.longDay(report.day)) (\(report.timeZone))", ""]
        if report.meals.isEmpty {
            lines.append("Meals: none logged")
        } else {
            lines.append("Meals")
            lines += MealTable.lines(report.meals, totals: report.nutrition, zone: zone, ids: ShortID.prefixes(report.meals.map(\.id)))
        }
        lines.append("")
        if report.workouts.isEmpty {
            lines.append("Workouts: none logged")
        } else {
            lines.append("Workouts")
            let ids = ShortID.prefixes(report.workouts.map(\.id))
            var table = Table([.init("ID"), .init("Time"), .init("Type"), .init("Duration", .right), .init("Burned", .right), .init("Exercises", .right), .init("Notes")])
            for workout in report.workouts {
                table.append([
                    ids[workout.id] ?? "", Format.clock(workout.performedAt, in: zone), workout.type, Format.duration(seconds: workout.durationSeconds),
                    Format.kcal(workout.caloriesBurned), String(workout.exercisesCompleted), workout.notes,
                ])
            }
            lines += table.render(indent: "  ")
        }
        lines.append("")
        lines.append("Steps:     \(Format.grouped(report.steps))")
        lines.append("Calories:  \(Format.kcal(report.caloriesEaten)) eaten, \(Format.kcal(report.caloriesBurned)) burned in \(Format.duration(seconds: report.activeSeconds)) of workouts")
        return lines
    }
}
