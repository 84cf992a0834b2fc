import Foundation
import WorkoutCore
import WorkoutProtocol

/// Every request body a run sends, encoded before the run: fixed bodies as bytes, writes as
/// ``RequestTemplate``s whose id and time are patched per request.
package struct RequestBodies: Sendable {
    /// `MealsOfDayRequest` for each preloaded day, in day order (the member's zone).
    package let mealsOfDay: [[UInt8]]
    /// `MealsOfDayRequest` for today.
    package let mealsToday: [UInt8]
    /// `ProgressRequest` for each preloaded day (today when none), in day order.
    package let progressOfDay: [[UInt8]]
    /// `SearchFoodsRequest` for each query of ``FoodLibraryPlan/queries``.
    package let foodSearches: [[UInt8]]
    /// `WorkoutHistoryRequest` for the newest page of 20.
    package let historyPage: [UInt8]
    /// `LogWeightRequest`.
    package var logWeight: RequestTemplate
    /// `LogWorkoutRequest`.
    package var logWorkout: RequestTemplate
    /// `LogMealRequest` with two food items.
    package var logMeal: RequestTemplate
    /// `ReportStepsRequest` for today from the source "phone".
    package var reportSteps: RequestTemplate
    /// `LoginRequest` of the owner.
    package let ownerLogin: [UInt8]
    /// `LoginRequest` of each member the load connections use, by member number.
    package let memberLogins: [[UInt8]]

    /// The agent and device name the bench announces.
    package static let agent = "workout-bench"

    /// Encodes the bodies for `plan`, with logins for members `0..<membersUsed`.
    ///
    /// - Throws: protobuf's errors, ``RequestTemplate/Failure``.
    package init(plan: DataPlan, membersUsed: Int) throws {
        mealsOfDay = try (0..<plan.days).map { index in
            var request = Workout_V1_MealsOfDayRequest()
            request.day = plan.day(index).wire
            return try request.serializedBytes()
        }
        var today = Workout_V1_MealsOfDayRequest()
        today.day = plan.today.wire
        mealsToday = try today.serializedBytes()
        progressOfDay = try (plan.days > 0 ? (0..<plan.days).map(plan.day) : [plan.today]).map { day in
            var request = Workout_V1_ProgressRequest()
            request.day = day.wire
            return try request.serializedBytes()
        }
        foodSearches = try FoodLibraryPlan.queries.map { query in
            var request = Workout_V1_SearchFoodsRequest()
            request.query = query
            request.pageSize = 20
            return try request.serializedBytes()
        }
        var history = Workout_V1_WorkoutHistoryRequest()
        history.pageSize = 20
        historyPage = try history.serializedBytes()

        var random = FastRandom(seed: 7)
        var weight = Workout_V1_LogWeightRequest()
        weight.entry.id = Data(RequestTemplate.idSentinel)
        weight.entry.weightKg = 72.4
        weight.entry.measuredAtMs = RequestTemplate.timeSentinel
        logWeight = try RequestTemplate(method: MethodCatalog.logWeight.number, message: weight, hasID: true, hasTime: true)

        var workout = Workout_V1_LogWorkoutRequest()
        workout.workout = DataPlan.workout(id: RequestTemplate.idSentinel, at: RequestTemplate.timeSentinel, random: &random)
        logWorkout = try RequestTemplate(method: MethodCatalog.logWorkout.number, message: workout, hasID: true, hasTime: true)

        var meal = Workout_V1_LogMealRequest()
        meal.meal = DataPlan.meal(id: RequestTemplate.idSentinel, at: RequestTemplate.timeSentinel, slot: 2, random: &random)
        logMeal = try RequestTemplate(method: MethodCatalog.logMeal.number, message: meal, hasID: true, hasTime: true)

        var steps = Workout_V1_ReportStepsRequest()
        steps.report.day = plan.today.wire
        steps.report.source = "phone"
        steps.report.steps = 6_543
        steps.report.reportedAtMs = RequestTemplate.timeSentinel
        reportSteps = try RequestTemplate(method: MethodCatalog.reportSteps.number, message: steps, hasID: false, hasTime: true)

        ownerLogin = try Self.login(email: plan.ownerEmail, password: plan.password)
        memberLogins = try (0..<membersUsed).map { try Self.login(email: plan.memberEmail($0), password: plan.password) }
    }

    /// A `LoginRequest` body.
    package static func login(email: String, password: String) throws -> [UInt8] {
        var request = Workout_V1_LoginRequest()
        request.email = email
        request.password = password
        request.deviceName = agent
        return try request.serializedBytes()
    }

    /// A `ResumeRequest` body.
    package static func resume(token: [UInt8]) throws -> [UInt8] {
        var request = Workout_V1_ResumeRequest()
        request.sessionToken = Data(token)
        return try request.serializedBytes()
    }
}
