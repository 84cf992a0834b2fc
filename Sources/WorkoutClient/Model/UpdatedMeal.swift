import WorkoutProtocol

/// The answer to `Logging.UpdateMeal`: the meal after the update. A meal leaves the member's
/// totals as they were, so unlike ``UpdatedWorkout`` there are none.
public struct UpdatedMeal: Sendable, Hashable, Codable {
    /// The meal after the update (its day and nutrition totals recomputed; with its old
    /// revision if nothing changed).
    public var meal: Meal

    /// Creates an updated-meal result.
    ///
    /// - Parameter meal: The meal after the update.
    public init(meal: Meal) {
        self.meal = meal
    }
}

// MARK: Wire

extension UpdatedMeal {
    /// Creates the result from the wire (`UpdateMealResponse`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_UpdateMealResponse) {
        self.init(meal: Meal(wire: wire.meal))
    }
}
