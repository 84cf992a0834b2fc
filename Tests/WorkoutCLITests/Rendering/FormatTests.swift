import Foundation
import Testing
import WorkoutClient
@testable import workout

/// Numbers, durations, tables and change lines in human output.
@Suite("Human output")
struct FormatTests {
    @Test("Numbers lose needless decimals", arguments: [
        (72.4, "72.4"), (350.0, "350"), (0.05, "0.1"), (-0.01, "0"), (1234.56, "1234.6"),
    ])
    func numbers(value: Double, expected: String) {
        #expect(Format.number(value) == expected)
    }

    @Test("Thousands are grouped", arguments: [(0, "0"), (999, "999"), (8500, "8,500"), (1_234_567, "1,234,567"), (-4200, "-4,200")])
    func grouped(value: Int, expected: String) {
        #expect(Format.grouped(value) == expected)
    }

    @Test("Durations read in minutes and hours", arguments: [
        (40, "40 s"), (60, "1 min"), (1800, "30 min"), (3600, "1 h"), (5400, "1 h 30 min"), (89, "1 min"), (90, "2 min"),
    ])
    func durations(seconds: Int, expected: String) {
        #expect(Format.duration(seconds: seconds) == expected)
    }

    @Test("Tables align text left and numbers right, without trailing spaces")
    func table() {
        var table = Table([.init("Type"), .init("kcal", .right), .init("Notes")])
        table.append(["running", "280", "easy"])
        table.append(["yoga", "1,200", ""])
        #expect(table.render() == [
            "Type      kcal  Notes",
            "running    280  easy",
            "yoga     1,200",
        ])
    }

    @Test("A change is one line: revision, time, kind, summary")
    func changeLine() {
        let zone = TimeZone(identifier: "Europe/Berlin")!
        let at = Date(timeIntervalSince1970: 1_748_755_800)  // 07:30 in Berlin
        let workout = Workout(type: "running", durationSeconds: 1800, caloriesBurned: 280, performedAt: at)
        let line = ChangeLine.describe(Change(revision: 42, changedAt: at, item: .workout(workout)), in: zone)
        #expect(line == "#42 07:30 workout      running, 30 min, 280 kcal, at 2025-06-01 07:30")
        let steps = ChangeLine.describe(
            Change(revision: 7, changedAt: at, item: .steps(StepsDay(day: LocalDate(year: 2025, month: 6, day: 1)!, steps: 8500))), in: zone)
        #expect(steps == "#7 07:30 steps        8,500 on 2025-06-01")
    }
}
