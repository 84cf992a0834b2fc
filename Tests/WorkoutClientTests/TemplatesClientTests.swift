import ClientTestSupport
import Foundation
import ServerTestSupport
import TestSupport
import Testing
import WorkoutClient

/// Templates through `WorkoutClient`, end to end: a saved workout logged twice with one record
/// id is one workout; a meal copied.
@Suite("Client templates, end to end")
struct TemplatesClientTests {
    @Test("A template logged twice with one record id stores one workout; a meal is copied; names are unique")
    func templates() async throws {
        try await LiveServer.run { live in
            let owner = live.client()
            _ = try await owner.login(email: ownerEmail, password: ownerPassword)
            var run = Workout(type: "running", durationSeconds: 2_700, caloriesBurned: 450)
            run.distanceM = 8_000
            let saved = try await owner.saveTemplate(Template(name: "Tuesday run, 45 min", content: .workout(run)))
            let names = try await owner.templates().map(\.name)
            #expect(saved.createdAt != nil && names == ["Tuesday run, 45 min"])
            let record = UUID.timeOrdered()
            guard case .workout(let first) = try await owner.logTemplate(saved.id, recordID: record),
                  case .workout(let again) = try await owner.logTemplate(saved.id, recordID: record) else {
                Issue.record("a workout template logged something else")
                return
            }
            #expect(!first.replayed && again.replayed && first.workout.distanceM == 8_000 && again.totals.totalWorkouts == 1)
            let lunch = try await owner.logMeal(Meal(mealType: .lunch, eatenAt: Date().addingTimeInterval(-86_400), items: [FoodItem(name: "soup", calories: 320)]))
            guard case .meal(let copy) = try await owner.copyMeal(lunch.meal.id) else {
                Issue.record("a meal copy logged something else")
                return
            }
            #expect(copy.meal.items == lunch.meal.items && copy.meal.id != lunch.meal.id)
            let taken = await failure { _ = try await owner.saveTemplate(Template(name: "TUESDAY RUN, 45 MIN", content: .workout(run))) }
            #expect(taken?.code == .alreadyExists && taken?.field == "template.name")
            #expect(try await owner.deleteTemplate(saved.id))
        }
    }
}
