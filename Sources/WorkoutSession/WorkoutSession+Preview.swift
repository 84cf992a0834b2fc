// A session model filled with sample data, for SwiftUI previews and screenshots: it never
// connects (its client points at a reserved name that does not resolve, and nothing is loaded),
// and its achievements come from the rules' own catalog, so they match what a server shows.

public import Foundation
import WorkoutClient
import WorkoutOffline
import WorkoutRules

extension WorkoutSession {
    /// A signed-in model with a week of sample data: a profile, totals, today's meals and steps,
    /// recent workouts (one of them pending), weigh-ins, achievements and the week's summary.
    /// It never talks to a server.
    ///
    /// ```swift
    /// #Preview { TodayView().environment(WorkoutSession.preview()) }
    /// ```
    ///
    /// - Parameter now: The moment "today" is taken at; now by default.
    /// - Returns: The model.
    public static func preview(now: Date = Date()) -> WorkoutSession {
        let client = WorkoutClient(configuration: .init(address: ServerAddress(host: "preview.invalid", port: 7420)))
        let session = WorkoutSession(client: client)
        let zoneName = "Europe/Berlin"
        let zone = TimeZoneCatalog.zone(orUTC: zoneName)
        let today = LocalDate(now, in: zone)
        let hour: TimeInterval = 3_600
        let dayStart = Date(wireMilliseconds: today.rulesDay.startInstant(in: zone))

        var content = SessionContent()
        content.profile = Profile(
            id: UUID(uuidString: "0190A3C4-0000-7000-8000-000000000001")!, email: "anna@example.com", firstName: "Anna",
            lastName: "Berg", age: 34, heightCm: 168, weightKg: 61.5, fitnessGoal: .improveEndurance, timeZone: zoneName,
            createdAt: now.addingTimeInterval(-90 * 24 * hour), revision: 40)
        content.today = today
        content.recentWorkouts = (0..<6).map { daysAgo in
            let performed = dayStart.addingTimeInterval(Double(-daysAgo) * 24 * hour + 7 * hour)
            return Workout(
                type: ["running", "cycling", "strength", "yoga", "running", "swimming"][daysAgo],
                durationSeconds: 1_800 + 300 * daysAgo, caloriesBurned: 250 + 20 * Double(daysAgo), performedAt: performed,
                timeZone: zoneName, localDay: today.adding(days: -daysAgo), revision: UInt64(30 - daysAgo),
                createdAt: performed, updatedAt: performed)
        }
        content.todaysMeals = [
            Meal(mealType: .breakfast, eatenAt: dayStart.addingTimeInterval(8 * hour), timeZone: zoneName, name: "Porridge",
                 items: [FoodItem(name: "oats", calories: 300, proteinG: 10, carbsG: 54, fatG: 6),
                         FoodItem(name: "blueberries", calories: 60, carbsG: 14)],
                 localDay: today, revision: 38),
            Meal(mealType: .lunch, eatenAt: dayStart.addingTimeInterval(12.5 * hour), timeZone: zoneName, name: "Lentil soup",
                 items: [FoodItem(name: "soup", calories: 420, proteinG: 24, carbsG: 60, fatG: 8)],
                 localDay: today, revision: 39),
        ]
        content.todaysSteps = 7_412
        content.weights = (0..<12).reversed().map { (weeksAgo: Int) -> WeightEntry in
            let measured: Date = dayStart.addingTimeInterval(Double(-7 * weeksAgo) * 24 * hour + 7 * hour)
            let kilograms: Double = 61.5 + 0.125 * Double(weeksAgo)
            return WeightEntry(weightKg: kilograms, measuredAt: measured, timeZone: zoneName, revision: UInt64(12 - weeksAgo))
        }
        let workouts = 23
        content.totals = Totals(
            totalWorkouts: workouts, totalCaloriesBurned: 6_900, points: 0, level: 1, currentStreakDays: 6, longestStreakDays: 9,
            lastWorkoutDay: today, totalActiveSeconds: 41_400, achievementsUnlocked: 0)
        var unlockedPoints: UInt64 = 0
        content.achievements = AchievementCatalog.all.map { definition in
            let progress = AchievementCatalog.progress(
                of: definition, AchievementFigures(totalWorkouts: UInt32(workouts), longestStreak: 9, longestStepsGoalRun: 4))
            let unlocked = progress >= definition.target
            if unlocked { unlockedPoints += UInt64(definition.points) }
            return Achievement(
                id: definition.id, title: definition.title, details: definition.description, points: Int(definition.points),
                unlocked: unlocked, unlockedAt: unlocked ? now.addingTimeInterval(-30 * 24 * hour) : nil,
                progress: Int(progress), target: Int(definition.target))
        }
        let points = Scoring.points(workouts: UInt32(workouts), achievementPoints: unlockedPoints)
        content.totals?.points = Int(points)
        content.totals?.level = Int(Scoring.level(points: points))
        content.totals?.achievementsUnlocked = content.achievements.filter(\.unlocked).count
        let monday = LocalDate(today.rulesDay.isoWeekStart)
        content.week = PeriodSummary(
            start: monday, end: monday.adding(days: 6), caloriesEaten: 9_850, caloriesBurned: 1_740, workouts: 6,
            activeSeconds: 13_500, steps: 48_200, proteinG: 420, carbsG: 1_210, fatG: 310, meals: 17)

        session.status = .signedIn
        session.content = content
        session.revision = 40
        session.now = { now }
        // One workout logged offline a moment ago, shown as pending.
        let pending = Workout(type: "walking", durationSeconds: 2_400, caloriesBurned: 160, performedAt: now.addingTimeInterval(-0.5 * hour))
        session.inFlight = [(UUID(), .logWorkout(pending))]
        session.publish()
        return session
    }
}
