import Foundation
import Storage
package import WorkoutProtocol
import WorkoutRules

/// The household's leaderboard: what members chose to share, all of it activity (points,
/// streaks, workouts, this week's active minutes and steps-goal days), never calories or
/// weight, so that a member under 18 is ranked like everyone and by nothing else.
extension HouseholdStore {
    /// Members who share with the household (and the caller), by points, highest first.
    package func householdView(_ caller: Caller) throws -> [Workout_V1_HouseholdMember] {
        let now = clock.nowMilliseconds()
        return try store.read { txn in
            _ = try authorize(caller, in: txn, now: now)
            return try txn.scan(tables.users.table, ScanRequest()).elements
                .filter { $0.key == caller.userID || $0.value.shareWithHousehold }
                .map { id, user in
                    let activity = try weekActivity(of: id, user: user, now: now, in: txn)
                    let totals = totals(of: user, now: now)
                    var member = Workout_V1_HouseholdMember()
                    member.userID = user.userID
                    member.displayName = user.displayName.isEmpty ? user.firstName : user.displayName
                    member.level = totals.level
                    member.points = totals.points
                    member.currentStreakDays = totals.currentStreakDays
                    member.longestStreakDays = totals.longestStreakDays
                    member.totalWorkouts = totals.totalWorkouts
                    member.isYou = id == caller.userID
                    member.child = user.isChild
                    member.activeMinutesThisWeek = activity.minutes
                    member.stepsGoalDaysThisWeek = activity.stepsGoalDays
                    return member
                }
                .sorted { ($0.points, $1.displayName) > ($1.points, $0.displayName) }
        }
    }
}
