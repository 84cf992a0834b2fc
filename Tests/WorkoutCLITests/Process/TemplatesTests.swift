import Foundation
import Testing
import TestSupport

/// `workout templates` and `workout log template` as a person uses them, against a real
/// `workoutd`: a meal saved as a template and logged again, a workout copied, a template deleted.
@Suite("workout templates against workoutd", .serialized)
struct TemplatesCLITests {
    @Test("save a meal as a template, log it, copy a workout, delete; an unknown name lists the ones there are")
    func templates() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            #expect(try await household.succeed(["templates"]).hasPrefix("No templates."))
            let meal = try await household.json(["log", "meal", "--type", "breakfast", "--item", "oats:380:13:60:7", "--item", "banana:105"])
            let mealID = try #require((meal["meal"] as? [String: Any])?["id"] as? String)
            let saved = try await household.succeed(["templates", "save", "My breakfast", "--meal", mealID])
            #expect(saved.contains("Saved template \"My breakfast\": breakfast, 2 items, 485 kcal"), "\(saved)")
            #expect(try await household.succeed(["templates"]).contains("My breakfast  breakfast, 2 items, 485 kcal"))

            let logged = try await household.succeed(["log", "template", "my breakfast", "--at", "07:30"])
            #expect(logged.contains("Logged breakfast at") && logged.contains("07:30") && logged.contains("485 kcal"), "\(logged)")
            let day = try await household.json(["today"])
            #expect((day["meals"] as? [Any])?.count == 2, "\(day)")

            let run = try await household.json(["log", "workout", "running", "--minutes", "45", "--km", "8"])
            let runID = try #require((run["workout"] as? [String: Any])?["id"] as? String)
            let copied = try await household.succeed(["log", "template", "--copy-workout", runID])
            #expect(copied.contains("Logged running: 45 min, 8 km") && copied.contains("2 workouts in all"), "\(copied)")

            let unknown = try await household.workout(["log", "template", "lunch"])
            #expect(unknown.status == 66 && unknown.error.contains("you have no template \"lunch\" (you have \"My breakfast\")"), "\(unknown)")
            #expect(try await household.succeed(["templates", "delete", "My Breakfast"]) == "Deleted template \"My breakfast\".\n")
            #expect(try await household.succeed(["templates"]).hasPrefix("No templates."))
        }
    }
}
