import Testing
import WorkoutClient
@testable import workout

/// The week's bar charts.
@Suite("Bar charts (week)")
struct BarChartTests {
    @Test("Bars in eighths: the largest fills the column, others in proportion, anything above zero shows")
    func bars() {
        #expect(BarChart.bar(1, width: 4) == "████")
        #expect(BarChart.bar(0.5, width: 4) == "██")
        #expect(BarChart.bar(0.5625, width: 4) == "██▎")
        #expect(BarChart.bar(0.0001, width: 4) == "▏")
        #expect(BarChart.bar(0, width: 4) == "")
        #expect(BarChart.bar(.nan, width: 4) == "")
    }

    @Test("Rows line up: labels left, values right, every line as wide as asked at most")
    func rows() {
        let lines = BarChart.render([
            .init(label: "Mon 06-02", value: 2000, text: "2,000 kcal"),
            .init(label: "Tue 06-03", value: 500, text: "500 kcal"),
            .init(label: "Wed 06-04", value: 0, text: "0 kcal"),
        ], width: 40)
        #expect(lines == [
            "  Mon 06-02  ███████████████  2,000 kcal",
            "  Tue 06-03  ███▊               500 kcal",
            "  Wed 06-04                       0 kcal",
        ])
        #expect(lines.allSatisfy { $0.count <= 40 })
    }

    @Test("A week starts on Monday (ISO 8601)", arguments: [
        ("2025-06-02", "2025-06-02"), ("2025-06-08", "2025-06-02"), ("2025-06-05", "2025-06-02"), ("2024-01-01", "2024-01-01"),
        ("1969-12-31", "1969-12-29"),
    ])
    func monday(day: String, monday: String) {
        #expect(WeekCommand.monday(of: LocalDate(day)!) == LocalDate(monday)!)
    }

    @Test("Days the server leaves out count as zeros; the week's total sums the days")
    func report() {
        let start = LocalDate("2025-06-02")!
        let report = WeekCommand.report(from: start, summaries: [
            PeriodSummary(start: start.adding(days: 1), caloriesEaten: 800, caloriesBurned: 300, workouts: 1, activeSeconds: 1800),
            PeriodSummary(start: start.adding(days: 3), steps: 4000),
        ])
        #expect(report.days.map(\.start) == (0..<7).map { start.adding(days: $0) })
        #expect(report.days.map(\.caloriesEaten) == [0, 800, 0, 0, 0, 0, 0])
        #expect(report.total.caloriesBurned == 300 && report.total.steps == 4000 && report.total.workouts == 1)
        #expect(report.total.end == LocalDate("2025-06-08")!)
    }
}
