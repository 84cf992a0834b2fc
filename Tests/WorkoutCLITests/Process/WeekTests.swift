import Foundation
import Testing

/// `week` and `history --type` as processes against `workoutd`.
@Suite("workout shows the week and filters the history", .serialized)
struct WeekTests {
    @Test("week shows the days Monday to Sunday with calories in and out, steps and workouts, as bars and as JSON")
    func week() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            // A past week, so that every day logged is in it whatever today is: Monday 2025-06-02 to Sunday 2025-06-08.
            _ = try await household.succeed(["log", "workout", "running", "--minutes", "30", "--calories", "300", "--at", "2025-06-03T07:00"])
            _ = try await household.succeed(["log", "workout", "yoga", "--minutes", "60", "--calories", "150", "--at", "2025-06-05T18:00"])
            _ = try await household.succeed(["log", "workout", "rowing", "--minutes", "20", "--calories", "200", "--at", "2025-06-05T07:00"])
            _ = try await household.succeed(["log", "meal", "--type", "dinner", "--item", "pasta:800", "--at", "2025-06-03T19:00"])
            _ = try await household.succeed(["log", "meal", "--type", "lunch", "--item", "salad:400", "--at", "2025-06-08T12:00"])
            _ = try await household.succeed(["log", "steps", "8000", "--day", "2025-06-04"])
            _ = try await household.succeed(["log", "steps", "4000", "--day", "2025-06-05"])
            // Outside the week: the Sunday before.
            _ = try await household.succeed(["log", "workout", "hiking", "--minutes", "90", "--at", "2025-06-01T10:00"])

            let report = try await household.json(["week", "--day", "2025-06-05"])
            #expect(report["from"] as? String == "2025-06-02")
            #expect(report["to"] as? String == "2025-06-08")
            let days = try #require(report["days"] as? [[String: Any]])
            #expect(days.map { $0["start"] as? String } == (2...8).map { "2025-06-0\($0)" })
            #expect(days.map { $0["caloriesEaten"] as? Double } == [0, 800, 0, 0, 0, 0, 400])
            #expect(days.map { $0["caloriesBurned"] as? Double } == [0, 300, 0, 350, 0, 0, 0])
            #expect(days.map { $0["steps"] as? Int } == [0, 0, 8000, 4000, 0, 0, 0])
            #expect(days.map { $0["workouts"] as? Int } == [0, 1, 0, 2, 0, 0, 0])
            let total = try #require(report["total"] as? [String: Any])
            #expect(total["caloriesEaten"] as? Double == 1200 && total["caloriesBurned"] as? Double == 650)
            #expect(total["steps"] as? Int == 12000 && total["workouts"] as? Int == 3 && total["activeSeconds"] as? Int == 6600)

            let text = try await household.succeed(["week", "--day", "2025-06-08"], environment: ["COLUMNS": "60"])
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.first == "Week of Monday 2025-06-02 to Sunday 2025-06-08", "\(text)")
            #expect(lines.allSatisfy { $0.count <= 60 }, "\(text)")
            let thursday = lines.filter { $0.hasPrefix("  Thu 06-05") }
            #expect(thursday.count == 4, "a line in each chart: \(text)")
            #expect(thursday.contains { $0.contains("█") && $0.hasSuffix("350 kcal") }, "the largest burn fills the bar: \(text)")
            #expect(thursday.contains { $0.hasSuffix("2 (1 h 20 min)") }, "\(text)")
            #expect(lines.contains { $0.hasPrefix("  Mon 06-02") && $0.hasSuffix("0 kcal") && !$0.contains("█") }, "\(text)")
            #expect(text.contains("Week: 1,200 kcal eaten in 2 meals, 650 kcal burned"), "\(text)")
            #expect(text.contains("12,000 steps, 3 workouts, 1 h 50 min active"), "\(text)")

            let malformed = try await household.workout(["week", "--day", "next week"])
            #expect(malformed.status == 64, "\(malformed)")
        }
    }

    @Test("history --type lists only that kind of workout, in any case, as text and JSON")
    func historyByType() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            for (type, days) in [("running", 4.0), ("yoga", 3.0), ("Running", 2.0), ("cycling", 1.0)] {
                _ = try await household.succeed(["log", "workout", type, "--minutes", "20", "--at", LoggingTests.daysAgo(days)])
            }
            let running = try await household.json(["history", "--type", "running", "--page-size", "1"])
            #expect((running["workouts"] as? [[String: Any]])?.map { $0["type"] as? String } == ["Running", "running"])
            #expect(running["hasMore"] as? Bool == false)
            let limited = try await household.json(["history", "--type", "RUNNING", "--limit", "1"])
            #expect((limited["workouts"] as? [Any])?.count == 1)
            #expect(limited["hasMore"] as? Bool == true)

            let text = try await household.succeed(["history", "--type", "yoga"])
            let lines = text.split(separator: "\n")
            #expect(lines.count == 2 && lines[1].contains("yoga"), "\(text)")
            #expect(try await household.succeed(["history", "--type", "swimming"]) == "No swimming workouts.\n")
        }
    }
}
