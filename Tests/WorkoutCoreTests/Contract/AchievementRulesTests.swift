import Foundation
import Testing
import WorkoutCore
import WorkoutProtocol

/// PROTOCOL.md 19, Achievements: the table of ids, targets and points, and streak achievements
/// unlocking on the longest run, never undone by a break.
@Suite("Achievements as the specification lists them")
struct AchievementRulesTests {
    @Test("Queries.Achievements lists the specified ids, targets and points, in that order")
    func table() async throws {
        try await withHousehold { household in
            let member = try await household.addMember("Nina")
            let listed = try household.store.achievements(member.caller).map { "\($0.achievementID) \($0.target) \($0.points)" }
            #expect(listed == [
                "workout_1 1 100", "workout_10 10 250", "workout_50 50 500", "workout_100 100 1000",
                "streak_3 3 100", "streak_7 7 250", "streak_30 30 1000",
                "steps_goal_3 3 100", "steps_goal_7 7 250", "steps_goal_30 30 1000",
            ])
        }
    }

    @Test("A streak achievement unlocks on the longest run, stays after a break, and its points count once")
    func longestRun() async throws {
        try await withHousehold { household in
            let store = household.store
            let member = try await household.addMember("Nina", timeZone: "UTC")
            let day: Int64 = 86_400_000
            let start = householdStart - 30 * day
            // Days 0, 1 and 3, 4: two runs of two; then day 2 joins them into a run of five.
            for offset in [0, 1, 3, 4] as [Int64] { try await store.log(member, workout(at: start + offset * day, zone: "UTC")) }
            #expect(try !store.achievements(member.caller).contains { $0.achievementID == "streak_3" && $0.unlocked })
            let joined = try await store.log(member, workout(at: start + 2 * day, zone: "UTC"))
            #expect(joined.unlocked.map(\.achievementID) == ["streak_3"])
            #expect(joined.totals.longestStreakDays == 5)
            // Long ago: the current streak is 0, the achievement and its points stay.
            #expect(joined.totals.currentStreakDays == 0)
            #expect(joined.totals.points == 5 * 50 + 100 + 100)  // workouts, workout_1, streak_3
            let streak = try #require(try store.achievements(member.caller).first { $0.achievementID == "streak_3" })
            #expect(streak.unlocked && streak.progress == 3)
            let seven = try #require(try store.achievements(member.caller).first { $0.achievementID == "streak_7" })
            #expect(!seven.unlocked && seven.progress == 5)

            // Deleting a day of the run does not lock it again.
            let history = try store.allWorkouts(member)
            try await store.deleteWorkout(member, id: history[2].id)
            #expect(try store.achievements(member.caller).contains { $0.achievementID == "streak_3" && $0.unlocked })
            #expect(try store.profile(member).totals.points == 4 * 50 + 100 + 100)
        }
    }
}
