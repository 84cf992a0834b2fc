public import Foundation
import WorkoutProtocol

// Every record carries the id the client gave it, so each log, update and delete here is
// safe to send again after a lost connection: the server applies it once. Each call that sends a
// record checks it first by the server's own validation (`RecordChecks`), so a value out of
// bounds is refused with `INVALID_ARGUMENT` before it is sent, never clamped into range.
//
// The answers have one shape per kind of operation: a log answers `Logged<Kind>` (the stored
// record, `replayed`, and what it changed), an update `Updated<Kind>` (the record after it,
// and what it changed), a delete `Deleted<Kind>` (`deleted`, and what it changed). Workouts
// change the totals, so theirs carry the totals; a weigh-in changes the profile's weight.

extension WorkoutClient {
    /// Logs a workout: +50 points, totals, streak, achievements, in one transaction.
    ///
    /// - Parameter workout: The workout; its `id` makes the call idempotent.
    /// - Returns: The stored workout, the new totals, the achievements it unlocked, and
    ///   whether it had been logged before (`replayed`: nothing applied again).
    /// - Throws: ``WorkoutError``: `INVALID_ARGUMENT` naming the field (a value out of bounds
    ///   is refused before anything is sent: ``Workout/validate(now:)``); `ALREADY_EXISTS`
    ///   when the id was used for different content or a deleted record.
    public func logWorkout(_ workout: Workout) async throws(WorkoutError) -> LoggedWorkout {
        var request = Workout_V1_LogWorkoutRequest()
        try RecordChecks.check(.workout(workout), prefix: "workout")
        request.workout = try workout.wire()
        return LoggedWorkout(wire: try await call(MethodCatalog.logWorkout, request, idempotent: true))
    }

    /// Replaces a workout's fields.
    ///
    /// - Parameters:
    ///   - workout: The full workout, with the id of an existing one.
    ///   - expectedRevision: Apply only if the workout is still at this revision.
    /// - Returns: The updated workout, totals and newly unlocked achievements.
    /// - Throws: ``WorkoutError``: `NOT_FOUND`, `ABORTED`, `INVALID_ARGUMENT`.
    public func updateWorkout(_ workout: Workout, expectedRevision: UInt64? = nil) async throws(WorkoutError) -> UpdatedWorkout {
        var request = Workout_V1_UpdateWorkoutRequest()
        try RecordChecks.check(.workout(workout), prefix: "workout")
        request.workout = try workout.wire()
        request.expectedRevision = expectedRevision ?? 0
        return UpdatedWorkout(wire: try await call(MethodCatalog.updateWorkout, request, idempotent: expectedRevision == nil))
    }

    /// Deletes a workout (its points and totals are taken back).
    ///
    /// - Parameter id: The workout's id.
    /// - Returns: Whether it existed, and the totals after.
    /// - Throws: ``WorkoutError``.
    @discardableResult
    public func deleteWorkout(_ id: UUID) async throws(WorkoutError) -> DeletedWorkout {
        var request = Workout_V1_DeleteWorkoutRequest()
        request.id = id.wireBytes
        return DeletedWorkout(wire: try await call(MethodCatalog.deleteWorkout, request, idempotent: true))
    }

    /// Logs a meal with its food items.
    ///
    /// - Parameter meal: The meal; its `id` makes the call idempotent.
    /// - Returns: The stored meal (with its day and nutrition totals) and whether it was a replay.
    /// - Throws: ``WorkoutError``: `INVALID_ARGUMENT` naming the field; `ALREADY_EXISTS`.
    public func logMeal(_ meal: Meal) async throws(WorkoutError) -> LoggedMeal {
        var request = Workout_V1_LogMealRequest()
        try RecordChecks.check(.meal(meal), prefix: "meal")
        request.meal = meal.wire
        return LoggedMeal(wire: try await call(MethodCatalog.logMeal, request, idempotent: true))
    }

