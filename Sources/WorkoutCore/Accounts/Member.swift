import Foundation
import LMDB
import Storage
package import WorkoutProtocol
import WorkoutRules

/// Stored users as the wire shows them, and the bookkeeping every member write shares:
/// checking the session, bumping the revision, keeping the change log.
extension HouseholdStore {
    /// The caller's account, after checking inside `txn` that their session exists and has not
    /// expired.
    ///
    /// - Throws: ``DomainError`` `unauthenticated` when the session is gone or expired.
    func authorize(_ caller: Caller, in txn: borrowing some TransactionReading & ~Copyable, now: Int64) throws -> Workout_Store_V1_StoredUser {
        guard let session = try txn.get(DigestKey(caller.tokenDigest), from: tables.sessions.table),
              session.expiresAtMs > now, UUID(bytes: session.userID) == caller.userID
        else { throw DomainError(.unauthenticated, "the session has expired or was revoked; log in again") }
        guard let user = try txn.get(caller.userID, from: tables.users.table) else {
            throw DomainError(.unauthenticated, "the account no longer exists")
        }
        return user
    }

    /// The member's profile zone (UTC for a zone this build does not know): where their days begin.
    func zone(of user: Workout_Store_V1_StoredUser) -> TimeZone {
        (try? TimeZoneCatalog.zone(named: user.timeZone, field: "time_zone")) ?? TimeZone(identifier: "UTC")!
    }

    /// Whether the member is an admin or the owner.
    func isAdmin(_ user: Workout_Store_V1_StoredUser) -> Bool {
        user.role == Int32(Workout_V1_Role.admin.rawValue) || user.role == Int32(Workout_V1_Role.owner.rawValue)
    }

    /// The caller's account, for an operation that also requires an admin or the owner.
    func authorizeAdmin(_ caller: Caller, in txn: borrowing some TransactionReading & ~Copyable, now: Int64) throws -> Workout_Store_V1_StoredUser {
        let user = try authorize(caller, in: txn, now: now)
        guard isAdmin(user) else {
            throw DomainError(.permissionDenied, "only an admin may do this")
        }
        return user
    }

    /// Moves `user`'s revision on and files `change` in the change log under it, removing the
    /// entry the same item had before (each item keeps only its latest entry).
    ///
    /// - Returns: the new revision, for the record to carry.
    func recordChange(
        _ change: Workout_Store_V1_StoredChange, replacing previousRevision: UInt64?,
        user: inout Workout_Store_V1_StoredUser, in txn: inout WriteTransaction
    ) throws -> UInt64 {
        let userID = UUID(bytes: user.userID)
        if let previousRevision, previousRevision > 0 {
            try txn.delete(UserRevisionKey(user: userID, revision: previousRevision), from: tables.changes)
        }
        user.revision += 1
        try txn.put(change, forKey: UserRevisionKey(user: userID, revision: user.revision), in: tables.changes)
        return user.revision
    }

    /// Files a profile change (the profile or totals moved) and stores `user`.
    func saveUser(_ user: inout Workout_Store_V1_StoredUser, profileChanged: Bool, now: Int64, in txn: inout WriteTransaction) throws {
        if profileChanged { try fileProfileChange(&user, now: now, in: &txn) }
        try txn.put(user, forKey: UUID(bytes: user.userID), in: tables.users)
    }

    /// Files a profile change (the profile or totals moved) without storing `user`.
    func fileProfileChange(_ user: inout Workout_Store_V1_StoredUser, now: Int64, in txn: inout WriteTransaction) throws {
        var change = Workout_Store_V1_StoredChange()
        change.kind = .profile
        change.changedAtMs = now
        user.profileRevision = try recordChange(change, replacing: user.profileRevision, user: &user, in: &txn)
    }

    /// The wire profile of a stored user.
    func profile(of user: Workout_Store_V1_StoredUser) -> Workout_V1_Profile {
        var profile = Workout_V1_Profile()
        profile.userID = user.userID
        // Lower-cased: email_key. Stores written before emails were stored lower-cased hold
        // `email` as typed; email_key has always been the lower-cased form, so reading it
        // answers every store alike without a migration.
        profile.email = user.emailKey
        profile.firstName = user.firstName
        profile.lastName = user.lastName
        profile.displayName = user.displayName
        profile.age = user.age
        profile.heightCm = user.heightCm
        profile.weightKg = user.weightKg
        profile.fitnessGoal = Workout_V1_FitnessGoal(rawValue: Int(user.fitnessGoal)) ?? .unspecified
        profile.timeZone = user.timeZone
        profile.shareWithHousehold = user.shareWithHousehold
        profile.role = Workout_V1_Role(rawValue: Int(user.role)) ?? .member
        profile.createdAtMs = user.createdAtMs
        profile.revision = user.profileRevision
        profile.stepsSourcePriority = user.stepsSourcePriority
        return profile
    }

    /// The wire totals of a stored user, the current streak judged on today in their zone.
    func totals(of user: Workout_Store_V1_StoredUser, now: Int64) -> Workout_V1_Totals {
        let stored = user.totals
        var totals = Workout_V1_Totals()
        totals.totalWorkouts = stored.totalWorkouts
        totals.totalCaloriesBurned = stored.totalCaloriesBurned
        totals.totalActiveSeconds = stored.totalActiveSeconds
        totals.points = Scoring.points(workouts: stored.totalWorkouts, achievementPoints: stored.achievementPoints)
        totals.level = Scoring.level(points: totals.points)
        totals.longestStreakDays = stored.longestStreak
        totals.achievementsUnlocked = stored.achievementsUnlocked
        if stored.workoutDayRecorded {
            let last = LocalDay(epochDay: stored.lastWorkoutEpochDay)
            totals.lastWorkoutDay = last.wire
            let today = LocalDay.containing(instant: now, in: zone(of: user))
            totals.currentStreakDays = Streaks.current(
                StreakSummary(run: stored.streakRun, longest: stored.longestStreak, lastDay: last), today: today)
        }
        return totals
    }
}

extension LocalDay {
    /// The wire form of the day.
    package var wire: Workout_V1_LocalDate {
        var date = Workout_V1_LocalDate()
        date.year = year
        date.month = month
        date.day = day
        return date
    }

    /// A day from its wire form, validated (a real date, 2000…2100).
    package init(wire: Workout_V1_LocalDate, field: String) throws {
        try self.init(validating: wire.year, month: wire.month, day: wire.day, field: field)
    }
}

extension Workout_Store_V1_StoredUser {
    /// Whether the household's rules for children apply: a stated age under 18, or an admin's mark.
    var isChild: Bool { ChildRules.isChild(age: age, marked: markedChild) }
}
