// SessionContent: what the session model shows, as the server stated it (its answers, its
// queries, its change feed), before the writes still waiting in the outbox are merged in.
//
// It is a value: the model keeps one, the snapshot file saves one, and the pending overlay
// (`SessionContent+Pending.swift`) makes the displayed one from it. Changes apply record by
// record: an older revision never overwrites a newer one, tombstones remove, and each list
// keeps its order and bound.

import Foundation
import WorkoutClient
import WorkoutOffline

/// What the session model shows as the server stated it: profile, totals, today's meals and
/// steps, recent workouts, the weight series, achievements and the week's summary.
struct SessionContent: Sendable, Hashable, Codable {
    /// The member's profile.
    var profile: Profile?
    /// Their totals.
    var totals: Totals?
    /// The day the day-bound parts (meals, steps) are of, in the profile's zone.
    var today: LocalDate?
    /// That day's meals, in time order.
    var todaysMeals: [Meal] = []
    /// That day's step figure.
    var todaysSteps = 0
    /// That day's steps per source, when a report or a change named them (for merging a
    /// pending report the way the server does); empty when only the figure is known.
    var todaysStepSources: [StepsReport] = []
    /// The newest workouts, newest first.
    var recentWorkouts: [Workout] = []
    /// Whether the server holds more workouts than ``recentWorkouts`` (so that a deletion
    /// calls for a refill).
    var hasOlderWorkouts = false
    /// The weigh-ins of the window, oldest first.
    var weights: [WeightEntry] = []
    /// Every achievement, with progress.
    var achievements: [Achievement] = []
    /// The ISO week holding ``today``, summed.
    var week: PeriodSummary?

    /// The bounds of the lists: how many recent workouts, how many weigh-ins.
    static let recentWorkoutLimit = 20
    /// The most weigh-ins kept (a year of several a day).
    static let weightLimit = 1_000

    // MARK: - Applying the server's records

    /// Applies one change of the feed (its item in its current state, or a tombstone).
    ///
    /// - Returns: What the change calls for beyond itself: a refill of the workouts after a
    ///   deletion, a new read of the week.
    mutating func apply(_ change: Change) -> FollowUp {
        switch change.item {
        case .workout(let workout):
            upsert(workout)
            return .week
        case .meal(let meal):
            upsert(meal)
            return .week
        case .weight(let entry):
            upsert(entry)
        case .steps(let day):
            apply(day)
            return .week
        case .achievement(let achievement):
            upsert(achievement)
        case .profile(let changed):
            profile = changed
        case .deleted(let kind, let id):
            switch kind {
            case .workout:
                let before = recentWorkouts.count
                recentWorkouts.removeAll { $0.id == id }
                return recentWorkouts.count < before && hasOlderWorkouts ? [.week, .refillWorkouts] : .week
            case .meal:
                todaysMeals.removeAll { $0.id == id }
                return .week
            case .weightEntry:
                weights.removeAll { $0.id == id }
            }
        case nil:
            break  // a kind of change this client does not know
        }
        return []
    }

    /// What a change calls for beyond itself.
    struct FollowUp: OptionSet, Sendable, Hashable {
        let rawValue: Int
        /// Read the week's summary again (a workout, meal or steps day of it changed).
        static let week = FollowUp(rawValue: 1)
        /// Read the newest workouts again (one left the list and older ones exist).
        static let refillWorkouts = FollowUp(rawValue: 2)
    }

    /// Inserts or replaces a workout, unless the list holds a newer revision of it.
    mutating func upsert(_ workout: Workout) {
        if let index = recentWorkouts.firstIndex(where: { $0.id == workout.id }) {
            guard recentWorkouts[index].revision <= workout.revision else { return }
            recentWorkouts[index] = workout
        } else {
            recentWorkouts.append(workout)
        }
        recentWorkouts.sort(by: Self.newestFirst)
        if recentWorkouts.count > Self.recentWorkoutLimit {
            recentWorkouts.removeLast(recentWorkouts.count - Self.recentWorkoutLimit)
            hasOlderWorkouts = true
        }
    }

