import Testing
import WorkoutRules

/// When an achievement was earned: the workout that made its figure reach the target.
@Suite("Achievement dating")
struct AchievementDatingTests {
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 24 * hour

    /// A workout `days` days after 2026-01-01 (epoch day 20454), at `hours` hours into that UTC day.
    static func workout(day days: Int32, hours: Int64 = 8) -> DatedWorkout {
        DatedWorkout(time: Int64(20_454 + days) * day + hours * hour, day: LocalDay(epochDay: 20_454 + days))
    }

    @Test("A workout count is reached by the target-th workout in the order they happened, whatever the order given")
    func workoutCount() throws {
        let first = try #require(AchievementCatalog.definition(id: "workout_1"))
        let tenth = try #require(AchievementCatalog.definition(id: "workout_10"))
        let workouts = (0..<12).reversed().map { Self.workout(day: Int32($0) * 3) }
        #expect(AchievementCatalog.earnedAt(first, workouts: workouts) == Self.workout(day: 0).time)
        #expect(AchievementCatalog.earnedAt(tenth, workouts: workouts) == Self.workout(day: 27).time)
        #expect(AchievementCatalog.earnedAt(tenth, workouts: Array(workouts.prefix(9))) == nil)
    }

    @Test("A streak is reached by the first workout on the day that completed the first run of that length")
    func streak() throws {
        let three = try #require(AchievementCatalog.definition(id: "streak_3"))
        // Days 0, 1, (gap), 5, 6, 7: the run of three ends on day 7; a second workout on day 6 changes nothing.
        let workouts = [0, 1, 5, 6, 7].map { Self.workout(day: $0) } + [Self.workout(day: 6, hours: 20)]
        #expect(AchievementCatalog.earnedAt(three, workouts: workouts) == Self.workout(day: 7).time)
        // A workout logged late (given last) counts where it happened: day 1 joins days 0 and 2, and
        // the run is complete with day 2's workout, the last of the three to happen.
        let joined = [0, 2].map { Self.workout(day: $0) } + [Self.workout(day: 1, hours: 23)]
        #expect(AchievementCatalog.earnedAt(three, workouts: joined) == Self.workout(day: 2).time)
        #expect(AchievementCatalog.earnedAt(three, workouts: [0, 1, 3].map { Self.workout(day: $0) }) == nil)
    }
}
