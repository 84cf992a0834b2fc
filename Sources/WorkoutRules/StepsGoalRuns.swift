// StepsGoalRuns: runs of consecutive days a member met their daily steps goal, for the
// steps-goal achievements.
//
// A day meets the steps goal when a daily steps goal is in effect on it (each day is judged
// by the goal of that day, as progress is) and the day's steps reach it. A day without a
// steps goal, or without enough steps, ends a run. Today counts once its steps reach the goal.
//
// Runs are counted up to `counted` days, the longest steps-goal target: a longer run earns
// nothing more, and the cap keeps the work of a write bounded. A write that changes the
// steps of some days (or the goals from a day on) can only change the runs through those
// days, and a run through a day of length `counted` or more has at least `counted` days
// within `counted - 1` days either side of it; so recounting that window finds every run a
// write completes, however long the history.

/// Counting the runs of days a member met their daily steps goal.
package enum StepsGoalRuns {
    /// The longest run counted: the longest target of the steps-goal achievements.
    package static let counted: UInt32 = AchievementCatalog.longestTarget(of: .stepsGoalDays)

    /// What a count over a window of days found.
    package struct Count: Sendable, Hashable {
        /// The longest run of met days in the window, at most ``StepsGoalRuns/counted``.
        package var longest: UInt32
        /// For each length from 1 to `longest`, the first day of the window that completed a
        /// run of that length: the day a steps-goal achievement with that target was earned.
        package var reached: [UInt32: LocalDay]
    }

    /// Whether a day with `steps` meets the steps goal of `goals` (a day without one never does).
    package static func meets(steps: UInt32, goals: GoalSet) -> Bool {
        goals.dailySteps.map { steps >= $0 } ?? false
    }

    /// The days whose runs a change to `changed` can alter, up to `today`.
    ///
    /// - Parameters:
    ///   - changed: The first and last day whose steps or steps goal changed.
    ///   - today: The member's today; later days have no steps yet.
    /// - Returns: `counted - 1` days either side of `changed`, ending at `today` at the
    ///   latest; `nil` when every changed day is after `today`.
    package static func window(around changed: ClosedRange<LocalDay>, today: LocalDay) -> ClosedRange<LocalDay>? {
        guard changed.lowerBound <= today else { return nil }
        let reach = Int32(counted) - 1
        let last = min(changed.upperBound.adding(days: reach), today)
        return changed.lowerBound.adding(days: -reach)...last
    }

    /// Counts the runs of met days in `window`.
    ///
    /// - Parameters:
    ///   - window: The days to look at, in order.
    ///   - met: Whether a day met its steps goal.
    /// - Returns: The longest run (capped at ``counted``) and the day each length was first reached.
    package static func count(over window: ClosedRange<LocalDay>, met: (LocalDay) -> Bool) -> Count {
        var result = Count(longest: 0, reached: [:])
        var run: UInt32 = 0
        var day = window.lowerBound
        while day <= window.upperBound {
            run = met(day) ? min(run + 1, counted) : 0
            if run > result.longest {
                result.longest = run
                result.reached[run] = day
            }
            day = day.adding(days: 1)
        }
        return result
    }
}
