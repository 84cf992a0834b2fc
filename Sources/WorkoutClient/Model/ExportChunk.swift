public import Foundation
import WorkoutProtocol

/// One message of `Streams.Export`: part of all of the member's data, from one consistent
/// snapshot.
///
/// The first chunk carries the profile and totals; then records follow, each kind oldest
/// first: workouts, meals, weight entries, steps days, unlocked achievements, goal entries.
public struct ExportChunk: Sendable, Hashable, Codable {
    /// The member's profile (first chunk only).
    public var profile: Profile?
    /// The member's totals (first chunk only).
    public var totals: Totals?
    /// The snapshot's revision (every chunk).
    public var revision: UInt64
    /// Workouts.
    public var workouts: [Workout]
    /// Meals with their items.
    public var meals: [Meal]
    /// Weight entries.
    public var weights: [WeightEntry]
    /// Steps days with every source's report.
    public var steps: [StepsDay]
    /// Unlocked achievements.
    public var achievements: [Achievement]
    /// The goal history, oldest entry first across chunks.
    public var goals: [GoalsEntry]
    /// The server's clock when the export started.
    public var exportedAt: Date

    /// Creates an export chunk.
    ///
    /// - Parameters:
    ///   - profile: The profile (first chunk).
    ///   - totals: The totals (first chunk).
    ///   - revision: The snapshot's revision.
    ///   - workouts: Workouts.
    ///   - meals: Meals.
    ///   - weights: Weight entries.
    ///   - steps: Steps days.
    ///   - achievements: Unlocked achievements.
    ///   - goals: Goal entries.
    ///   - exportedAt: When the export started.
    public init(
        profile: Profile? = nil, totals: Totals? = nil, revision: UInt64, workouts: [Workout] = [],
        meals: [Meal] = [], weights: [WeightEntry] = [], steps: [StepsDay] = [], achievements: [Achievement] = [],
        goals: [GoalsEntry] = [], exportedAt: Date
    ) {
        self.profile = profile
        self.totals = totals
        self.revision = revision
        self.workouts = workouts
        self.meals = meals
        self.weights = weights
        self.steps = steps
        self.achievements = achievements
        self.goals = goals
        self.exportedAt = exportedAt
    }
}

// MARK: Wire

extension ExportChunk {
    /// Creates a chunk from the wire; unset `profile` and `totals` become `nil`.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_ExportChunk) {
        self.init(
            profile: wire.hasProfile ? Profile(wire: wire.profile) : nil,
            totals: wire.hasTotals ? Totals(wire: wire.totals) : nil, revision: wire.revision,
            workouts: wire.workouts.map(Workout.init(wire:)), meals: wire.meals.map(Meal.init(wire:)),
            weights: wire.weights.map(WeightEntry.init(wire:)), steps: wire.steps.map(StepsDay.init(wire:)),
            achievements: wire.achievements.map(Achievement.init(wire:)), goals: wire.goals.map(GoalsEntry.init(wire:)),
            exportedAt: Date(wireMilliseconds: wire.exportedAtMs)
        )
    }
}
