import Foundation
import Testing
@testable import workout

/// Logging as processes, and the queries that show what was logged.
@Suite("workout logs and shows the day", .serialized)
struct LoggingTests {
    /// An ISO 8601 time (UTC) `days` days ago, for `--at`.
    static func daysAgo(_ days: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date().addingTimeInterval(-days * 86_400))
    }

    @Test("A workout, a meal, a weigh-in and steps are logged; today shows them, as text and as JSON")
    func logAndToday() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let workout = try await household.json(["log", "workout", "running", "--minutes", "30", "--calories", "280", "--exercises", "3"])
            let totals = try #require(workout["totals"] as? [String: Any])
            #expect(totals["points"] as? Int == 150, "50 for the workout, 100 for the first-workout achievement")
            #expect((workout["unlocked"] as? [[String: Any]])?.first?["id"] as? String == "workout_1")

            let meal = try await household.succeed(
                ["log", "meal", "--type", "breakfast", "--name", "Porridge", "--item", "oats:380:13:60:7", "--item", "banana:105"])
            #expect(meal.contains("Logged breakfast \"Porridge\""), "\(meal)")
            #expect(meal.contains("485 kcal"))
            #expect(try await household.succeed(["log", "weight", "72.4", "--note", "morning"]).contains("Logged 72.4 kg"))
            #expect(try await household.succeed(["log", "steps", "8500"]).contains("8,500 steps counted"))

            let today = try await household.succeed(["today"])
            for expected in ["Today, ", "(Europe/Berlin)", "breakfast: Porridge", "oats", "banana", "Total", "485 kcal", "running", "30 min", "Steps:     8,500", "280 kcal burned"] {
                #expect(today.contains(expected), "missing \(expected) in:\n\(today)")
            }

            let report = try await household.json(["today"])
            #expect(report["timeZone"] as? String == "Europe/Berlin")
            #expect(report["steps"] as? Int == 8500)
            #expect(report["caloriesEaten"] as? Double == 485)
            #expect(report["caloriesBurned"] as? Double == 280)
            let meals = try #require(report["meals"] as? [[String: Any]])
            #expect(meals.count == 1)
            #expect((meals.first?["items"] as? [[String: Any]])?.map { $0["name"] as? String } == ["oats", "banana"])
            #expect((report["workouts"] as? [[String: Any]])?.first?["type"] as? String == "running")
        }
    }

    @Test("history shows the newest first, pages through them, and says when there are more")
    func history() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            for (type, days) in [("cycling", 3.0), ("yoga", 2.0), ("rowing", 1.0)] {
                _ = try await household.succeed(["log", "workout", type, "--minutes", "20", "--at", Self.daysAgo(days)])
            }
            let limited = try await household.json(["history", "--limit", "2", "--page-size", "1"])
            #expect((limited["workouts"] as? [[String: Any]])?.map { $0["type"] as? String } == ["rowing", "yoga"])
            #expect(limited["hasMore"] as? Bool == true)

            let all = try await household.json(["history", "--all", "--page-size", "2"])
            #expect((all["workouts"] as? [[String: Any]])?.map { $0["type"] as? String } == ["rowing", "yoga", "cycling"])
            #expect(all["hasMore"] as? Bool == false)

            let text = try await household.succeed(["history", "--limit", "2"])
            let lines = text.split(separator: "\n")
            #expect(lines.first?.hasPrefix("ID") == true && lines.first?.contains("When") == true, "\(text)")
            #expect(lines.count == 4, "\(text)")
            #expect(lines[1].contains("rowing") && lines[2].contains("yoga"))
            #expect(text.contains("--all"))
        }
    }

    @Test("weight charts the series as wide as COLUMNS, and --json lists the entries oldest first")
    func weight() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            for (kilograms, days) in [("74.0", 20.0), ("73.1", 14.0), ("73.5", 9.0), ("72.2", 3.0), ("72.6", 0.1)] {
                _ = try await household.succeed(["log", "weight", kilograms, "--at", Self.daysAgo(days)])
            }
            let chart = try await household.succeed(["weight", "--days", "30"], environment: ["COLUMNS": "60"])
            let lines = chart.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.first == "Weight over the last 30 days: 5 weigh-ins, 74 kg → 72.6 kg (−1.4 kg)", "\(chart)")
            let plot = Array(lines.dropFirst(2).prefix(WeightChart.defaultHeight + 2))
            #expect(plot.allSatisfy { $0.count <= 60 }, "\(chart)")
            #expect(plot[WeightChart.defaultHeight].count == 60, "the axis spans COLUMNS")
            #expect(plot.first?.hasPrefix("74.0 kg ┤") == true, "\(chart)")
            #expect(plot[WeightChart.defaultHeight - 1].hasPrefix("72.2 kg ┤"), "\(chart)")
            #expect(plot.contains { line in line.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) } })
            // Under the chart, the newest weigh-ins with their short IDs, which edit and delete take.
            let newest = try #require(lines.firstIndex { $0.hasPrefix("Newest weigh-ins") }, "\(chart)")
            let rows = lines[(newest + 2)...].filter { !$0.isEmpty }
            #expect(rows.count == 5 && rows.first?.contains("72.6 kg") == true && rows.last?.contains("74 kg") == true, "\(chart)")
            let shortID = try #require(rows.first?.split(separator: " ").first.map(String.init))
            #expect(shortID.count >= 12 && shortID.count < 32, "\(chart)")
            let edited = try await household.json(["edit", "weight", shortID, "--note", "evening"])
            #expect((edited["entry"] as? [String: Any])?["note"] as? String == "evening")

            let report = try await household.json(["weight", "--days", "30"])
            #expect((report["entries"] as? [[String: Any]])?.map { $0["weightKg"] as? Double } == [74.0, 73.1, 73.5, 72.2, 72.6])
            let recent = try await household.json(["weight", "--days", "5"])
            #expect((recent["entries"] as? [Any])?.count == 2)
        }
    }

    @Test("achievements shows the first workout unlocked and progress on the others")
    func achievements() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            _ = try await household.succeed(["log", "workout", "swimming", "--minutes", "45"])
            let text = try await household.succeed(["achievements"])
            #expect(text.contains("✓  First workout"), "\(text)")
            #expect(text.contains("1/10"))
            let achievements = try await household.jsonArray(["achievements"])
            let first = try #require(achievements.first { $0["id"] as? String == "workout_1" })
            #expect(first["unlocked"] as? Bool == true)
            #expect(first["unlockedAt"] as? String != nil)
        }
    }
}
