import WorkoutProtocol

/// Where a workout was done: an attribute of the workout, not another kind (a treadmill run is
/// a `running` workout done indoors).
public enum WorkoutLocation: String, Sendable, Hashable, Codable, CaseIterable {
    /// Indoors: a treadmill, an indoor trainer, a pool hall, a gym.
    case indoor
    /// Outdoors: a road, a trail, open water.
    case outdoor
}

// MARK: Wire

extension WorkoutLocation {
    /// The location on the wire; `nil` for not stated and for numbers this library does not
    /// know (a newer server's).
    ///
    /// - Parameter wire: The wire value.
    init?(wire: Workout_V1_WorkoutLocation) {
        switch wire {
        case .indoor: self = .indoor
        case .outdoor: self = .outdoor
        case .unspecified, .UNRECOGNIZED: return nil
        }
    }

    /// This location on the wire.
    var wire: Workout_V1_WorkoutLocation {
        switch self {
        case .indoor: .indoor
        case .outdoor: .outdoor
        }
    }
}
