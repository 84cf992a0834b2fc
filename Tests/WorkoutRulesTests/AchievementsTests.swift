import Testing
import TestSupport
import WorkoutRules

@Suite("Achievements")
struct AchievementsTests {
    @Test("The catalog holds the app's milestones with their documented points", arguments: [
        ("workout_1", AchievementDefinition.Kind.workouts, UInt32(1), UInt32(100), "First workout"),
        ("workout_10", .workouts, 10, 250, "10 workouts"),
        ("workout_50", .workouts, 50, 500, "50 workouts"),
        ("workout_100", .workouts, 100, 1000, "100 workouts"),
        ("streak_3", .streakDays, 3, 100, "3-day streak"),
        ("streak_7", .streakDays, 7, 250, "7-day streak"),
        ("streak_30", .streakDays, 30, 1000, "30-day streak"),
        ("steps_goal_3", .stepsGoalDays, 3, 100, "Steps goal, 3 days"),
        ("steps_goal_7", .stepsGoalDays, 7, 250, "Steps goal, 7 days"),
        ("steps_goal_30", .stepsGoalDays, 30, 1000, "Steps goal, 30 days"),
    ])
    func catalog(id: String, kind: AchievementDefinition.Kind, target: UInt32, points: UInt32, title: String) throws {
        let definition = try #require(AchievementCatalog.definition(id: id))
        #expect(definition.id == id)
        #expect(definition.kind == kind)
        #expect(definition.target == target)
        #expect(definition.points == points)
        #expect(definition.title == title)
        #expect(!definition.description.isEmpty)
    }

    @Test("Ids are unique and unknown ids have no definition")
    func uniqueIDs() {
        #expect(Set(AchievementCatalog.all.map(\.id)).count == AchievementCatalog.all.count)
        #expect(AchievementCatalog.definition(id: "workout_2") == nil)
        #expect(AchievementCatalog.definition(id: "") == nil)
    }

    @Test("Each achievement unlocks exactly at its target, and not when already unlocked", arguments: AchievementCatalog.all)
    func unlocksAtTarget(definition: AchievementDefinition) {
        func unlocks(_ figure: UInt32, unlocked: Set<String> = []) -> Bool {
            let figures = AchievementFigures(
                totalWorkouts: definition.kind == .workouts ? figure : 0, longestStreak: definition.kind == .streakDays ? figure : 0,
                longestStepsGoalRun: definition.kind == .stepsGoalDays ? figure : 0)
            return AchievementCatalog.newlyUnlocked(figures, unlocked: unlocked).contains(definition)
        }
        #expect(!unlocks(definition.target - 1))
        #expect(unlocks(definition.target))
        #expect(unlocks(definition.target + 1))
        #expect(!unlocks(definition.target, unlocked: [definition.id]))
        #expect(!unlocks(.max, unlocked: [definition.id]))
    }

    @Test("Logging 120 workouts on consecutive days unlocks every achievement once, at the right workout")
    func eachOnce() {
        var unlocked: [String: UInt32] = [:]                                     // id → workout number
        var summary = StreakSummary.empty
        var day = LocalDay("2026-01-01")
        for number in UInt32(1)...120 {
            summary = Streaks.adding(day, to: summary)!
            let figures = AchievementFigures(totalWorkouts: number, longestStreak: summary.longest, longestStepsGoalRun: 0)
            let new = AchievementCatalog.newlyUnlocked(figures, unlocked: Set(unlocked.keys))
            for definition in new {
                #expect(unlocked[definition.id] == nil)
                unlocked[definition.id] = number
            }
            day = day.adding(days: 1)
        }
        #expect(unlocked == ["workout_1": 1, "workout_10": 10, "workout_50": 50, "workout_100": 100,
                             "streak_3": 3, "streak_7": 7, "streak_30": 30])
        let achievementPoints = AchievementCatalog.points(ofUnlocked: unlocked.keys)
        #expect(achievementPoints == 100 + 250 + 500 + 1000 + 100 + 250 + 1000)
        #expect(Scoring.points(workouts: 120, achievementPoints: achievementPoints) == 6000 + 3200)
        #expect(Scoring.level(points: 9200) == 10)
    }

    @Test("Several workouts a day count toward workouts but not toward streaks")
    func severalADay() {
        let longest = Streaks.summarize(days: Array(repeating: LocalDay("2026-03-10"), count: 10)).longest
        let new = AchievementCatalog.newlyUnlocked(AchievementFigures(totalWorkouts: 10, longestStreak: longest, longestStepsGoalRun: 0), unlocked: [])
        #expect(new.map(\.id) == ["workout_1", "workout_10"])
    }

    @Test("Earned is earned: falling below a target later neither relocks nor unlocks again")
    func earnedIsEarned() {
        let unlocked: Set<String> = ["workout_1", "workout_10", "streak_3"]
        // After deletes: 9 workouts, longest streak 2.
        #expect(AchievementCatalog.newlyUnlocked(AchievementFigures(totalWorkouts: 9, longestStreak: 2, longestStepsGoalRun: 0), unlocked: unlocked) == [])
        // Back at 10: still nothing new, workout_10 was already earned.
        #expect(AchievementCatalog.newlyUnlocked(AchievementFigures(totalWorkouts: 10, longestStreak: 3, longestStepsGoalRun: 0), unlocked: unlocked) == [])
        #expect(AchievementCatalog.points(ofUnlocked: unlocked) == 450)
        #expect(Scoring.points(workouts: 9, achievementPoints: 450) == 900)
    }

    @Test("Progress is the counted figure, capped at the target", arguments: [
        ("workout_10", UInt32(7), UInt32(0), UInt32(0), UInt32(7)), ("workout_10", 12, 0, 0, 10), ("workout_10", 0, 30, 30, 0),
        ("streak_7", 50, 4, 9, 4), ("streak_7", 0, 9, 0, 7), ("workout_1", 0, 0, 0, 0),
        ("steps_goal_7", 50, 40, 5, 5), ("steps_goal_3", 0, 0, 30, 3),
    ])
    func progress(id: String, workouts: UInt32, streak: UInt32, stepsRun: UInt32, expected: UInt32) throws {
        let definition = try #require(AchievementCatalog.definition(id: id))
        let figures = AchievementFigures(totalWorkouts: workouts, longestStreak: streak, longestStepsGoalRun: stepsRun)
        #expect(AchievementCatalog.progress(of: definition, figures) == expected)
    }

    @Test("Points of unlocked ids ignore unknown ids and duplicates")
    func pointsOfUnlocked() {
        #expect(AchievementCatalog.points(ofUnlocked: []) == 0)
        #expect(AchievementCatalog.points(ofUnlocked: ["workout_1", "workout_1", "future_thing"]) == 100)
    }
}
