import WorkoutProtocol

/// The kind of a meal.
public enum MealType: String, Sendable, Hashable, Codable, CaseIterable {
    /// Breakfast.
    case breakfast
    /// Lunch.
    case lunch
    /// Dinner.
    case dinner
    /// A snack between meals.
    case snack
    /// Anything else.
    case other
}

// MARK: Wire

extension MealType {
    /// Creates a meal type from the wire. `MEAL_TYPE_UNSPECIFIED` (never stored by the
    /// server) and numbers this library does not know (a newer server's types) become
    /// ``other``.
    ///
    /// - Parameter wire: The wire value.
    init(wire: Workout_V1_MealType) {
        switch wire {
        case .breakfast: self = .breakfast
        case .lunch: self = .lunch
        case .dinner: self = .dinner
        case .snack: self = .snack
        case .other, .unspecified, .UNRECOGNIZED: self = .other
        }
    }

    /// This meal type on the wire.
    var wire: Workout_V1_MealType {
        switch self {
        case .breakfast: .breakfast
        case .lunch: .lunch
        case .dinner: .dinner
        case .snack: .snack
        case .other: .other
        }
    }
}
