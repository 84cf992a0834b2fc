import WorkoutProtocol

/// The answer to `Logging.UpdateWorkout`: the workout after the update and what it changed.
public struct UpdatedWorkout: Sendable, Hashable, Codable {
    /// The workout after the update (with its old revision if nothing changed).
    public var workout: Workout
    /// The member's totals after the write (recomputed).
    public var totals: Totals
    /// Achievements this write unlocked.
    public var unlocked: [Achievement]

    /// Creates an updated-workout result.
    ///
    /// - Parameters:
    ///   - workout: The workout after the update.
    ///   - totals: Totals after the write.
    ///   - unlocked: Achievements unlocked.
    public init(workout: Workout, totals: Totals, unlocked: [Achievement] = []) {
        self.workout = workout
        self.totals = totals
        self.unlocked = unlocked
    }
}

// MARK: Wire

extension UpdatedWorkout {
    /// Creates the result from the wire (`UpdateWorkoutResponse`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_UpdateWorkoutResponse) {
        self.init(
            workout: Workout(wire: wire.workout), totals: Totals(wire: wire.totals),
            unlocked: wire.unlocked.map(Achievement.init(wire:))
        )
    }
}
