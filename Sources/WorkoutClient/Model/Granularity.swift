import WorkoutProtocol

/// The period length of summaries (`Queries.Summaries`).
public enum Granularity: String, Sendable, Hashable, Codable, CaseIterable {
    /// One period per local day.
    case day
    /// One period per ISO week, Monday to Sunday.
    case week
}

// MARK: Wire

extension Granularity {
    /// Creates a granularity from the wire. `GRANULARITY_UNSPECIFIED` and numbers this
    /// library does not know become ``day``, as the protocol treats an unspecified one.
    ///
    /// - Parameter wire: The wire value.
    init(wire: Workout_V1_Granularity) {
        switch wire {
        case .week: self = .week
        case .day, .unspecified, .UNRECOGNIZED: self = .day
        }
    }

    /// This granularity on the wire.
    var wire: Workout_V1_Granularity {
        switch self {
        case .day: .day
        case .week: .week
        }
    }
}
