import ClientTestSupport
import Foundation
import ServerTestSupport
import TestSupport
import Testing
@testable import WorkoutClient
import WorkoutProtocol

/// The client's record checks (what the calls, the outbox and an import apply before sending) and
/// the server's validation are one (`RecordValidation`): a record at each bound passes both, one
/// just past it is refused by both, with the same field and message.
@Suite("The record checks agree with the server's bounds")
struct RecordChecksTests {
    /// Records at and just past each bound, and whether the server takes them.
    static func cases() -> [(name: String, record: ImportRecord, accepted: Bool)] {
        let at = Date().addingTimeInterval(-3_600)
        func workout(_ name: String, duration: Int = 1_800, calories: Double = 300, exercises: Int = 0, type: String = "running",
                     notes: String = "", accepted: Bool) -> (String, ImportRecord, Bool) {
            (name, .workout(Workout(type: type, durationSeconds: duration, caloriesBurned: calories, exercisesCompleted: exercises,
                                    performedAt: at, notes: notes)), accepted)
        }
        func meal(_ name: String, items: [FoodItem], mealName: String = "", accepted: Bool) -> (String, ImportRecord, Bool) {
            (name, .meal(Meal(mealType: .lunch, eatenAt: at, name: mealName, items: items)), accepted)
        }
        let item = FoodItem(name: "rice", calories: 200)
        let yesterday = LocalDate(at, in: TimeZone(identifier: "UTC")!)
        return [
            workout("a 24-hour workout", duration: 86_400, accepted: true),
            workout("a workout a second over 24 hours", duration: 86_401, accepted: false),
            workout("a workout of no time", duration: 0, accepted: false),
            workout("20,000 kcal burned", calories: 20_000, accepted: true),
            workout("20,001 kcal burned", calories: 20_001, accepted: false),
            workout("1,000 exercises", exercises: 1_000, accepted: true),
            workout("1,001 exercises", exercises: 1_001, accepted: false),
            workout("a 64-byte type", type: String(repeating: "t", count: 64), accepted: true),
            workout("a 65-byte type", type: String(repeating: "t", count: 65), accepted: false),
            workout("a control character in the type", type: "run\u{7}", accepted: false),
            workout("1,000 bytes of notes", notes: String(repeating: "n", count: 1_000), accepted: true),
            workout("1,001 bytes of notes", notes: String(repeating: "n", count: 1_001), accepted: false),
            meal("100 items", items: Array(repeating: item, count: 100), accepted: true),
            meal("101 items", items: Array(repeating: item, count: 101), accepted: false),
            meal("a 128-byte name", items: [item], mealName: String(repeating: "m", count: 128), accepted: true),
            meal("a 129-byte name", items: [item], mealName: String(repeating: "m", count: 129), accepted: false),
            meal("10,000 kcal in an item", items: [FoodItem(name: "feast", calories: 10_000)], accepted: true),
            meal("10,001 kcal in an item", items: [FoodItem(name: "feast", calories: 10_001)], accepted: false),
            meal("1,000 g of fat", items: [FoodItem(name: "lard", calories: 100, fatG: 1_000)], accepted: true),
            meal("1,001 g of fat", items: [FoodItem(name: "lard", calories: 100, fatG: 1_001)], accepted: false),
            meal("0.01 servings", items: [FoodItem(name: "salt", calories: 0, servings: 0.01)], accepted: true),
            meal("0.009 servings", items: [FoodItem(name: "salt", calories: 0, servings: 0.009)], accepted: false),
            ("a weigh-in of 500 kg", .weight(WeightEntry(weightKg: 500, measuredAt: at)), true),
            ("a weigh-in of 500.1 kg", .weight(WeightEntry(weightKg: 500.1, measuredAt: at)), false),
            ("a weigh-in of 9.9 kg", .weight(WeightEntry(weightKg: 9.9, measuredAt: at)), false),
            ("a 257-byte note", .weight(WeightEntry(weightKg: 70, measuredAt: at, note: String(repeating: "w", count: 257))), false),
            ("200,000 steps", .steps(StepsReport(day: yesterday, source: "phone", steps: 200_000)), true),
            ("200,001 steps", .steps(StepsReport(day: yesterday, source: "phone", steps: 200_001)), false),
            ("a 65-byte steps source", .steps(StepsReport(day: yesterday, source: String(repeating: "s", count: 65), steps: 10)), false),
        ].map { (name: $0.0, record: $0.1, accepted: $0.2) }
    }

    @Test("At each bound the client and the server take the record; past it both refuse it with the same field and message")
    func agreeWithTheServer() async throws {
        try await LiveServer.run { live in
            let owner = live.client()
            _ = try await owner.login(email: ownerEmail, password: ownerPassword)
            for (name, record, accepted) in Self.cases() {
                let argument = switch record {
                case .workout: "workout"
                case .meal: "meal"
                case .weight: "entry"
                case .steps: "report"
                }
                let local = RecordChecks.error(in: record, prefix: argument)
                #expect((local == nil) == accepted, "client, \(name): \(local.map { "\($0)" } ?? "taken")")
                // Sent as the wire carries it, past the client's own check: the server's verdict.
                let refusal = await failure {
                    switch record {
                    case .workout(let workout):
                        var request = Workout_V1_LogWorkoutRequest()
                        request.workout = try workout.wire()
                        _ = try await owner.call(MethodCatalog.logWorkout, request, idempotent: true, api: "logWorkout(_:)")
                    case .meal(let meal):
                        var request = Workout_V1_LogMealRequest()
                        request.meal = meal.wire
                        _ = try await owner.call(MethodCatalog.logMeal, request, idempotent: true, api: "logMeal(_:)")
                    case .weight(let entry):
                        var request = Workout_V1_LogWeightRequest()
                        request.entry = entry.wire
                        _ = try await owner.call(MethodCatalog.logWeight, request, idempotent: true, api: "logWeight(_:)")
                    case .steps(let report):
                        var request = Workout_V1_ReportStepsRequest()
                        request.report = try report.wire()
                        _ = try await owner.call(MethodCatalog.reportSteps, request, idempotent: true, api: "reportSteps(_:)")
                    }
                }
                #expect((refusal == nil) == accepted, "server, \(name): \(refusal.map { "\($0)" } ?? "taken")")
                if !accepted {
                    #expect(refusal?.code == .invalidArgument, "server, \(name)")
                    #expect(local?.field == refusal?.field, "\(name)")
                    #expect(local?.wireField == refusal?.wireField, "\(name)")
                    #expect(local?.message == refusal?.message, "\(name)")
                }
            }
        }
    }
}
