// AchievementDating: when an achievement was earned.
//
// An achievement is dated by the workout that made its figure reach the target, taking the
// member's workouts in the order they happened (their instants), as if each had been logged
// when it happened: `workout_10` by the tenth workout, `streak_7` by the first workout on the
// day that completed the first run of seven consecutive days. So a history imported today, or
// a workout logged days late, unlocks with the dates the member earned them, and a workout
// logged as it happens dates its achievements now. Instants past the server's clock (a
// workout may lie up to a day ahead) are clamped by the caller.

/// A workout as the dating sees it: when it happened and the local day it counts for.
package struct DatedWorkout: Sendable, Hashable {
    /// Its instant, in milliseconds since 1970.
    package var time: Int64
    /// Its local day (the day of its instant in the zone it was logged in).
    package var day: LocalDay

    /// Creates one.
    ///
    /// - Parameters:
    ///   - time: Its instant, in milliseconds since 1970.
    ///   - day: Its local day.
    package init(time: Int64, day: LocalDay) {
        self.time = time
        self.day = day
    }
}

extension AchievementCatalog {
    /// The instant of the workout that made an achievement's figure reach its target.
    ///
    /// - Parameters:
    ///   - definition: The achievement.
    ///   - workouts: The member's workouts, in any order.
    /// - Returns: The instant of the target-th workout in time order (`workouts` kind), or of
    ///   the workout whose new day first completed a run of target consecutive days (`streakDays`
    ///   kind); `nil` when the workouts do not reach the target, and for the `stepsGoalDays`
    ///   kind, which steps date (``StepsGoalRuns/Count/reached``), not workouts.
    package static func earnedAt(_ definition: AchievementDefinition, workouts: [DatedWorkout]) -> Int64? {
        let ordered = workouts.sorted { ($0.time, $0.day.epochDay) < ($1.time, $1.day.epochDay) }
        let target = Int(definition.target)
        switch definition.kind {
        case .workouts:
            return target >= 1 && ordered.count >= target ? ordered[target - 1].time : nil
        case .streakDays:
            var days = Set<Int32>()
            for workout in ordered {
                let day = workout.day.epochDay
                guard days.insert(day).inserted else { continue }
                var run = 1
                var earlier = day - 1
                while days.contains(earlier) { run += 1; earlier -= 1 }
                var later = day + 1
                while days.contains(later) { run += 1; later += 1 }
                if run >= target { return workout.time }
            }
            return nil
        case .stepsGoalDays:
            return nil
        }
    }
}