    /// Inserts or replaces a meal if it is of ``today``; removes it when it moved to another day.
    mutating func upsert(_ meal: Meal) {
        let index = todaysMeals.firstIndex { $0.id == meal.id }
        if let index, todaysMeals[index].revision > meal.revision { return }
        guard meal.localDay == today else {
            if let index { todaysMeals.remove(at: index) }
            return
        }
        if let index { todaysMeals[index] = meal } else { todaysMeals.append(meal) }
        todaysMeals.sort(by: Self.oldestMealFirst)
    }

    /// Inserts or replaces a weigh-in, unless the series holds a newer revision of it.
    mutating func upsert(_ entry: WeightEntry) {
        if let index = weights.firstIndex(where: { $0.id == entry.id }) {
            guard weights[index].revision <= entry.revision else { return }
            weights[index] = entry
        } else {
            weights.append(entry)
        }
        weights.sort(by: Self.oldestWeightFirst)
        if weights.count > Self.weightLimit { weights.removeFirst(weights.count - Self.weightLimit) }
    }

    /// Inserts or replaces an achievement.
    mutating func upsert(_ achievement: Achievement) {
        if let index = achievements.firstIndex(where: { $0.id == achievement.id }) {
            achievements[index] = achievement
        } else {
            achievements.append(achievement)
        }
    }

    /// Takes a steps day when it is ``today``.
    mutating func apply(_ day: StepsDay) {
        guard day.day == today else { return }
        todaysSteps = day.steps
        todaysStepSources = day.sources
    }

    /// Applies the server's answer to a write: the record, the totals and anything unlocked.
    ///
    /// - Returns: What the answer calls for beyond itself (as ``apply(_:)-(Change)``).
    mutating func apply(_ answer: SentWrite, of write: PendingWrite) -> FollowUp {
        switch answer {
        case .loggedWorkout(let logged):
            upsert(logged.workout)
            totals = logged.totals
            logged.unlocked.forEach { upsert($0) }
            return .week
        case .updatedWorkout(let updated):
            upsert(updated.workout)
            totals = updated.totals
            updated.unlocked.forEach { upsert($0) }
            return .week
        case .deletedWorkout(let deleted):
            totals = deleted.totals
            guard let id = write.recordID else { return .week }
            return apply(Change(revision: 0, changedAt: Date(), item: .deleted(.workout, id)))
        case .loggedMeal(let logged):
            upsert(logged.meal)
            return .week
        case .updatedMeal(let updated):
            upsert(updated.meal)
            return .week
        case .deletedMeal:
            guard let id = write.recordID else { return .week }
            return apply(Change(revision: 0, changedAt: Date(), item: .deleted(.meal, id)))
        case .loggedWeight(let logged):
            upsert(logged.entry)
            if logged.profileWeightUpdated { profile?.weightKg = logged.entry.weightKg }
        case .updatedWeight(let updated):
            upsert(updated.entry)
            if updated.profileWeightUpdated { profile?.weightKg = updated.profileWeightKg }
        case .deletedWeight:
            if let id = write.recordID { weights.removeAll { $0.id == id } }
        case .reportedSteps(let update):
            apply(update.day)
            update.unlocked.forEach { upsert($0) }
            return .week
        }
        return []
    }

    // MARK: - Orders

    /// Newest first; ties by id, so the order is total.
    static func newestFirst(_ a: Workout, _ b: Workout) -> Bool {
        (a.performedAt, a.id.uuidString) > (b.performedAt, b.id.uuidString)
    }

    /// Oldest first; ties by id.
    static func oldestMealFirst(_ a: Meal, _ b: Meal) -> Bool {
        (a.eatenAt, a.id.uuidString) < (b.eatenAt, b.id.uuidString)
    }

    /// Oldest first; ties by id.
    static func oldestWeightFirst(_ a: WeightEntry, _ b: WeightEntry) -> Bool {
        (a.measuredAt, a.id.uuidString) < (b.measuredAt, b.id.uuidString)
    }
}
