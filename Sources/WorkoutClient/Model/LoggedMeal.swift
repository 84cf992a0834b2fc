import WorkoutProtocol

/// The answer to `Logging.LogMeal`.
public struct LoggedMeal: Sendable, Hashable, Codable {
    /// The stored meal, with its output fields (local day, totals, revision, creation time).
    public var meal: Meal
    /// Whether this id was already stored with the same content, so nothing was applied.
    public var replayed: Bool

    /// Creates a logged-meal result.
    ///
    /// - Parameters:
    ///   - meal: The stored meal.
    ///   - replayed: Whether it was a replay.
    public init(meal: Meal, replayed: Bool = false) {
        self.meal = meal
        self.replayed = replayed
    }
}

// MARK: Wire

extension LoggedMeal {
    /// Creates the result from the wire (`LogMealResponse`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_LogMealResponse) {
        self.init(meal: Meal(wire: wire.meal), replayed: wire.replayed)
    }
}
