// The writes still waiting in the outbox, merged into what the server stated, the way the
// server will apply them: through the same rules (`WorkoutRules`) the server's domain runs.
//
// A workout logged offline gets its local day from its instant and zone (`LocalDay.containing`),
// joins the recent workouts, adds its calories and time to the totals, extends the streak
// (`Streaks.adding`; the streak shown is `Streaks.current` for today), unlocks what the new
// figures reach (`AchievementCatalog.newlyUnlocked`, each once), and the points and level follow
// (`Scoring`). Meals, weigh-ins and steps reports land in their lists and the week's sums
// (steps: the day's figure is the maximum over sources, `StepsRule`).
//
// What a device cannot know stays as the server stated it, until the server's answer replaces
// the guess: a workout back-dated before the last workout day leaves the streak alone (the server
// recomputes it from every day), and deleting or editing a record the model does not hold
// changes no sums. A write the server refused is not merged: it stays in the outbox with its
// reason. A log the server already applied (its change arrived before the outbox let go of it)
// counts once: the record is there already, so the write merges as an edit of it.

import Foundation
import WorkoutClient
// The client's week (the shared rules have a `PeriodSummary` of their own).
import struct WorkoutClient.PeriodSummary
import WorkoutOffline
import WorkoutRules

extension SessionContent {
    /// This content with `pending` merged in, and the ids of the records those writes touch.
    ///
    /// - Parameters:
    ///   - pending: The outbox's entries, oldest first (refused ones are skipped).
    ///   - now: The time "today" is taken at, for the streak shown.
    /// - Returns: The merged content and the ids of the records with a waiting write.
    func merging(_ pending: [OutboxEntry], now: Date) -> (content: SessionContent, pendingIDs: Set<UUID>) {
        var merged = self
        var pendingIDs = Set<UUID>()
        var addedWorkoutDays: [LocalDate] = []
        var workoutsChanged = false
        for entry in pending where entry.refusal == nil && Self.withinBounds(entry.write, now: now) {
            if let id = entry.write.recordID { pendingIDs.insert(id) }
            switch entry.write {
            case .logWorkout(let workout), .updateWorkout(let workout, _):
                let guess = merged.guessed(workout)
                if let old = merged.recentWorkouts.first(where: { $0.id == workout.id }) {
                    merged.uncount(old)
                    merged.count(guess)
                    if old.localDay != guess.localDay, let day = guess.localDay { addedWorkoutDays.append(day) }
                } else if case .logWorkout = entry.write {
                    merged.count(guess)
                    merged.totals?.totalWorkouts += 1
                    merged.addToWeek(on: guess.localDay) { $0.workouts += 1 }
                    if let day = guess.localDay { addedWorkoutDays.append(day) }
                }
                merged.replace(guess)
                workoutsChanged = true
            case .deleteWorkout(let id):
                if let old = merged.recentWorkouts.first(where: { $0.id == id }) {
                    merged.uncount(old)
                    merged.totals?.totalWorkouts -= 1
                    merged.addToWeek(on: old.localDay) { $0.workouts -= 1 }
                    merged.recentWorkouts.removeAll { $0.id == id }
                    workoutsChanged = true
                }
            case .logMeal(let meal), .updateMeal(let meal, _):
                let guess = merged.guessed(meal)
                let old = merged.todaysMeals.first { $0.id == meal.id }
                if let old { merged.addToWeek(on: old.localDay) { $0.caloriesEaten -= old.totals.calories; $0.meals -= 1 } }
                if old != nil || entry.write.action == .log {
                    merged.addToWeek(on: guess.localDay) { $0.caloriesEaten += guess.totals.calories; $0.meals += 1 }
                }
                merged.todaysMeals.removeAll { $0.id == meal.id }
                if guess.localDay == merged.today {
                    merged.todaysMeals.append(guess)
                    merged.todaysMeals.sort(by: Self.oldestMealFirst)
                }
            case .deleteMeal(let id):
                if let old = merged.todaysMeals.first(where: { $0.id == id }) {
                    merged.addToWeek(on: old.localDay) { $0.caloriesEaten -= old.totals.calories; $0.meals -= 1 }
                    merged.todaysMeals.removeAll { $0.id == id }
                }
            case .logWeight(let entry), .updateWeight(let entry, _):
                let guess = merged.guessed(entry)
                merged.weights.removeAll { $0.id == entry.id }
                merged.weights.append(guess)
                merged.weights.sort(by: Self.oldestWeightFirst)
            case .deleteWeight(let id):
                merged.weights.removeAll { $0.id == id }
            case .reportSteps(let report):
                merged.merge(report)
            }
        }
        if workoutsChanged, let stated = totals { merged.settleTotals(stated: stated, addedWorkoutDays: addedWorkoutDays, now: now) }
        merged.followProgress()
        return (merged, pendingIDs)
    }

