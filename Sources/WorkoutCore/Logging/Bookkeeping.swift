import Foundation
import LMDB
import Storage
import WorkoutProtocol
import WorkoutRules

/// What every logging write shares: the per-day figures, streaks, achievements, tombstones.
extension HouseholdStore {
    /// The kinds of record a tombstone or change-log entry names.
    enum RecordKind: UInt8 {
        case workout = 1, meal = 2, weight = 3

        var changeKind: Workout_Store_V1_ChangeKind {
            switch self {
            case .workout: .workout
            case .meal: .meal
            case .weight: .weight
            }
        }

        var wire: Workout_V1_RecordKind {
            switch self {
            case .workout: .workout
            case .meal: .meal
            case .weight: .weightEntry
            }
        }
    }

    /// Adds `change` (which may be negative) to `user`'s figures of `day`.
    func adjustDay(user: UUID, day: LocalDay, in txn: inout WriteTransaction, _ change: (inout Workout_Store_V1_StoredDay) -> Void) throws {
        let key = UserDayKey(user: user, epochDay: day.epochDay)
        var figures = try txn.get(key, from: tables.days) ?? Workout_Store_V1_StoredDay()
        change(&figures)
        if figures == Workout_Store_V1_StoredDay() || (figures.workouts == 0 && figures.meals == 0) {
            try txn.delete(key, from: tables.days)
        } else {
            try txn.put(figures, forKey: key, in: tables.days)
        }
    }

    /// Recomputes `user`'s streaks from their days with workouts (after a deletion or a
    /// workout logged on an earlier day).
    func recomputeStreaks(of user: UUID, in txn: borrowing some TransactionReading & ~Copyable) throws -> StreakSummary {
        let days = try txn.scan(tables.days, ScanRequest(range: .prefix(user.orderedKey))).elements
            .filter { $0.value.workouts > 0 }
            .map { LocalDay(epochDay: $0.key.epochDay) }
        return Streaks.summarize(days: days)
    }

    /// Stores a streak summary into stored totals.
    func apply(_ summary: StreakSummary, to totals: inout Workout_Store_V1_StoredTotals) {
        totals.streakRun = summary.run
        totals.longestStreak = summary.longest
        if let last = summary.lastDay {
            totals.workoutDayRecorded = true
            totals.lastWorkoutEpochDay = last.epochDay
        } else {
            totals.workoutDayRecorded = false
            totals.lastWorkoutEpochDay = 0
        }
    }

    /// The stored totals' streak as a summary.
    func streak(of totals: Workout_Store_V1_StoredTotals) -> StreakSummary {
        StreakSummary(
            run: totals.streakRun, longest: totals.longestStreak,
            lastDay: totals.workoutDayRecorded ? LocalDay(epochDay: totals.lastWorkoutEpochDay) : nil)
    }

    /// Unlocks every achievement `user`'s totals now reach, once each, adding its points.
    ///
    /// Each is dated by the workout that made its figure reach the target, the workouts taken
    /// in the order they happened (``AchievementCatalog/earnedAt(_:workouts:)``), and never
    /// later than `now`: a back-dated or imported history unlocks with the dates it was earned.
    ///
    /// - Parameters:
    ///   - pending: A workout this write stores after the call (its id and content): counted
    ///     with the stored ones, in place of a stored one with its id.
    ///   - stepsGoalEarnedAt: For the steps-goal achievements, by target, the instant their run
    ///     was completed (``settleStepsGoalRuns(changed:user:now:in:)``); `now` for a target
    ///     without one.
    /// - Returns: the achievements unlocked by this write.
    func unlockAchievements(
        user: inout Workout_Store_V1_StoredUser, pending: (id: UUID, workout: Workout_V1_Workout)? = nil,
        stepsGoalEarnedAt: [UInt32: Int64] = [:], now: Int64, in txn: inout WriteTransaction
    ) throws -> [Workout_V1_Achievement] {
        let userID = UUID(bytes: user.userID)
        // Every workout asks; the names are in the keys, so no achievement is decoded.
        let unlocked = Set(try txn.scanKeys(tables.achievements, ScanRequest(range: .prefix(userID.orderedKey))).elements.map(\.name))
        let reached = AchievementCatalog.newlyUnlocked(figures(of: user.totals), unlocked: unlocked)
        guard !reached.isEmpty else { return [] }
        // Only the workouts' achievements are dated by the workouts.
        let workouts = reached.contains { $0.kind != .stepsGoalDays } ? try datedWorkouts(of: userID, pending: pending, in: txn) : []
        var new: [Workout_V1_Achievement] = []
        for definition in reached {
            var achievement = wireAchievement(definition, totals: user.totals)
            achievement.unlocked = true
            let earned = definition.kind == .stepsGoalDays
                ? stepsGoalEarnedAt[definition.target]
                : AchievementCatalog.earnedAt(definition, workouts: workouts)
            achievement.unlockedAtMs = min(earned ?? now, now)
            try txn.put(achievement, forKey: UserNameKey(user: userID, name: definition.id), in: tables.achievements)
            user.totals.achievementPoints += UInt64(definition.points)
            user.totals.achievementsUnlocked += 1
            var change = Workout_Store_V1_StoredChange()
            change.kind = .achievement
            change.achievementID = definition.id
            change.changedAtMs = now
            _ = try recordChange(change, replacing: nil, user: &user, in: &txn)
            new.append(achievement)
        }
        return new
    }

