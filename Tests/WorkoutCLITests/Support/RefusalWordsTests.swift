import Foundation
import Testing
import WorkoutClient
import WorkoutOffline
@testable import workout

/// A queued write the server refused when `workout sync` delivered it is said in the words of
/// the command that queued it, as live refusals are: options, their units, dates.
@Suite("Refusals of queued writes, in the CLI's words")
struct RefusalWordsTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// 2027-01-01T06:00:00Z, 07:00 in Berlin: when the server refused.
    static let refusedAt = Date(timeIntervalSince1970: 1_798_783_200)

    /// A refusal of `INVALID_ARGUMENT` as the outbox keeps it: the message in the Swift call's
    /// terms, the field both ways.
    static func refusal(_ message: String, field: String, wireField: String) -> WriteRefusal {
        WriteRefusal(code: .invalidArgument, message: message, field: field, wireField: wireField, refusedAt: refusedAt)
    }

    @Test("A value out of bounds is said as the command's own check says it", arguments: [
        (PendingWrite.logWorkout(Workout(type: "running", durationSeconds: 324_000, performedAt: refusedAt)),
         refusal("workout.durationSeconds must be between 1 and 86400 (got 324000)", field: "workout.durationSeconds", wireField: "workout.duration_seconds"),
         "invalid input: --minutes must be at most 1,440 (24 hours); got 5400"),
        (.logWeight(WeightEntry(weightKg: 720, measuredAt: refusedAt)),
         refusal("entry.weightKg must be between 10 and 500 (got 720)", field: "entry.weightKg", wireField: "entry.weight_kg"),
         "invalid input: the weight must be between 10 and 500 kg (got 720)"),
        (.updateWeight(WeightEntry(weightKg: 720, measuredAt: refusedAt), expectedRevision: 3),
         refusal("entry.weightKg must be between 10 and 500 (got 720)", field: "entry.weightKg", wireField: "entry.weight_kg"),
         "invalid input: --weight must be between 10 and 500 kg (got 720)"),
        (.logMeal(Meal(mealType: .breakfast, eatenAt: refusedAt.addingTimeInterval(2 * 86_400), items: [FoodItem(name: "oats", calories: 380)])),
         refusal("meal.eatenAtMs must be between 946684800000 (2000-01-01T00:00:00Z) and 1798869600000 (server time + 1 day), in milliseconds since 1970 (got 1798956000000)",
                 field: "meal.eatenAtMs", wireField: "meal.eaten_at_ms"),
         "invalid input: --at must be no more than a day ahead (got 2027-01-03 07:00)"),
    ])
    func outOfBounds(write: PendingWrite, refusal: WriteRefusal, expected: String) {
        let message = RefusedWrite.message(refusal, of: write, server: "nas.local:7420", zone: Self.berlin)
        #expect(message == expected)
        for wireWord in ["durationSeconds", "weightKg", "eatenAtMs", "_ms", "1798956000000"] {
            #expect(!message.contains(wireWord), "\(message)")
        }
    }

    @Test("A bound only the server's clock decides is said in the option's words too")
    func serverClock() {
        // Within a day of this machine's clock, beyond the server's: the local check passes.
        let write = PendingWrite.logWorkout(Workout(type: "running", durationSeconds: 1_800, performedAt: Self.refusedAt.addingTimeInterval(3_600)))
        let refusal = Self.refusal(
            "workout.performedAtMs must be between 946684800000 (2000-01-01T00:00:00Z) and 1798780000000 (server time + 1 day), in milliseconds since 1970 (got 1798786800000)",
            field: "workout.performedAtMs", wireField: "workout.performed_at_ms")
        #expect(RefusedWrite.message(refusal, of: write, server: "nas.local:7420", zone: Self.berlin)
            == "invalid input: --at must be from 2000-01-01 to no more than a day ahead of the server's clock")
    }

    @Test("Other refusals read as live ones do")
    func otherRefusals() {
        let write = PendingWrite.updateWorkout(Workout(type: "running", durationSeconds: 1_800, performedAt: Self.refusedAt), expectedRevision: 4)
        let refusal = WriteRefusal(code: .aborted, message: "workout 0190 is at revision 5, not 4", refusedAt: Self.refusedAt)
        #expect(RefusedWrite.message(refusal, of: write, server: "nas.local:7420", zone: Self.berlin)
            == "the record changed meanwhile; try again (workout 0190 is at revision 5, not 4)")
    }
}
