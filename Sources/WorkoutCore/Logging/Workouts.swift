import Foundation
import LMDB
import Storage
package import WorkoutProtocol
import WorkoutRules

/// Logging, editing and deleting workouts: the app's `recordWorkoutCompletion` and its inverse.
///
/// Logging a workout, in one transaction: total workouts +1, its calories and active time added,
/// +50 points, the streak updated (days in the zone the workout was logged in), achievements
/// checked, level = points / 1000 + 1. Editing or deleting one recomputes the totals and
/// streaks that depend on it; an achievement once unlocked stays unlocked (earned is earned).
extension HouseholdStore {
    /// Validates a workout from a request and fills in what the server decides.
    func validatedWorkout(_ workout: Workout_V1_Workout, now: Int64) throws -> (id: UUID, workout: Workout_V1_Workout) {
        let id = try Bounds.recordID(workout.id, field: "workout.id")
        try RecordValidation.workout(
            type: workout.workoutType, durationSeconds: Int(workout.durationSeconds), caloriesBurned: workout.caloriesBurned,
            exercisesCompleted: Int(workout.exercisesCompleted), notes: workout.notes, performedAtMs: workout.performedAtMs,
            timeZone: workout.timeZone, names: RecordFieldNames(.wire, prefix: "workout"), now: now)
        try RecordValidation.workoutDetail(
            WorkoutDetailFields(distanceM: workout.distanceM, elevationGainM: workout.elevationGainM, averageHeartRate: Int(workout.averageHeartRate),
                                maxHeartRate: Int(workout.maxHeartRate), steps: Int(workout.steps), location: workout.location.rawValue),
            names: RecordFieldNames(.wire, prefix: "workout"))
        var clean = Workout_V1_Workout()
        clean.id = id.data
        clean.workoutType = workout.workoutType
        clean.durationSeconds = workout.durationSeconds
        clean.caloriesBurned = workout.caloriesBurned
        clean.exercisesCompleted = workout.exercisesCompleted
        clean.performedAtMs = workout.performedAtMs
        clean.timeZone = workout.timeZone
        clean.notes = workout.notes
        clean.distanceM = workout.distanceM
        clean.elevationGainM = workout.elevationGainM
        clean.averageHeartRate = workout.averageHeartRate
        clean.maxHeartRate = workout.maxHeartRate
        clean.steps = workout.steps
        clean.location = workout.location
        return (id, clean)
    }

    /// Whether two workouts carry the same content (what the client sent, server fields aside);
    /// `ignoringTime` leaves their start and zone out (a template logged again).
    func sameContent(_ a: Workout_V1_Workout, _ b: Workout_V1_Workout, ignoringTime: Bool = false) -> Bool {
        a.workoutType == b.workoutType && a.durationSeconds == b.durationSeconds && a.caloriesBurned == b.caloriesBurned
            && a.exercisesCompleted == b.exercisesCompleted && (ignoringTime || (a.performedAtMs == b.performedAtMs && a.timeZone == b.timeZone))
            && a.notes == b.notes && a.distanceM == b.distanceM && a.elevationGainM == b.elevationGainM
            && a.averageHeartRate == b.averageHeartRate && a.maxHeartRate == b.maxHeartRate && a.steps == b.steps
            && a.location == b.location
    }

    /// Adds (`sign` = 1) or removes (`sign` = -1) a workout's share of the day and the totals.
    private func count(_ workout: Workout_V1_Workout, sign: Int, user: inout Workout_Store_V1_StoredUser, in txn: inout WriteTransaction) throws {
        guard let day = LocalDay(year: workout.localDay.year, month: workout.localDay.month, day: workout.localDay.day) else {
            throw DomainError(.internalError, "a stored workout has no valid local day")
        }
        let userID = UUID(bytes: user.userID)
        try adjustDay(user: userID, day: day, in: &txn) { figures in
            if sign > 0 {
                figures.workouts += 1
                figures.caloriesBurned += workout.caloriesBurned
                figures.activeSeconds += UInt64(workout.durationSeconds)
            } else {
                figures.workouts -= min(figures.workouts, 1)
                figures.caloriesBurned = max(0, figures.caloriesBurned - workout.caloriesBurned)
                figures.activeSeconds -= min(figures.activeSeconds, UInt64(workout.durationSeconds))
            }
        }
        if sign > 0 {
            user.totals.totalWorkouts += 1
            user.totals.totalCaloriesBurned += workout.caloriesBurned
            user.totals.totalActiveSeconds += UInt64(workout.durationSeconds)
        } else {
            user.totals.totalWorkouts -= min(user.totals.totalWorkouts, 1)
            user.totals.totalCaloriesBurned = max(0, user.totals.totalCaloriesBurned - workout.caloriesBurned)
            user.totals.totalActiveSeconds -= min(user.totals.totalActiveSeconds, UInt64(workout.durationSeconds))
        }
    }

    /// Logs a workout (idempotent by its client id).
    package func logWorkout(_ caller: Caller, _ request: Workout_V1_LogWorkoutRequest) async throws -> Workout_V1_LogWorkoutResponse {
        let now = clock.nowMilliseconds()
        let (id, requested) = try validatedWorkout(request.workout, now: now)
        return try await write(notifying: caller.userID) { [self] txn in
            var user = try authorize(caller, in: txn, now: now)
            let logged = try insertWorkout(requested, id: id, user: &user, now: now, in: &txn)
            if !logged.replayed { try saveUser(&user, profileChanged: false, now: now, in: &txn) }
            var response = Workout_V1_LogWorkoutResponse()
            response.workout = logged.workout
            response.totals = totals(of: user, now: now)
            response.unlocked = logged.unlocked
            response.replayed = logged.replayed
            return response
        }
    }

