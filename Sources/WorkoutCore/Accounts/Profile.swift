package import Foundation
import LMDB
import Storage
package import WorkoutProtocol
import WorkoutRules

/// Reading and changing one's own profile, and deleting one's own account.
extension HouseholdStore {
    /// The caller's profile, totals and revision.
    package func getProfile(_ caller: Caller) throws -> Workout_V1_GetProfileResponse {
        let now = clock.nowMilliseconds()
        return try store.read { txn in
            let user = try authorize(caller, in: txn, now: now)
            var response = Workout_V1_GetProfileResponse()
            response.profile = profile(of: user)
            response.totals = totals(of: user, now: now)
            response.revision = user.revision
            return response
        }
    }

    /// The caller's profile zone: where their days begin (UTC for a zone this build does not
    /// know), for a format whose instants carry no offset of their own.
    package func timeZone(of caller: Caller) throws -> TimeZone {
        let now = clock.nowMilliseconds()
        return try store.read { txn in zone(of: try authorize(caller, in: txn, now: now)) }
    }

    /// Changes the fields the request sets; the others stay.
    ///
    /// - Throws: ``DomainError`` `invalidArgument` naming the field, `alreadyExists` for a taken
    ///   email, `aborted` when `expected_revision` is set and the profile changed meanwhile.
    package func updateProfile(_ caller: Caller, _ request: Workout_V1_UpdateProfileRequest) async throws -> Workout_V1_UpdateProfileResponse {
        // Validate everything before the write.
        let emailKey = try request.hasEmail ? Bounds.email(request.email, field: "email") : nil
        let firstName = try request.hasFirstName ? Bounds.validText(request.firstName, field: "first_name", bytes: 1...64) : nil
        let lastName = try request.hasLastName ? Bounds.validText(request.lastName, field: "last_name", bytes: 0...64) : nil
        let displayName = try request.hasDisplayName ? Bounds.validText(request.displayName, field: "display_name", bytes: 0...64) : nil
        if request.hasAge { try Bounds.integer(request.age, field: "age", range: RecordLimits.profileAge.asUInt32, allowZeroAsUnset: true) }
        if request.hasHeightCm { try Bounds.number(request.heightCm, field: "height_cm", range: 50...272, allowZeroAsUnset: true) }
        if request.hasWeightKg { try Bounds.number(request.weightKg, field: "weight_kg", range: 10...500, allowZeroAsUnset: true) }
        if request.hasTimeZone { _ = try TimeZoneCatalog.zone(named: request.timeZone, field: "time_zone") }
        if request.hasFitnessGoal { try Bounds.known(request.fitnessGoal, field: "fitness_goal", allowUnspecified: true) }
        if request.hasStepsSourcePriority {
            try StepsRule.checkPriority(request.stepsSourcePriority.sources, field: "steps_source_priority.sources")
        }
        let now = clock.nowMilliseconds()
        return try await write(notifying: caller.userID) { [self] txn in
            var user = try authorize(caller, in: txn, now: now)
            if request.expectedRevision != 0, request.expectedRevision != user.profileRevision {
                throw DomainError.aborted("the profile changed meanwhile (revision \(user.profileRevision), expected \(request.expectedRevision))")
            }
            if let emailKey {
                if emailKey != user.emailKey, try txn.get(emailKey, fromIndex: tables.usersByEmail) != nil {
                    throw DomainError.alreadyExists("an account with this email exists already", field: "email")
                }
                user.email = emailKey
                user.emailKey = emailKey
            }
            if let firstName { user.firstName = firstName }
            if let lastName { user.lastName = lastName }
            if let displayName { user.displayName = displayName }
            if request.hasAge { user.age = request.age }
            if request.hasHeightCm { user.heightCm = request.heightCm }
            if request.hasWeightKg { user.weightKg = request.weightKg }
            if request.hasFitnessGoal { user.fitnessGoal = Int32(request.fitnessGoal.rawValue) }
            if request.hasTimeZone { user.timeZone = request.timeZone }
            if request.hasShareWithHousehold { user.shareWithHousehold = request.shareWithHousehold }
            if request.hasStepsSourcePriority, request.stepsSourcePriority.sources != user.stepsSourcePriority {
                user.stepsSourcePriority = request.stepsSourcePriority.sources
                // Past days' figures follow the new choice; so do the steps-goal runs through them.
                let today = LocalDay.containing(instant: now, in: zone(of: user))
                _ = try settleStepsGoalRuns(changed: today.adding(days: -GoalLimits.furthestBackDays)...today, user: &user, now: now, in: &txn)
            }
            try saveUser(&user, profileChanged: true, now: now, in: &txn)
            var response = Workout_V1_UpdateProfileResponse()
            response.profile = profile(of: user)
            response.totals = totals(of: user, now: now)
            response.revision = user.revision
            return response
        }
    }

    /// Deletes the caller's account and everything of theirs, after checking their password.
    ///
    /// - Throws: ``DomainError`` `permissionDenied` for a wrong password, `failedPrecondition`
    ///   when the caller is the owner and no other admin would remain. When the owner leaves,
    ///   the longest-standing admin becomes the owner.
    package func deleteAccount(_ caller: Caller, _ request: Workout_V1_DeleteAccountRequest) async throws {
        _ = try Bounds.password(presented: request.password, field: "password")
        let now = clock.nowMilliseconds()
        let user = try store.read { txn in try authorize(caller, in: txn, now: now) }
        guard hasher.verify(request.password, against: user.password) else {
            throw DomainError(.permissionDenied, "the password is wrong")
        }
        try await write(notifying: caller.userID) { [self] txn in
            let user = try authorize(caller, in: txn, now: now)
            if user.role == Int32(Workout_V1_Role.owner.rawValue) {
                // The longest-standing admin becomes the owner, so the household always has one.
                let admins = try txn.scan(tables.users.table, ScanRequest()).elements.filter {
                    $0.key != caller.userID && $0.value.role != Int32(Workout_V1_Role.member.rawValue)
                }
                guard var successor = admins.min(by: { $0.value.createdAtMs < $1.value.createdAtMs })?.value else {
                    throw DomainError.failedPrecondition("the owner cannot leave while no other admin remains")
                }
                successor.role = Int32(Workout_V1_Role.owner.rawValue)
                try saveUser(&successor, profileChanged: true, now: now, in: &txn)
            }
            try deleteEverything(of: caller.userID, in: &txn)
        }
    }
}
