// Scoring: points and levels.
//
// Every workout is worth 50 points, and every unlocked achievement adds its own points
// once. Points are always recomputed from the facts (the number of workouts and the
// points of the achievements unlocked), never carried as a running sum, so editing or
// deleting a workout cannot leave them wrong. The level follows from the points:
// level = points / 1000 + 1 (integer division), so 0–999 points is level 1, 1000–1999
// level 2, and so on.

/// The points and level rules.
package enum Scoring {
    /// Points each workout gives.
    package static let pointsPerWorkout: UInt64 = 50

    /// Points per level.
    package static let pointsPerLevel: UInt64 = 1000

    /// The level for a number of points: `points / 1000 + 1`.
    ///
    /// - Parameter points: The member's points.
    /// - Returns: The level, starting at 1 (saturating at `UInt32.max`).
    package static func level(points: UInt64) -> UInt32 {
        let level = points / pointsPerLevel + 1
        return level > UInt64(UInt32.max) ? .max : UInt32(level)
    }

    /// A member's points: 50 per workout plus the points of the achievements unlocked.
    ///
    /// - Parameters:
    ///   - workouts: The member's current number of workouts.
    ///   - achievementPoints: The sum of the points of the member's unlocked
    ///     achievements (see `AchievementCatalog.points(ofUnlocked:)`).
    /// - Returns: The total points (saturating at `UInt64.max`).
    package static func points(workouts: UInt32, achievementPoints: UInt64) -> UInt64 {
        let (sum, overflow) = (UInt64(workouts) * pointsPerWorkout).addingReportingOverflow(achievementPoints)
        return overflow ? .max : sum
    }
}
