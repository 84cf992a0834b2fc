import WorkoutProtocol

/// The answer to `Logging.LogWeight`.
public struct LoggedWeight: Sendable, Hashable, Codable {
    /// The stored entry.
    public var entry: WeightEntry
    /// Whether this id was already stored with the same content, so nothing was applied.
    public var replayed: Bool
    /// Whether the entry is now the member's newest, so the profile's weight was set to it.
    public var profileWeightUpdated: Bool

    /// Creates a logged-weight result.
    ///
    /// - Parameters:
    ///   - entry: The stored entry.
    ///   - replayed: Whether it was a replay.
    ///   - profileWeightUpdated: Whether the profile's weight changed.
    public init(entry: WeightEntry, replayed: Bool = false, profileWeightUpdated: Bool = false) {
        self.entry = entry
        self.replayed = replayed
        self.profileWeightUpdated = profileWeightUpdated
    }
}

// MARK: Wire

extension LoggedWeight {
    /// Creates the result from the wire (`LogWeightResponse`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_LogWeightResponse) {
        self.init(entry: WeightEntry(wire: wire.entry), replayed: wire.replayed, profileWeightUpdated: wire.profileWeightUpdated)
    }
}
