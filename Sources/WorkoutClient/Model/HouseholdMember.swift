public import Foundation
import WorkoutProtocol

/// One member's shared figures on the household leaderboard (`Household.HouseholdView`),
/// shown only for members who chose to share.
public struct HouseholdMember: Sendable, Hashable, Codable, Identifiable {
    /// The member's user id.
    public var id: UUID
    /// The member's display name (their first name when they set none).
    public var displayName: String
    /// Level: points / 1000 + 1.
    public var level: Int
    /// Points.
    public var points: Int
    /// Current streak, in days.
    public var currentStreakDays: Int
    /// Longest streak, in days.
    public var longestStreakDays: Int
    /// Number of workouts.
    public var totalWorkouts: Int
    /// Whether this is the member who asked.
    public var isYou: Bool
    /// Whether the member is under 18: shown by activity only, their weight charts hidden
    /// from the household.
    public var isChild: Bool = false
    /// Active minutes this ISO week, Monday to today.
    public var activeMinutesThisWeek: Int = 0
    /// Days this week, up to today, the member met their daily steps goal.
    public var stepsGoalDaysThisWeek: Int = 0

    /// Creates leaderboard figures (the server makes them; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - id: The member's user id.
    ///   - displayName: The name shown.
    ///   - level: Level.
    ///   - points: Points.
    ///   - currentStreakDays: Current streak, days.
    ///   - longestStreakDays: Longest streak, days.
    ///   - totalWorkouts: Number of workouts.
    ///   - isYou: Whether this is the asking member.
    public init(
        id: UUID, displayName: String, level: Int = 1, points: Int = 0, currentStreakDays: Int = 0,
        longestStreakDays: Int = 0, totalWorkouts: Int = 0, isYou: Bool = false
    ) {
        self.id = id
        self.displayName = displayName
        self.level = level
        self.points = points
        self.currentStreakDays = currentStreakDays
        self.longestStreakDays = longestStreakDays
        self.totalWorkouts = totalWorkouts
        self.isYou = isYou
    }
}

// MARK: Wire

extension HouseholdMember {
    /// Creates leaderboard figures from the wire.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_HouseholdMember) {
        self.init(
            id: UUID(wireBytes: wire.userID), displayName: wire.displayName, level: Int(wire.level),
            points: Int(clamping: wire.points), currentStreakDays: Int(wire.currentStreakDays),
            longestStreakDays: Int(wire.longestStreakDays), totalWorkouts: Int(wire.totalWorkouts), isYou: wire.isYou
        )
        isChild = wire.child
        activeMinutesThisWeek = Int(wire.activeMinutesThisWeek)
        stepsGoalDaysThisWeek = Int(wire.stepsGoalDaysThisWeek)
    }
}