    /// `user`'s workouts as the dating of achievements sees them, `pending` in place of a
    /// stored workout with its id.
    private func datedWorkouts(
        of user: UUID, pending: (id: UUID, workout: Workout_V1_Workout)?, in txn: borrowing some TransactionReading & ~Copyable
    ) throws -> [DatedWorkout] {
        func dated(_ workout: Workout_V1_Workout) -> DatedWorkout? {
            LocalDay(year: workout.localDay.year, month: workout.localDay.month, day: workout.localDay.day)
                .map { DatedWorkout(time: workout.performedAtMs, day: $0) }
        }
        var workouts = try txn.scan(tables.workouts.table, ScanRequest(range: .prefix(user.orderedKey))).elements
            .filter { $0.key.id != pending?.id }
            .compactMap { dated($0.value) }
        if let pending, let workout = dated(pending.workout) { workouts.append(workout) }
        return workouts
    }

    /// The wire form of an achievement definition with the member's progress (not unlocked).
    func wireAchievement(_ definition: AchievementDefinition, totals: Workout_Store_V1_StoredTotals) -> Workout_V1_Achievement {
        var achievement = Workout_V1_Achievement()
        achievement.achievementID = definition.id
        achievement.title = definition.title
        achievement.description_p = definition.description
        achievement.points = definition.points
        achievement.target = definition.target
        achievement.progress = AchievementCatalog.progress(of: definition, figures(of: totals))
        return achievement
    }

    /// The figures of stored totals that achievements' targets count.
    func figures(of totals: Workout_Store_V1_StoredTotals) -> AchievementFigures {
        AchievementFigures(
            totalWorkouts: totals.totalWorkouts, longestStreak: totals.longestStreak, longestStepsGoalRun: totals.longestStepsGoalRun)
    }

    /// Refuses an id that a deleted record of the same kind had.
    ///
    /// - Parameter field: The request field holding the id (`workout.id`, `meal.id`, `entry.id`),
    ///   named in the error.
    func refuseTombstoned(_ kind: RecordKind, user: UUID, id: UUID, field: String, in txn: borrowing some TransactionReading & ~Copyable) throws {
        if try txn.contains(TombstoneKey(user: user, kind: kind.rawValue, id: id), in: tables.tombstones) {
            throw DomainError.alreadyExists("\(field): a deleted record had this id; ids are never reused", field: field)
        }
    }

    /// Records the deletion of a record: a tombstone, and a change-log entry replacing the record's.
    func fileTombstone(_ kind: RecordKind, id: UUID, previousRevision: UInt64, user: inout Workout_Store_V1_StoredUser, now: Int64, in txn: inout WriteTransaction) throws {
        var change = Workout_Store_V1_StoredChange()
        change.kind = kind.changeKind
        change.recordID = id.data
        change.deleted = true
        change.changedAtMs = now
        let revision = try recordChange(change, replacing: previousRevision, user: &user, in: &txn)
        try txn.put(revision.orderedKey.bytes, forKey: TombstoneKey(user: UUID(bytes: user.userID), kind: kind.rawValue, id: id), in: tables.tombstones)
    }

    /// Files a record's change-log entry (replacing its previous one) and returns its new revision.
    func fileRecordChange(_ kind: RecordKind, id: UUID, previousRevision: UInt64?, user: inout Workout_Store_V1_StoredUser, now: Int64, in txn: inout WriteTransaction) throws -> UInt64 {
        var change = Workout_Store_V1_StoredChange()
        change.kind = kind.changeKind
        change.recordID = id.data
        change.changedAtMs = now
        return try recordChange(change, replacing: previousRevision, user: &user, in: &txn)
    }

    /// The zone a record is logged in: its own when given (validated), else the member's.
    func recordZone(_ name: String, field: String, user: Workout_Store_V1_StoredUser) throws -> (name: String, zone: TimeZone) {
        try recordZone(name, field: field, memberZone: user.timeZone)
    }

    /// The zone named `name`, or the member's zone `memberZone` when `name` is empty.
    func recordZone(_ name: String, field: String, memberZone: String) throws -> (name: String, zone: TimeZone) {
        let effective = name.isEmpty ? memberZone : name
        return (effective, try TimeZoneCatalog.zone(named: effective, field: field))
    }
}
