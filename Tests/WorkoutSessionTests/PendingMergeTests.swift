import Foundation
import Testing
@testable import WorkoutClient
import WorkoutOffline
@testable import WorkoutSession

/// Writes waiting in the outbox merged into what the server stated, by the shared rules, without
/// a server. (That the guess equals what the server then computes is tested end to end in
/// `SessionOfflineTests`.)
@Suite("Pending writes merged into the session's content")
struct PendingMergeTests {
    static let zone = "Europe/Berlin"
    static let berlin = TimeZone(identifier: zone)!
    /// 2026-11-25 12:00 in Berlin.
    static let now = Date(timeIntervalSince1970: 1_795_604_400)
    static let today = LocalDate(now, in: berlin)

    /// A member with 9 workouts, a 2-day streak ending yesterday, `workout_1` unlocked.
    static func content() -> SessionContent {
        var content = SessionContent()
        content.profile = Profile(id: UUID(), email: "olga@example.com", firstName: "Olga", timeZone: zone, createdAt: now)
        content.today = today
        content.totals = Totals(
            totalWorkouts: 9, totalCaloriesBurned: 2_000, points: 9 * 50 + 100, level: 1, currentStreakDays: 2,
            longestStreakDays: 2, lastWorkoutDay: today.adding(days: -1), totalActiveSeconds: 16_200, achievementsUnlocked: 1)
        content.achievements = [
            Achievement(id: "workout_1", title: "First workout", points: 100, unlocked: true, unlockedAt: now, progress: 1, target: 1),
            Achievement(id: "workout_10", title: "10 workouts", points: 250, progress: 9, target: 10),
            Achievement(id: "streak_3", title: "3-day streak", points: 100, progress: 2, target: 3),
            Achievement(id: "streak_7", title: "7-day streak", points: 250, progress: 2, target: 7),
        ]
        content.recentWorkouts = [Workout(
            type: "running", durationSeconds: 1_800, caloriesBurned: 200, performedAt: now.addingTimeInterval(-86_400),
            timeZone: zone, localDay: today.adding(days: -1), revision: 20)]
        content.week = PeriodSummary(start: LocalDate(year: 2026, month: 11, day: 23)!, end: LocalDate(year: 2026, month: 11, day: 29)!,
                                     caloriesEaten: 3_000, caloriesBurned: 400, workouts: 2, activeSeconds: 3_600, steps: 10_000, meals: 5)
        content.todaysSteps = 3_000
        return content
    }

    static func entry(_ id: UInt64, _ write: PendingWrite, refused: Bool = false) -> OutboxEntry {
        OutboxEntry(id: id, write: write, queuedAt: now,
                    refusal: refused ? WriteRefusal(code: .invalidArgument, message: "no", refusedAt: now) : nil)
    }

    @Test("a write the server will refuse by its bounds (an instant ages away, a duration past Int's sums) is not guessed into the figures, and does not trap")
    func outOfBoundsWritesAreNotGuessed() {
        let farAway = Workout(type: "running", durationSeconds: 1_800, performedAt: Date(timeIntervalSince1970: 1e15))
        let endless = Workout(type: "running", durationSeconds: .max, caloriesBurned: 100, performedAt: Self.now.addingTimeInterval(-60))
        let heavy = WeightEntry(weightKg: .infinity, measuredAt: Self.now.addingTimeInterval(-60))
        let before = Self.content()
        let (merged, pending) = before.merging(
            [Self.entry(1, .logWorkout(farAway)), Self.entry(2, .logWorkout(endless)), Self.entry(3, .logWeight(heavy))], now: Self.now)
        #expect(pending.isEmpty)
        #expect(merged.totals == before.totals)
        #expect(merged.recentWorkouts == before.recentWorkouts)
        #expect(merged.week == before.week)
        #expect(merged.weights == before.weights)
    }

