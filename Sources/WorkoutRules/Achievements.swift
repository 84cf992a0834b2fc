// Achievements: the catalog of milestones and when they unlock.
//
// Each achievement has a stable string id, a title, a description, the points it gives
// and a target on one figure: the number of workouts, the longest streak in days, or the
// longest run of days the daily steps goal was met (`StepsGoalRuns`). The catalog, in
// display order, and the points chosen:
//
// | id          | target         | points |
// | ----------- | -------------- | ------ |
// | workout_1   | 1 workout      | 100    |
// | workout_10  | 10 workouts    | 250    |
// | workout_50  | 50 workouts    | 500    |
// | workout_100 | 100 workouts   | 1000   |
// | streak_3    | 3-day streak   | 100    |
// | streak_7    | 7-day streak   | 250    |
// | streak_30   | 30-day streak  | 1000   |
// | steps_goal_3  | steps goal 3 days in a row  | 100  |
// | steps_goal_7  | steps goal 7 days in a row  | 250  |
// | steps_goal_30 | steps goal 30 days in a row | 1000 |
//
// An achievement unlocks when its figure reaches the target (exactly at the target, not
// one later) and each id unlocks at most once: callers pass the ids already unlocked.
// Earned is earned: once unlocked, an achievement stays unlocked (with its date and
// points) even if later edits or deletes bring the figures below its target; the totals
// and the 50 points per workout are always recomputed from the remaining workouts.
// Streak achievements look at the longest streak ever, so a broken streak does not
// undo one either; the steps-goal ones likewise look at the longest run of met days
// ever counted, which a later goal change or a lower steps report never shortens.

/// One achievement: its id, texts, points and what unlocks it.
package struct AchievementDefinition: Sendable, Hashable {
    /// What figure an achievement's target counts.
    package enum Kind: Sendable, Hashable {
        /// The member's number of workouts.
        case workouts
        /// The member's longest streak, in days.
        case streakDays
        /// The member's longest run of consecutive days meeting their daily steps goal.
        case stepsGoalDays
    }

    /// The stable identifier, e.g. `workout_10`.
    package let id: String
    /// A short English title, e.g. "First workout".
    package let title: String
    /// A one-sentence English description, e.g. "Complete 10 workouts".
    package let description: String
    /// The points it adds once, when it unlocks.
    package let points: UInt32
    /// The figure its target counts.
    package let kind: Kind
    /// The figure to reach, e.g. 10.
    package let target: UInt32

    /// Creates a definition.
    ///
    /// - Parameters:
    ///   - id: The stable identifier.
    ///   - title: A short English title.
    ///   - description: A one-sentence English description.
    ///   - points: The points it gives.
    ///   - kind: The figure its target counts.
    ///   - target: The figure to reach.
    package init(id: String, title: String, description: String, points: UInt32, kind: Kind, target: UInt32) {
        self.id = id
        self.title = title
        self.description = description
        self.points = points
        self.kind = kind
        self.target = target
    }
}

