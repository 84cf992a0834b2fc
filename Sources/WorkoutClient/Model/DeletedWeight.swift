import WorkoutProtocol

/// The answer to `Logging.DeleteWeight`. When the entry had set the profile's weight, the
/// newest remaining entry sets it; the profile's change arrives through Watch and `Changes`.
public struct DeletedWeight: Sendable, Hashable, Codable {
    /// Whether this call deleted the weigh-in; `false` if there was none with that id
    /// (deleting is idempotent).
    public var deleted: Bool

    /// Creates a deleted-weigh-in result.
    ///
    /// - Parameter deleted: Whether an entry was deleted.
    public init(deleted: Bool) {
        self.deleted = deleted
    }
}

// MARK: Wire

extension DeletedWeight {
    /// Creates the result from the wire (`DeleteWeightResponse`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_DeleteWeightResponse) {
        self.init(deleted: wire.deleted)
    }
}