    /// Replaces a meal's fields and items.
    ///
    /// - Parameters:
    ///   - meal: The full meal, with the id of an existing one.
    ///   - expectedRevision: Apply only if the meal is still at this revision.
    /// - Returns: The updated meal (its day and nutrition totals recomputed).
    /// - Throws: ``WorkoutError``: `NOT_FOUND`, `ABORTED`, `INVALID_ARGUMENT`.
    public func updateMeal(_ meal: Meal, expectedRevision: UInt64? = nil) async throws(WorkoutError) -> UpdatedMeal {
        var request = Workout_V1_UpdateMealRequest()
        try RecordChecks.check(.meal(meal), prefix: "meal")
        request.meal = meal.wire
        request.expectedRevision = expectedRevision ?? 0
        return UpdatedMeal(wire: try await call(MethodCatalog.updateMeal, request, idempotent: expectedRevision == nil))
    }

    /// Deletes a meal.
    ///
    /// - Parameter id: The meal's id.
    /// - Returns: Whether it existed.
    /// - Throws: ``WorkoutError``.
    @discardableResult
    public func deleteMeal(_ id: UUID) async throws(WorkoutError) -> DeletedMeal {
        var request = Workout_V1_DeleteMealRequest()
        request.id = id.wireBytes
        return DeletedMeal(wire: try await call(MethodCatalog.deleteMeal, request, idempotent: true))
    }

    /// Logs a weigh-in; the newest one also becomes the profile's weight.
    ///
    /// - Parameter entry: The entry; its `id` makes the call idempotent.
    /// - Returns: The stored entry, whether it was a replay, and whether the profile changed.
    /// - Throws: ``WorkoutError``: `INVALID_ARGUMENT`, `ALREADY_EXISTS`.
    public func logWeight(_ entry: WeightEntry) async throws(WorkoutError) -> LoggedWeight {
        var request = Workout_V1_LogWeightRequest()
        try RecordChecks.check(.weight(entry), prefix: "entry")
        request.entry = entry.wire
        return LoggedWeight(wire: try await call(MethodCatalog.logWeight, request, idempotent: true))
    }

    /// Replaces a weigh-in's fields; the profile's weight follows the newest entry.
    ///
    /// - Parameters:
    ///   - entry: The full entry, with the id of an existing one.
    ///   - expectedRevision: Apply only if the entry is still at this revision.
    /// - Returns: The updated entry, and the profile's weight after it.
    /// - Throws: ``WorkoutError``: `NOT_FOUND`, `ABORTED`, `INVALID_ARGUMENT`.
    public func updateWeight(_ entry: WeightEntry, expectedRevision: UInt64? = nil) async throws(WorkoutError) -> UpdatedWeight {
        var request = Workout_V1_UpdateWeightRequest()
        try RecordChecks.check(.weight(entry), prefix: "entry")
        request.entry = entry.wire
        request.expectedRevision = expectedRevision ?? 0
        return UpdatedWeight(wire: try await call(MethodCatalog.updateWeight, request, idempotent: expectedRevision == nil))
    }

    /// Deletes a weigh-in.
    ///
    /// - Parameter id: The entry's id.
    /// - Returns: Whether it existed.
    /// - Throws: ``WorkoutError``.
    @discardableResult
    public func deleteWeight(_ id: UUID) async throws(WorkoutError) -> DeletedWeight {
        var request = Workout_V1_DeleteWeightRequest()
        request.id = id.wireBytes
        return DeletedWeight(wire: try await call(MethodCatalog.deleteWeight, request, idempotent: true))
    }

    /// Reports a day's step count from one source (a phone, a watch); a later report
    /// from the same source replaces the earlier one, and the day counts the highest source.
    ///
    /// - Parameter report: The day, source and count.
    /// - Returns: The day's figure after the report, and whether the report changed it.
    /// - Throws: ``WorkoutError``: `INVALID_ARGUMENT`.
    public func reportSteps(_ report: StepsReport) async throws(WorkoutError) -> StepsUpdate {
        var request = Workout_V1_ReportStepsRequest()
        try RecordChecks.check(.steps(report), prefix: "report")
        request.report = try report.wire()
        return StepsUpdate(wire: try await call(MethodCatalog.reportSteps, request, idempotent: true))
    }
}
