import Foundation
import LMDB
import Storage
import WorkoutProtocol
import WorkoutRules

/// Steps-goal streaks: after a write changed the steps of some days (ReportSteps, an import
/// batch, a phone's push) or the goals from a day on, the runs of days meeting the steps goal
/// are recounted in the window those days can change (``StepsGoalRuns``), the member's longest
/// run is kept in their totals, and the steps-goal achievements it reaches unlock, each dated
/// by the day that completed its run.
extension HouseholdStore {
    /// Recounts the runs through `changed` and unlocks what they reach.
    ///
    /// - Parameters:
    ///   - changed: The first and last local day whose steps or steps goal changed.
    ///   - user: The member, whose totals gain the longer run; the caller stores them.
    /// - Returns: The achievements unlocked.
    func settleStepsGoalRuns(
        changed: ClosedRange<LocalDay>, user: inout Workout_Store_V1_StoredUser, now: Int64, in txn: inout WriteTransaction
    ) throws -> [Workout_V1_Achievement] {
        // A run counted to the cap has earned every steps-goal achievement already.
        guard user.totals.longestStepsGoalRun < StepsGoalRuns.counted else { return [] }
        let zone = zone(of: user)
        let today = LocalDay.containing(instant: now, in: zone)
        guard let window = StepsGoalRuns.window(around: changed, today: today) else { return [] }
        let member = UUID(bytes: user.userID)
        let history = try goalHistory(of: member, covering: window, in: txn)
        // The history holds the entry in effect on the window's first day and every later one:
        // without a steps goal among them no day meets one, and there is nothing to read.
        guard history.entries.contains(where: { $0.goals.dailySteps != nil }) else { return [] }
        let figures = try dayFigures(of: user, days: window, in: txn)
        let count = StepsGoalRuns.count(over: window) { day in
            StepsGoalRuns.meets(steps: figures[day]?.steps ?? 0, goals: history.goals(on: day))
        }
        guard count.longest > user.totals.longestStepsGoalRun else { return [] }
        user.totals.longestStepsGoalRun = count.longest
        // Each is earned at the end of the day that completed its run (or now, for today).
        let earned = count.reached.mapValues { day in day.adding(days: 1).startInstant(in: zone) - 1 }
        return try unlockAchievements(user: &user, stepsGoalEarnedAt: earned, now: now, in: &txn)
    }
}
