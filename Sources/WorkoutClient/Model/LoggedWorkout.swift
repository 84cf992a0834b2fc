import WorkoutProtocol

/// The answer to `Logging.LogWorkout`: the stored workout and what it changed.
public struct LoggedWorkout: Sendable, Hashable, Codable {
    /// The stored workout, with its output fields (local day, revision, creation time).
    public var workout: Workout
    /// The member's totals after the write.
    public var totals: Totals
    /// Achievements this write unlocked (empty on a replay).
    public var unlocked: [Achievement]
    /// Whether this id was already stored with the same content, so nothing was applied
    /// (a retry of a write that had succeeded).
    public var replayed: Bool

    /// Creates a logged-workout result.
    ///
    /// - Parameters:
    ///   - workout: The stored workout.
    ///   - totals: Totals after the write.
    ///   - unlocked: Achievements unlocked.
    ///   - replayed: Whether it was a replay.
    public init(workout: Workout, totals: Totals, unlocked: [Achievement] = [], replayed: Bool = false) {
        self.workout = workout
        self.totals = totals
        self.unlocked = unlocked
        self.replayed = replayed
    }
}

// MARK: Wire

extension LoggedWorkout {
    /// Creates the result from the wire (`LogWorkoutResponse`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_LogWorkoutResponse) {
        self.init(
            workout: Workout(wire: wire.workout), totals: Totals(wire: wire.totals),
            unlocked: wire.unlocked.map(Achievement.init(wire:)), replayed: wire.replayed
        )
    }
}
