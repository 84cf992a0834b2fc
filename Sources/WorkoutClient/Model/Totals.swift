import WorkoutProtocol

/// A member's running totals: workouts, calories, points, level, streaks. The server keeps
/// them in the same transaction as each write and returns them with most writes.
public struct Totals: Sendable, Hashable, Codable {
    /// Number of workouts logged (and not deleted).
    public var totalWorkouts: Int
    /// Sum of the workouts' calories burned, kcal.
    public var totalCaloriesBurned: Double
    /// Points: 50 per workout plus the points of every unlocked achievement.
    public var points: Int
    /// Level: points / 1000 + 1 (integer division), so 0...999 points is level 1.
    public var level: Int
    /// Consecutive local days, ending today or yesterday in the profile's time zone, each
    /// with at least one workout; 0 when the last workout day is older.
    public var currentStreakDays: Int
    /// The longest such run ever reached.
    public var longestStreakDays: Int
    /// The local day of the most recent workout, or `nil` when there is none.
    public var lastWorkoutDay: LocalDate?
    /// Sum of the workouts' durations, in seconds.
    public var totalActiveSeconds: Int
    /// Number of achievements unlocked.
    public var achievementsUnlocked: Int

    /// Creates totals; the defaults are a new member's (all zero, level 1).
    ///
    /// - Parameters:
    ///   - totalWorkouts: Number of workouts.
    ///   - totalCaloriesBurned: Calories burned by them, kcal.
    ///   - points: Points.
    ///   - level: Level.
    ///   - currentStreakDays: Current streak, days.
    ///   - longestStreakDays: Longest streak, days.
    ///   - lastWorkoutDay: Day of the latest workout, `nil` if none.
    ///   - totalActiveSeconds: Total workout time, seconds.
    ///   - achievementsUnlocked: Number of achievements unlocked.
    public init(
        totalWorkouts: Int = 0, totalCaloriesBurned: Double = 0, points: Int = 0, level: Int = 1,
        currentStreakDays: Int = 0, longestStreakDays: Int = 0, lastWorkoutDay: LocalDate? = nil,
        totalActiveSeconds: Int = 0, achievementsUnlocked: Int = 0
    ) {
        self.totalWorkouts = totalWorkouts
        self.totalCaloriesBurned = totalCaloriesBurned
        self.points = points
        self.level = level
        self.currentStreakDays = currentStreakDays
        self.longestStreakDays = longestStreakDays
        self.lastWorkoutDay = lastWorkoutDay
        self.totalActiveSeconds = totalActiveSeconds
        self.achievementsUnlocked = achievementsUnlocked
    }
}

// MARK: Wire

extension Totals {
    /// Creates totals from the wire; an unset or 0/0/0 `last_workout_day` becomes `nil`.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_Totals) {
        self.init(
            totalWorkouts: Int(wire.totalWorkouts), totalCaloriesBurned: wire.totalCaloriesBurned,
            points: Int(clamping: wire.points), level: Int(wire.level),
            currentStreakDays: Int(wire.currentStreakDays), longestStreakDays: Int(wire.longestStreakDays),
            lastWorkoutDay: wire.hasLastWorkoutDay ? LocalDate(wire: wire.lastWorkoutDay) : nil,
            totalActiveSeconds: Int(clamping: wire.totalActiveSeconds),
            achievementsUnlocked: Int(wire.achievementsUnlocked)
        )
    }
}
