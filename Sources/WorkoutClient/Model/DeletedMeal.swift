import WorkoutProtocol

/// The answer to `Logging.DeleteMeal`. A meal leaves the member's totals as they were, so
/// unlike ``DeletedWorkout`` there are none.
public struct DeletedMeal: Sendable, Hashable, Codable {
    /// Whether this call deleted the meal (and its items); `false` if there was none with that
    /// id (deleting is idempotent).
    public var deleted: Bool

    /// Creates a deleted-meal result.
    ///
    /// - Parameter deleted: Whether a meal was deleted.
    public init(deleted: Bool) {
        self.deleted = deleted
    }
}

// MARK: Wire

extension DeletedMeal {
    /// Creates the result from the wire (`DeleteMealResponse`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_DeleteMealResponse) {
        self.init(deleted: wire.deleted)
    }
}