    @Test("a workout logged offline today: listed, counted, the streak extended, achievements unlocked, points and level by the rules")
    func offlineWorkout() {
        let workout = Workout(type: "cycling", durationSeconds: 2_400, caloriesBurned: 300, performedAt: Self.now.addingTimeInterval(-3_600))
        let (merged, pending) = Self.content().merging([Self.entry(1, .logWorkout(workout))], now: Self.now)
        #expect(pending == [workout.id])
        #expect(merged.recentWorkouts.map(\.id).first == workout.id)
        #expect(merged.recentWorkouts.first?.localDay == Self.today)
        #expect(merged.recentWorkouts.first?.timeZone == Self.zone)
        let totals = merged.totals!
        #expect(totals.totalWorkouts == 10)
        #expect(totals.totalCaloriesBurned == 2_300)
        #expect(totals.totalActiveSeconds == 18_600)
        #expect(totals.currentStreakDays == 3)
        #expect(totals.longestStreakDays == 3)
        #expect(totals.lastWorkoutDay == Self.today)
        // 50 per workout, plus workout_1 (100), and now workout_10 (250) and streak_3 (100).
        #expect(totals.points == 10 * 50 + 100 + 250 + 100)
        #expect(totals.level == 1)
        #expect(totals.achievementsUnlocked == 3)
        #expect(Set(merged.achievements.filter(\.unlocked).map(\.id)) == ["workout_1", "workout_10", "streak_3"])
        #expect(merged.achievements.first { $0.id == "streak_7" }?.progress == 3)
        #expect(merged.week?.workouts == 3)
        #expect(merged.week?.caloriesBurned == 700)
    }

    @Test("a log the server already applied counts once; a refused write is not merged")
    func countedOnce() {
        var content = Self.content()
        let workout = Workout(type: "cycling", durationSeconds: 2_400, caloriesBurned: 300, performedAt: Self.now, timeZone: Self.zone,
                              localDay: Self.today, revision: 21)
        content.upsert(workout)
        content.totals?.totalWorkouts = 10
        content.totals?.totalCaloriesBurned = 2_300
        let refused = Workout(type: "yoga", durationSeconds: 600, performedAt: Self.now)
        let (merged, pending) = content.merging([Self.entry(1, .logWorkout(workout)), Self.entry(2, .logWorkout(refused), refused: true)], now: Self.now)
        #expect(merged.totals?.totalWorkouts == 10)
        #expect(merged.totals?.totalCaloriesBurned == 2_300)
        #expect(merged.recentWorkouts.count == 2)
        #expect(pending == [workout.id])
    }

    @Test("a workout back-dated before the last workout day leaves the streak as the server stated it")
    func backDated() {
        let old = Workout(type: "walking", durationSeconds: 600, performedAt: Self.now.addingTimeInterval(-5 * 86_400))
        let (merged, _) = Self.content().merging([Self.entry(1, .logWorkout(old))], now: Self.now)
        #expect(merged.totals?.totalWorkouts == 10)
        #expect(merged.totals?.currentStreakDays == 2)
        #expect(merged.totals?.lastWorkoutDay == Self.today.adding(days: -1))
    }

    @Test("a pending delete takes the workout back; a meal of today shows; steps take the larger count")
    func deletesMealsSteps() {
        let content = Self.content()
        let doomed = content.recentWorkouts[0]
        let meal = Meal(mealType: .dinner, eatenAt: Self.now, items: [FoodItem(name: "pasta", calories: 650), FoodItem(name: "salad", calories: 120)])
        let (merged, pending) = content.merging([
            Self.entry(1, .deleteWorkout(doomed.id)),
            Self.entry(2, .logMeal(meal)),
            Self.entry(3, .reportSteps(StepsReport(day: Self.today, source: "watch", steps: 5_000, reportedAt: Self.now))),
        ], now: Self.now)
        #expect(merged.recentWorkouts.isEmpty)
        #expect(merged.totals?.totalWorkouts == 8)
        #expect(merged.totals?.totalCaloriesBurned == 1_800)
        #expect(merged.todaysMeals.map(\.id) == [meal.id])
        #expect(merged.todaysMeals.first?.totals.calories == 770)
        #expect(merged.todaysSteps == 5_000)
        #expect(merged.week?.workouts == 1)
        #expect(merged.week?.caloriesEaten == 3_770)
        #expect(merged.week?.steps == 12_000)
        #expect(pending == [doomed.id, meal.id])
    }
}
