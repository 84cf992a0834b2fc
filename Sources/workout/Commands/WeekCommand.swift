import ArgumentParser
import Foundation
import WorkoutClient

/// `workout week`: a week, Monday to Sunday, day by day: calories eaten and burned, steps and
/// workouts (`Queries.Summaries`), as small bar charts.
struct WeekCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "week",
        abstract: "Show a week day by day: calories in and out, steps and workouts, as bar charts.",
        discussion: """
            The week runs Monday to Sunday (ISO 8601) and holds the day --day names (default: \
            today). The bars are as wide as the terminal allows ($COLUMNS, else the window's width, \
            else 80 columns).
            """)

    @Option(help: ArgumentHelp("A day of the week to show, YYYY-MM-DD, today or yesterday (default: today).", valueName: "day"),
            transform: DayArgument.init(parsing:))
    var day: DayArgument?

    @OptionGroup var output: OutputOptions

    /// What `--json` prints.
    struct Report: Encodable {
        /// The week's Monday.
        var from: LocalDate
        /// Its Sunday.
        var to: LocalDate
        /// The seven days, Monday first.
        var days: [PeriodSummary]
        /// The week's sums.
        var total: PeriodSummary
    }

    /// The Monday of `day`'s ISO week.
    static func monday(of day: LocalDate) -> LocalDate {
        // 1970-01-05 was a Monday.
        let offset = LocalDate(year: 1970, month: 1, day: 5)!.days(to: day)
        return day.adding(days: -(((offset % 7) + 7) % 7))
    }

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        // The member's week, in the member's zone.
        let member = await session.memberZone()
        let today = member.today()
        let start = Self.monday(of: day?.resolve(today: today) ?? today)
        let end = start.adding(days: 6)
        let summaries = try await session.run("see your week") { client throws(WorkoutError) in
            try await client.summaries(from: start, to: end, granularity: .day)
        }
        let report = Self.report(from: start, summaries: summaries)
        if output.json {
            try Output.printJSON(report)
        } else {
            Output.lines(Self.lines(report, today: today, width: TerminalSize.columns()))
            member.printNote()
        }
    }

    /// The week from the server's day summaries: seven days, a day the server left out as zeros.
    static func report(from start: LocalDate, summaries: [PeriodSummary]) -> Report {
        let byDay = Dictionary(summaries.map { ($0.start, $0) }, uniquingKeysWith: { first, _ in first })
        let days = (0..<7).map { start.adding(days: $0) }.map { byDay[$0] ?? PeriodSummary(start: $0) }
        var total = PeriodSummary(start: start, end: start.adding(days: 6))
        for day in days {
            total.caloriesEaten += day.caloriesEaten
            total.caloriesBurned += day.caloriesBurned
            total.workouts += day.workouts
            total.activeSeconds += day.activeSeconds
            total.steps += day.steps
            total.proteinG += day.proteinG
            total.carbsG += day.carbsG
            total.fatG += day.fatG
            total.meals += day.meals
        }
        return Report(from: start, to: start.adding(days: 6), days: days, total: total)
    }

    /// The human form of a week.
    ///
    /// - Parameters:
    ///   - report: The week.
    ///   - today: Today, marked in the labels.
    ///   - width: The terminal's width.
    static func lines(_ report: Report, today: LocalDate, width: Int) -> [String] {
        func label(_ day: PeriodSummary) -> String {
            let name = String(Format.longDay(day.start).prefix(3))
            return "\(name) \(day.start.description.suffix(5))\(day.start == today ? " *" : "")"
        }
        func chart(_ title: String, _ value: (PeriodSummary) -> Double, _ text: (PeriodSummary) -> String) -> [String] {
            [title] + BarChart.render(report.days.map { .init(label: label($0), value: value($0), text: text($0)) }, width: width)
        }
        let total = report.total
        var lines = ["Week of \(Format.longDay(report.from)) to \(Format.longDay(report.to))", ""]
        lines += chart("Calories in (eaten)", \.caloriesEaten) { Format.kcal($0.caloriesEaten) }
        lines.append("")
        lines += chart("Calories out (burned in workouts)", \.caloriesBurned) { Format.kcal($0.caloriesBurned) }
        lines.append("")
        lines += chart("Steps", { Double($0.steps) }) { Format.grouped($0.steps) }
        lines.append("")
        lines += chart("Workouts", { Double($0.workouts) }) { day in
            day.workouts == 0 ? "0" : "\(day.workouts) (\(Format.duration(seconds: day.activeSeconds)))"
        }
        lines.append("")
        lines.append("Week: \(Format.kcal(total.caloriesEaten)) eaten in \(Format.count(total.meals, "meal")), \(Format.kcal(total.caloriesBurned)) burned")
        lines.append("      \(Format.grouped(total.steps)) steps, \(Format.count(total.workouts, "workout")), \(Format.duration(seconds: total.activeSeconds)) active")
        return lines
    }
}