    // MARK: - Records as the server will store them

    /// The zone a record without one is logged in: the profile's.
    private var profileZoneName: String { profile?.timeZone ?? "UTC" }

    /// `workout` with the zone and local day the server will give it.
    private func guessed(_ workout: Workout) -> Workout {
        var guess = workout
        let zone = workout.timeZone ?? profileZoneName
        guess.timeZone = zone
        guess.localDay = LocalDate.containing(workout.performedAt, zoneName: zone, fallbackZone: profileZoneName)
        guess.revision = recentWorkouts.first { $0.id == workout.id }?.revision ?? 0
        return guess
    }

    /// `meal` with the zone, local day and totals the server will give it.
    private func guessed(_ meal: Meal) -> Meal {
        var guess = meal
        let zone = meal.timeZone ?? profileZoneName
        guess.timeZone = zone
        guess.localDay = LocalDate.containing(meal.eatenAt, zoneName: zone, fallbackZone: profileZoneName)
        guess.totals = NutritionTotals(summing: meal.items)
        return guess
    }

    /// `entry` with the zone and local day the server will give it.
    private func guessed(_ entry: WeightEntry) -> WeightEntry {
        var guess = entry
        let zone = entry.timeZone ?? profileZoneName
        guess.timeZone = zone
        guess.localDay = LocalDate.containing(entry.measuredAt, zoneName: zone, fallbackZone: profileZoneName)
        return guess
    }

    /// Puts a pending workout in the list in place of any stated version of it.
    private mutating func replace(_ workout: Workout) {
        recentWorkouts.removeAll { $0.id == workout.id }
        recentWorkouts.append(workout)
        recentWorkouts.sort(by: Self.newestFirst)
        if recentWorkouts.count > Self.recentWorkoutLimit {
            recentWorkouts.removeLast(recentWorkouts.count - Self.recentWorkoutLimit)
        }
    }

    /// Whether the server can take the write's record by the shared bounds (`RecordChecks`):
    /// one it will refuse is not guessed into the figures (its numbers could be anything, an
    /// instant ages away or a duration past `Int`'s sums); it shows in the outbox until the
    /// refusal comes back.
    static func withinBounds(_ write: PendingWrite, now: Date) -> Bool {
        switch write {
        case .logWorkout(let workout), .updateWorkout(let workout, _): RecordChecks.problem(with: .workout(workout), now: now) == nil
        case .logMeal(let meal), .updateMeal(let meal, _): RecordChecks.problem(with: .meal(meal), now: now) == nil
        case .logWeight(let entry), .updateWeight(let entry, _): RecordChecks.problem(with: .weight(entry), now: now) == nil
        case .reportSteps(let report): RecordChecks.problem(with: .steps(report), now: now) == nil
        case .deleteWorkout, .deleteMeal, .deleteWeight: true
        }
    }

    // MARK: - Sums

    /// Adds a workout's calories and time to the totals and the week (not its count).
    private mutating func count(_ workout: Workout) {
        totals?.totalCaloriesBurned += workout.caloriesBurned
        totals?.totalActiveSeconds += workout.durationSeconds
        addToWeek(on: workout.localDay) {
            $0.caloriesBurned += workout.caloriesBurned
            $0.activeSeconds += workout.durationSeconds
        }
    }

    /// Takes a workout's calories and time back from the totals and the week (not its count).
    private mutating func uncount(_ workout: Workout) {
        totals?.totalCaloriesBurned -= workout.caloriesBurned
        totals?.totalActiveSeconds -= workout.durationSeconds
        addToWeek(on: workout.localDay) {
            $0.caloriesBurned -= workout.caloriesBurned
            $0.activeSeconds -= workout.durationSeconds
        }
    }

    /// Changes the week's sums when `day` lies in it.
    private mutating func addToWeek(on day: LocalDate?, _ change: (inout PeriodSummary) -> Void) {
        guard let day, var summary = week, summary.start <= day, day <= summary.end else { return }
        change(&summary)
        week = summary
    }

