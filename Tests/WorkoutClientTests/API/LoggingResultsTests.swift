import ClientTestSupport
import Foundation
import ServerTestSupport
import Testing
import WorkoutClient

/// The same kind of operation answers in the same shape for workouts, meals and weigh-ins:
/// `Updated<Kind>` with the record after the update, `Deleted<Kind>` with `deleted`.
@Suite("Logging answers, one shape per operation")
struct LoggingResultsTests {
    @Test("updates answer the record after the update; deletes answer whether they deleted, then false")
    func shapes() async throws {
        try await LiveServer.run { live in
            let client = live.client()
            _ = try await client.login(email: ownerEmail, password: ownerPassword)
            let hourAgo = Date().addingTimeInterval(-3_600)

            let workout = try await client.logWorkout(Workout(type: "running", durationSeconds: 1_200, performedAt: hourAgo)).workout
            var longer = workout
            longer.durationSeconds = 1_800
            let updatedWorkout: UpdatedWorkout = try await client.updateWorkout(longer)
            #expect(updatedWorkout.workout.durationSeconds == 1_800)
            #expect(updatedWorkout.workout.revision > workout.revision)

            let meal = try await client.logMeal(Meal(mealType: .dinner, eatenAt: hourAgo, name: "pasta", items: [FoodItem(name: "pasta", calories: 600)])).meal
            var smaller = meal
            smaller.items = [FoodItem(name: "pasta", calories: 450)]
            let updatedMeal: UpdatedMeal = try await client.updateMeal(smaller)
            #expect(updatedMeal.meal.totals.calories == 450)
            #expect(updatedMeal.meal.revision > meal.revision)

            let entry = try await client.logWeight(WeightEntry(weightKg: 70, measuredAt: hourAgo)).entry
            var corrected = entry
            corrected.weightKg = 69.5
            let updatedWeight: UpdatedWeight = try await client.updateWeight(corrected)
            #expect(updatedWeight.entry.weightKg == 69.5)
            #expect(updatedWeight.entry.revision > entry.revision)

            let deletedWorkout: DeletedWorkout = try await client.deleteWorkout(workout.id)
            let deletedMeal: DeletedMeal = try await client.deleteMeal(meal.id)
            let deletedWeight: DeletedWeight = try await client.deleteWeight(entry.id)
            #expect(deletedWorkout.deleted && deletedMeal.deleted && deletedWeight.deleted)
            #expect(deletedWorkout.totals.totalWorkouts == 0)
            #expect(try await client.deleteWorkout(workout.id).deleted == false)
            #expect(try await client.deleteMeal(meal.id).deleted == false)
            #expect(try await client.deleteWeight(entry.id).deleted == false)
            client.close()
        }
    }

    @Test("an achievement's sentence is `details`, in Swift and in its JSON")
    func achievementDetails() async throws {
        try await LiveServer.run { live in
            let client = live.client()
            _ = try await client.login(email: ownerEmail, password: ownerPassword)
            let first = try #require(try await client.achievements().first { $0.id == "workout_1" })
            #expect(!first.details.isEmpty)
            let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(first)) as? [String: Any])
            #expect(json["details"] as? String == first.details)
            #expect(json["description"] == nil)
            client.close()
        }
    }
}
