public import Foundation
import WorkoutProtocol

/// An achievement: a milestone, unlocked at most once per member.
///
/// The server decides which exist (at least `workout_1`, `workout_10`, `workout_50`,
/// `workout_100`, `streak_3`, `streak_7`, `streak_30`, `steps_goal_3`, `steps_goal_7`,
/// `steps_goal_30`); show whatever it lists.
public struct Achievement: Sendable, Hashable, Codable, Identifiable {
    /// Stable identifier, e.g. `"workout_10"`.
    public var id: String
    /// Short English title, e.g. `"First workout"`.
    public var title: String
    /// What it takes, in one English sentence, e.g. `"Complete 10 workouts"`. (Not named
    /// `description`, which `CustomStringConvertible` and string interpolation mean otherwise.)
    public var details: String
    /// Points the achievement gives, added once to the member's points when unlocked.
    public var points: Int
    /// Whether the member has unlocked it. A change feed may report `false` for an
    /// achievement locked again after a deletion.
    public var unlocked: Bool
    /// When it was unlocked, or `nil` while locked.
    public var unlockedAt: Date?
    /// Progress toward ``target``, e.g. 7 (workouts so far, or the longest streak).
    public var progress: Int
    /// The figure to reach, e.g. 10.
    public var target: Int

    /// Creates an achievement (the server makes them; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - id: Stable identifier.
    ///   - title: Short title.
    ///   - details: What it takes, in one sentence.
    ///   - points: Points it gives.
    ///   - unlocked: Whether it is unlocked.
    ///   - unlockedAt: When it was unlocked, `nil` while locked.
    ///   - progress: Progress toward the target.
    ///   - target: The figure to reach.
    public init(
        id: String, title: String, details: String = "", points: Int = 0, unlocked: Bool = false,
        unlockedAt: Date? = nil, progress: Int = 0, target: Int = 0
    ) {
        self.id = id
        self.title = title
        self.details = details
        self.points = points
        self.unlocked = unlocked
        self.unlockedAt = unlockedAt
        self.progress = progress
        self.target = target
    }
}

// MARK: Wire

extension Achievement {
    /// Creates an achievement from the wire; `unlocked_at_ms` 0 becomes `nil`.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_Achievement) {
        self.init(
            id: wire.achievementID, title: wire.title, details: wire.description_p, points: Int(wire.points),
            unlocked: wire.unlocked, unlockedAt: Date(wireMillisecondsUnlessZero: wire.unlockedAtMs),
            progress: Int(wire.progress), target: Int(wire.target)
        )
    }
}