    /// Merges a steps report of today: the source's count replaced when the report is as late or
    /// later (`StepsRule.shouldReplace`), the day's figure the member's most trusted source, else
    /// the largest (`StepsRule.dayFigure`, with the profile's priority).
    private mutating func merge(_ report: StepsReport) {
        guard report.day == today else { return }
        var sources = todaysStepSources
        if let index = sources.firstIndex(where: { $0.source == report.source }) {
            guard StepsRule.shouldReplace(
                existingReportedAt: sources[index].reportedAt.wireMilliseconds, newReportedAt: report.reportedAt.wireMilliseconds)
            else { return }
            sources[index] = report
        } else {
            sources.append(report)
        }
        // Sources the model never saw still count in the figure the server stated (as a source
        // no priority names: an empty name, which no source may have).
        let counts = sources.map { (source: $0.source, steps: UInt32(clamping: $0.steps)) }
            + (todaysStepSources.isEmpty ? [(source: "", steps: UInt32(clamping: todaysSteps))] : [])
        let figure = Int(StepsRule.dayFigure(counts, priority: profile?.stepsSourcePriority ?? []).steps)
        let added = figure - todaysSteps
        addToWeek(on: today) { $0.steps += added }
        todaysSteps = figure
        todaysStepSources = sources.sorted { $0.source < $1.source }
    }

    /// The streak, achievements, points and level after pending workouts, by the server's rules.
    ///
    /// - Parameters:
    ///   - stated: The totals as the server stated them, before any pending write.
    ///   - addedWorkoutDays: The local days of the pending workouts, in the order they were made.
    ///   - now: The time "today" is taken at.
    private mutating func settleTotals(stated: Totals, addedWorkoutDays: [LocalDate], now: Date) {
        guard var totals else { return }
        var streak = StreakSummary(
            run: UInt32(clamping: totals.currentStreakDays > 0 ? totals.currentStreakDays : (totals.lastWorkoutDay == nil ? 0 : 1)),
            longest: UInt32(clamping: totals.longestStreakDays),
            lastDay: totals.lastWorkoutDay?.rulesDay)
        for day in addedWorkoutDays {
            // A day before the last workout day: the server recomputes from every day; keep its streak.
            if let extended = Streaks.adding(day.rulesDay, to: streak) { streak = extended }
        }
        let today = LocalDate(now, in: profile?.zone ?? TimeZoneCatalog.utc)
        totals.longestStreakDays = Int(streak.longest)
        totals.lastWorkoutDay = streak.lastDay.map(LocalDate.init)
        totals.currentStreakDays = Int(Streaks.current(streak, today: today.rulesDay))

        // Achievements: earned once, never taken back; the points the server stated for the
        // achievements already unlocked, plus those the new figures unlock.
        let workouts = UInt32(clamping: max(0, totals.totalWorkouts))
        let unlocked = Set(achievements.filter(\.unlocked).map(\.id))
        // The steps-goal runs are the server's to count (they need every day's steps and goals).
        let figures = AchievementFigures(totalWorkouts: workouts, longestStreak: streak.longest, longestStepsGoalRun: 0)
        let newly = AchievementCatalog.newlyUnlocked(figures, unlocked: unlocked)
        for definition in newly {
            var achievement = achievements.first { $0.id == definition.id }
                ?? Achievement(id: definition.id, title: definition.title, details: definition.description,
                               points: Int(definition.points), target: Int(definition.target))
            achievement.unlocked = true
            achievement.unlockedAt = now
            upsert(achievement)
        }
        let statedAchievementPoints = UInt64(clamping: max(0, stated.points - stated.totalWorkouts * Int(Scoring.pointsPerWorkout)))
        let achievementPoints = statedAchievementPoints + newly.reduce(0) { $0 + UInt64($1.points) }
        let points = Scoring.points(workouts: workouts, achievementPoints: achievementPoints)
        totals.points = Int(clamping: points)
        totals.level = Int(Scoring.level(points: points))
        totals.achievementsUnlocked += newly.count
        self.totals = totals
    }

    /// The progress of every achievement the rules know, from the totals shown
    /// (`AchievementCatalog.progress`), as the server computes it for `Achievements`: the feed
    /// carries an achievement only when it unlocks, so progress follows the totals here.
    private mutating func followProgress() {
        guard let totals else { return }
        let workouts = UInt32(clamping: max(0, totals.totalWorkouts))
        let longest = UInt32(clamping: max(0, totals.longestStreakDays))
        let figures = AchievementFigures(totalWorkouts: workouts, longestStreak: longest, longestStepsGoalRun: 0)
        for index in achievements.indices {
            // A steps-goal run's progress is the server's (its feed carries it); keep what it said.
            guard let definition = AchievementCatalog.definition(id: achievements[index].id), definition.kind != .stepsGoalDays else { continue }
            let progress = Int(AchievementCatalog.progress(of: definition, figures))
            if achievements[index].progress != progress { achievements[index].progress = progress }
        }
    }
}