    /// What logging one workout did.
    struct LoggedWorkout {
        /// The stored workout (the earlier one when replayed).
        var workout: Workout_V1_Workout
        /// The achievements it unlocked.
        var unlocked: [Workout_V1_Achievement] = []
        /// Whether the same workout was stored already, so nothing changed.
        var replayed = false
    }

    /// Applies a validated workout to `user` inside `txn`: the record, its day, the totals, the
    /// streak, the achievements and the change log. The caller stores `user` afterwards (unless
    /// replayed): LogWorkout once per call, a bulk import once per batch.
    ///
    /// - Parameter updatingStreakAndAchievements: `false` leaves the streak and the
    ///   achievements to the caller, who settles them once for many workouts (an import batch:
    ///   see ``settleStreakAndAchievements(addedDays:user:now:in:)``).
    func insertWorkout(
        _ requested: Workout_V1_Workout, id: UUID, user: inout Workout_Store_V1_StoredUser, now: Int64, in txn: inout WriteTransaction,
        updatingStreakAndAchievements: Bool = true
    ) throws -> LoggedWorkout {
        let userID = UUID(bytes: user.userID)
        var workout = requested
        let zone = try recordZone(workout.timeZone, field: "workout.time_zone", user: user)
        workout.timeZone = zone.name
        let key = UserRecordKey(user: userID, id: id)
        if let existing = try txn.get(key, from: tables.workouts.table) {
            guard sameContent(existing, workout) else {
                throw DomainError.alreadyExists("a different workout with this id exists", field: "workout.id")
            }
            return LoggedWorkout(workout: existing, replayed: true)
        }
        try refuseTombstoned(.workout, user: userID, id: id, field: "workout.id", in: txn)
        let day = LocalDay.containing(instant: workout.performedAtMs, in: zone.zone)
        workout.localDay = day.wire
        workout.createdAtMs = now
        workout.updatedAtMs = now
        try count(workout, sign: 1, user: &user, in: &txn)
        var unlocked: [Workout_V1_Achievement] = []
        if updatingStreakAndAchievements {
            let summary = try Streaks.adding(day, to: streak(of: user.totals)) ?? recomputeStreaks(of: userID, in: txn)
            apply(summary, to: &user.totals)
            unlocked = try unlockAchievements(user: &user, pending: (id, workout), now: now, in: &txn)
        }
        workout.revision = try fileRecordChange(.workout, id: id, previousRevision: nil, user: &user, now: now, in: &txn)
        try txn.put(workout, forKey: key, in: tables.workouts)
        return LoggedWorkout(workout: workout, unlocked: unlocked)
    }

    /// Replaces a workout's fields and recomputes what depends on it.
    package func updateWorkout(_ caller: Caller, _ request: Workout_V1_UpdateWorkoutRequest) async throws -> Workout_V1_UpdateWorkoutResponse {
        let now = clock.nowMilliseconds()
        let (id, requested) = try validatedWorkout(request.workout, now: now)
        return try await write(notifying: caller.userID) { [self] txn in
            var user = try authorize(caller, in: txn, now: now)
            let key = UserRecordKey(user: caller.userID, id: id)
            guard let old = try txn.get(key, from: tables.workouts.table) else {
                throw DomainError.notFound("you have no workout with this id")
            }
            if request.expectedRevision != 0, request.expectedRevision != old.revision {
                throw DomainError.aborted("the workout changed meanwhile (revision \(old.revision), expected \(request.expectedRevision))")
            }
            var workout = requested
            let zone = try recordZone(workout.timeZone, field: "workout.time_zone", user: user)
            workout.timeZone = zone.name
            workout.localDay = LocalDay.containing(instant: workout.performedAtMs, in: zone.zone).wire
            workout.createdAtMs = old.createdAtMs
            workout.updatedAtMs = now
            try count(old, sign: -1, user: &user, in: &txn)
            try count(workout, sign: 1, user: &user, in: &txn)
            if old.localDay != workout.localDay {
                apply(try recomputeStreaks(of: caller.userID, in: txn), to: &user.totals)
            }
            var response = Workout_V1_UpdateWorkoutResponse()
            response.unlocked = try unlockAchievements(user: &user, pending: (id, workout), now: now, in: &txn)
            workout.revision = try fileRecordChange(.workout, id: id, previousRevision: old.revision, user: &user, now: now, in: &txn)
            try txn.put(workout, forKey: key, in: tables.workouts)
            try saveUser(&user, profileChanged: false, now: now, in: &txn)
            response.workout = workout
            response.totals = totals(of: user, now: now)
            return response
        }
    }

    /// Deletes a workout (idempotent: deleting one that is not there answers `deleted = false`).
    package func deleteWorkout(_ caller: Caller, _ request: Workout_V1_DeleteWorkoutRequest) async throws -> Workout_V1_DeleteWorkoutResponse {
        let id = try Bounds.recordID(request.id, field: "id")
        let now = clock.nowMilliseconds()
        return try await write(notifying: caller.userID) { [self] txn in
            var user = try authorize(caller, in: txn, now: now)
            var response = Workout_V1_DeleteWorkoutResponse()
            let key = UserRecordKey(user: caller.userID, id: id)
            guard let old = try txn.delete(key, from: tables.workouts) else {
                response.totals = totals(of: user, now: now)
                return response
            }
            try count(old, sign: -1, user: &user, in: &txn)
            apply(try recomputeStreaks(of: caller.userID, in: txn), to: &user.totals)
            try fileTombstone(.workout, id: id, previousRevision: old.revision, user: &user, now: now, in: &txn)
            try saveUser(&user, profileChanged: false, now: now, in: &txn)
            response.deleted = true
            response.totals = totals(of: user, now: now)
            return response
        }
    }
}
