import WorkoutProtocol

/// What a member trains for. "Not stated" is `nil` where a goal appears.
public enum FitnessGoal: String, Sendable, Hashable, Codable, CaseIterable {
    /// Lose body weight.
    case loseWeight
    /// Keep the current weight.
    case maintainWeight
    /// Build muscle.
    case gainMuscle
    /// Improve endurance.
    case improveEndurance
    /// Stay generally fit.
    case generalFitness
}

// MARK: Wire

extension FitnessGoal {
    /// Creates a goal from the wire: `nil` for `FITNESS_GOAL_UNSPECIFIED` (not stated) and
    /// for numbers this library does not know (a newer server's goals), which are shown
    /// as "not stated".
    ///
    /// - Parameter wire: The wire value.
    init?(wire: Workout_V1_FitnessGoal) {
        switch wire {
        case .loseWeight: self = .loseWeight
        case .maintainWeight: self = .maintainWeight
        case .gainMuscle: self = .gainMuscle
        case .improveEndurance: self = .improveEndurance
        case .generalFitness: self = .generalFitness
        case .unspecified, .UNRECOGNIZED: return nil
        }
    }

    /// This goal on the wire.
    var wire: Workout_V1_FitnessGoal {
        switch self {
        case .loseWeight: .loseWeight
        case .maintainWeight: .maintainWeight
        case .gainMuscle: .gainMuscle
        case .improveEndurance: .improveEndurance
        case .generalFitness: .generalFitness
        }
    }
}

extension Optional where Wrapped == FitnessGoal {
    /// The wire form of an optional goal: `FITNESS_GOAL_UNSPECIFIED` when `nil`.
    var wire: Workout_V1_FitnessGoal {
        self?.wire ?? .unspecified
    }
}
