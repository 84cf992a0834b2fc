import Foundation
import WorkoutClient

/// Everything of a member's, merged from the chunks of an export: what
/// `workout export --format json` writes, as one object.
///
/// ```json
/// {"achievements": [...], "exportedAt": "2025-06-01T07:30:00Z", "goals": [...], "meals": [...],
///  "profile": {...}, "revision": 42, "steps": [...], "totals": {...},
///  "weights": [...], "workouts": [...]}
/// ```
struct ExportDocument: Codable, Sendable, Equatable {
    /// When the server began the export (the first chunk's time).
    var exportedAt: Date?
    /// The revision the export reflects.
    var revision: UInt64 = 0
    /// The member's profile.
    var profile: Profile?
    /// Their totals.
    var totals: Totals?
    /// Workouts, in the server's order.
    var workouts: [Workout] = []
    /// Meals with their food items.
    var meals: [Meal] = []
    /// Weigh-ins.
    var weights: [WeightEntry] = []
    /// Daily step counts.
    var steps: [StepsDay] = []
    /// Achievements, unlocked or not.
    var achievements: [Achievement] = []
    /// The goal history, oldest entry first.
    var goals: [GoalsEntry] = []

    /// An empty document.
    init() {}

    /// Adds a chunk's records (the profile and totals come with the first chunk that has them).
    mutating func merge(_ chunk: ExportChunk) {
        if exportedAt == nil { exportedAt = chunk.exportedAt }
        revision = max(revision, chunk.revision)
        if profile == nil { profile = chunk.profile }
        if totals == nil { totals = chunk.totals }
        workouts += chunk.workouts
        meals += chunk.meals
        weights += chunk.weights
        steps += chunk.steps
        achievements += chunk.achievements
        goals += chunk.goals
    }

    /// "3 workouts, 2 meals, 5 weigh-ins, 4 days of steps, 12 achievements".
    var summary: String {
        [
            Format.count(workouts.count, "workout"), Format.count(meals.count, "meal"),
            Format.count(weights.count, "weigh-in"), Format.count(steps.count, "day") + " of steps",
            Format.count(achievements.count, "achievement"),
        ].joined(separator: ", ")
    }
}