/// Every achievement the server knows, and the rules that unlock them.
package enum AchievementCatalog {
    /// Every achievement, in display order.
    package static let all: [AchievementDefinition] = [
        AchievementDefinition(id: "workout_1", title: "First workout", description: "Complete your first workout",
                              points: 100, kind: .workouts, target: 1),
        AchievementDefinition(id: "workout_10", title: "10 workouts", description: "Complete 10 workouts",
                              points: 250, kind: .workouts, target: 10),
        AchievementDefinition(id: "workout_50", title: "50 workouts", description: "Complete 50 workouts",
                              points: 500, kind: .workouts, target: 50),
        AchievementDefinition(id: "workout_100", title: "100 workouts", description: "Complete 100 workouts",
                              points: 1000, kind: .workouts, target: 100),
        AchievementDefinition(id: "streak_3", title: "3-day streak", description: "Work out 3 days in a row",
                              points: 100, kind: .streakDays, target: 3),
        AchievementDefinition(id: "streak_7", title: "7-day streak", description: "Work out 7 days in a row",
                              points: 250, kind: .streakDays, target: 7),
        AchievementDefinition(id: "streak_30", title: "30-day streak", description: "Work out 30 days in a row",
                              points: 1000, kind: .streakDays, target: 30),
        AchievementDefinition(id: "steps_goal_3", title: "Steps goal, 3 days", description: "Meet your daily steps goal 3 days in a row",
                              points: 100, kind: .stepsGoalDays, target: 3),
        AchievementDefinition(id: "steps_goal_7", title: "Steps goal, 7 days", description: "Meet your daily steps goal 7 days in a row",
                              points: 250, kind: .stepsGoalDays, target: 7),
        AchievementDefinition(id: "steps_goal_30", title: "Steps goal, 30 days", description: "Meet your daily steps goal 30 days in a row",
                              points: 1000, kind: .stepsGoalDays, target: 30),
    ]

    /// The longest target of the achievements of `kind`: a run counted up to it earns all of them.
    package static func longestTarget(of kind: AchievementDefinition.Kind) -> UInt32 {
        all.filter { $0.kind == kind }.map(\.target).max() ?? 0
    }

    private static let byID: [String: AchievementDefinition] =
        Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })

    /// The achievement with an id.
    ///
    /// - Parameter id: An achievement id, e.g. `streak_7`.
    /// - Returns: Its definition, or `nil` if the catalog has none with that id.
    package static func definition(id: String) -> AchievementDefinition? {
        byID[id]
    }

    /// The achievements whose targets are reached and that are not unlocked yet.
    ///
    /// - Parameters:
    ///   - figures: The member's figures the targets count.
    ///   - unlocked: The ids the member has unlocked already (never unlocked again).
    /// - Returns: The definitions to unlock now, in catalog order.
    package static func newlyUnlocked(_ figures: AchievementFigures, unlocked: Set<String>) -> [AchievementDefinition] {
        all.filter { definition in
            !unlocked.contains(definition.id) && figures.figure(for: definition.kind) >= definition.target
        }
    }

    /// Progress toward an achievement's target, capped at the target.
    ///
    /// - Parameters:
    ///   - definition: The achievement.
    ///   - figures: The member's figures the targets count.
    /// - Returns: The figure the target counts, at most `definition.target`.
    package static func progress(of definition: AchievementDefinition, _ figures: AchievementFigures) -> UInt32 {
        min(figures.figure(for: definition.kind), definition.target)
    }

    /// The points the unlocked achievements give together.
    ///
    /// - Parameter ids: The ids of the member's unlocked achievements (ids the catalog
    ///   does not know, e.g. from a newer server, count nothing; duplicates count once).
    /// - Returns: The sum of their points.
    package static func points(ofUnlocked ids: some Sequence<String>) -> UInt64 {
        Set(ids).reduce(0) { $0 + UInt64(byID[$1]?.points ?? 0) }
    }
}

/// The figures of a member that achievements' targets count.
package struct AchievementFigures: Sendable, Hashable {
    /// The member's number of workouts.
    package var totalWorkouts: UInt32
    /// The member's longest streak of days with a workout.
    package var longestStreak: UInt32
    /// The member's longest run of days meeting their daily steps goal, as counted
    /// (``StepsGoalRuns``: up to the longest steps-goal target).
    package var longestStepsGoalRun: UInt32

    /// Creates the figures.
    ///
    /// - Parameters:
    ///   - totalWorkouts: The number of workouts.
    ///   - longestStreak: The longest streak, in days.
    ///   - longestStepsGoalRun: The longest run of days meeting the steps goal (0 where the
    ///     caller does not know it: nothing of that kind unlocks).
    package init(totalWorkouts: UInt32, longestStreak: UInt32, longestStepsGoalRun: UInt32) {
        self.totalWorkouts = totalWorkouts
        self.longestStreak = longestStreak
        self.longestStepsGoalRun = longestStepsGoalRun
    }

    /// The figure a kind of target counts.
    package func figure(for kind: AchievementDefinition.Kind) -> UInt32 {
        switch kind {
        case .workouts: totalWorkouts
        case .streakDays: longestStreak
        case .stepsGoalDays: longestStepsGoalRun
        }
    }
}
