import WorkoutProtocol

/// The kind of a record that can be deleted by id, as a change feed's tombstone names it.
public enum RecordKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A ``Workout``.
    case workout
    /// A ``Meal`` (with its items).
    case meal
    /// A ``WeightEntry``.
    case weightEntry
}

// MARK: Wire

extension RecordKind {
    /// Creates a kind from the wire: `nil` for `RECORD_KIND_UNSPECIFIED` (never sent by
    /// the server) and for numbers this library does not know (a newer server's kinds);
    /// a tombstone of such a kind becomes a ``Change`` whose item is `nil`.
    ///
    /// - Parameter wire: The wire value.
    init?(wire: Workout_V1_RecordKind) {
        switch wire {
        case .workout: self = .workout
        case .meal: self = .meal
        case .weightEntry: self = .weightEntry
        case .unspecified, .UNRECOGNIZED: return nil
        }
    }
}
