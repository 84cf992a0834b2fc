import WorkoutProtocol

/// What one goal is about: the kinds ``Goals`` holds, ``WorkoutClient/setGoals(_:clearing:from:for:)``
/// clears, and progress reports.
public enum GoalKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Daily kcal eaten (``Goals/energyKcal``).
    case energy
    /// Daily protein (``Goals/protein``).
    case protein
    /// Daily carbohydrates (``Goals/carbs``).
    case carbs
    /// Daily fat (``Goals/fat``).
    case fat
    /// Daily steps (``Goals/dailySteps``).
    case dailySteps
    /// Active minutes per ISO week (``Goals/weeklyActiveMinutes``).
    case weeklyActiveMinutes
    /// Workouts per ISO week (``Goals/weeklyWorkouts``).
    case weeklyWorkouts
    /// The target weight, with its day (``Goals/targetWeightKg``).
    case targetWeight
}

// MARK: Wire

extension GoalKind {
    /// The kind of a wire value; `nil` for UNSPECIFIED and kinds this library does not know.
    init?(wire: Workout_V1_GoalKind) {
        switch wire {
        case .energy: self = .energy
        case .protein: self = .protein
        case .carbs: self = .carbs
        case .fat: self = .fat
        case .dailySteps: self = .dailySteps
        case .weeklyActiveMinutes: self = .weeklyActiveMinutes
        case .weeklyWorkouts: self = .weeklyWorkouts
        case .targetWeight: self = .targetWeight
        default: return nil
        }
    }

    /// The wire value.
    var wire: Workout_V1_GoalKind {
        switch self {
        case .energy: .energy
        case .protein: .protein
        case .carbs: .carbs
        case .fat: .fat
        case .dailySteps: .dailySteps
        case .weeklyActiveMinutes: .weeklyActiveMinutes
        case .weeklyWorkouts: .weeklyWorkouts
        case .targetWeight: .targetWeight
        }
    }
}
