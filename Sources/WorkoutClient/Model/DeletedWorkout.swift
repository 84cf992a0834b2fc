import WorkoutProtocol

/// The answer to `Logging.DeleteWorkout`.
public struct DeletedWorkout: Sendable, Hashable, Codable {
    /// Whether this call deleted the workout; `false` if there was none with that id
    /// (deleting is idempotent).
    public var deleted: Bool
    /// The member's totals after the write (its calories and points removed, streaks
    /// recomputed).
    public var totals: Totals

    /// Creates a deleted-workout result.
    ///
    /// - Parameters:
    ///   - deleted: Whether a workout was deleted.
    ///   - totals: Totals after the write.
    public init(deleted: Bool, totals: Totals) {
        self.deleted = deleted
        self.totals = totals
    }
}

// MARK: Wire

extension DeletedWorkout {
    /// Creates the result from the wire (`DeleteWorkoutResponse`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_DeleteWorkoutResponse) {
        self.init(deleted: wire.deleted, totals: Totals(wire: wire.totals))
    }
}
