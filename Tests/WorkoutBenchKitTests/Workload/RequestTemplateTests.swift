import Foundation
import Testing
import WorkoutBenchKit
import WorkoutProtocol

/// Request bodies encoded once and patched per request.
@Suite("Request templates")
struct RequestTemplateTests {
    @Test("Stamping puts a fresh id and the time into the body; it decodes as the message with those values")
    func stamping() throws {
        var request = Workout_V1_LogWeightRequest()
        request.entry.id = Data(RequestTemplate.idSentinel)
        request.entry.weightKg = 72.4
        request.entry.measuredAtMs = RequestTemplate.timeSentinel
        request.entry.note = "after breakfast"
        var template = try RequestTemplate(method: 307, message: request, hasID: true, hasTime: true)
        let length = template.bytes.count
        var ids = TimeOrderedIDGenerator(seed: 1)
        var seen = Set<Data>()
        for time in [Int64(1_780_315_200_000), 1_780_315_200_001, Int64(1) << 35, (Int64(1) << 42) - 1] {
            template.stamp(milliseconds: time, ids: &ids)
            #expect(template.bytes.count == length)
            let decoded = try Workout_V1_LogWeightRequest(serializedBytes: template.bytes)
            #expect(decoded.entry.measuredAtMs == time)
            #expect(decoded.entry.weightKg == 72.4 && decoded.entry.note == "after breakfast")
            #expect(decoded.entry.id.count == 16 && decoded.entry.id != Data(RequestTemplate.idSentinel))
            seen.insert(decoded.entry.id)
        }
        #expect(seen.count == 4)
    }

    @Test("A body without the sentinels it claims is refused")
    func missingSentinel() throws {
        var request = Workout_V1_LogWeightRequest()
        request.entry.measuredAtMs = 1_780_315_200_000
        #expect(throws: RequestTemplate.Failure.self) {
            try RequestTemplate(method: 307, message: request, hasID: true, hasTime: false)
        }
        #expect(throws: RequestTemplate.Failure.self) {
            try RequestTemplate(method: 307, message: request, hasID: false, hasTime: true)
        }
        let fixed = try RequestTemplate(method: 402, message: request)
        #expect(fixed.idOffset == nil && fixed.timeOffset == nil && fixed.method == 402)
    }

    @Test("Every body a run sends decodes, for every scenario's templates")
    func bodies() throws {
        let plan = DataPlan(members: 3, recordsPerMember: 25, mealsPerDay: 10, nowMilliseconds: 1_780_315_200_000)
        var bodies = try RequestBodies(plan: plan, membersUsed: 3)
        #expect(bodies.mealsOfDay.count == 3)
        let first = try Workout_V1_MealsOfDayRequest(serializedBytes: bodies.mealsOfDay[0])
        #expect(first.day == plan.firstDay.wire)
        #expect(try Workout_V1_WorkoutHistoryRequest(serializedBytes: bodies.historyPage).pageSize == 20)
        #expect(try Workout_V1_LoginRequest(serializedBytes: bodies.memberLogins[2]).email == "member2@bench.example")
        #expect(try Workout_V1_LoginRequest(serializedBytes: bodies.ownerLogin).email == "owner@bench.example")
        var ids = TimeOrderedIDGenerator(seed: 2)
        bodies.logWorkout.stamp(milliseconds: 1_780_315_200_123, ids: &ids)
        let workout = try Workout_V1_LogWorkoutRequest(serializedBytes: bodies.logWorkout.bytes).workout
        #expect(workout.performedAtMs == 1_780_315_200_123 && workout.durationSeconds >= 1_200)
        bodies.logMeal.stamp(milliseconds: 1_780_315_200_124, ids: &ids)
        let meal = try Workout_V1_LogMealRequest(serializedBytes: bodies.logMeal.bytes).meal
        #expect(meal.eatenAtMs == 1_780_315_200_124 && meal.items.count == 2)
        bodies.reportSteps.stamp(milliseconds: 1_780_315_200_125, ids: &ids)
        let steps = try Workout_V1_ReportStepsRequest(serializedBytes: bodies.reportSteps.bytes).report
        #expect(steps.reportedAtMs == 1_780_315_200_125 && steps.day == plan.today.wire)
    }
}
