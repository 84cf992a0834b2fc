import WorkoutProtocol

/// The answer to `Logging.UpdateWeight`: the entry after the update and what became of the
/// profile's weight, which follows the newest entry.
public struct UpdatedWeight: Sendable, Hashable, Codable {
    /// The entry after the update (with its old revision if nothing changed).
    public var entry: WeightEntry
    /// Whether the update changed the profile's weight (the entry is, or was, the newest).
    public var profileWeightUpdated: Bool
    /// The profile's weight after the update, in kilograms; 0 = not stated.
    public var profileWeightKg: Double

    /// Creates an updated-weight result.
    ///
    /// - Parameters:
    ///   - entry: The entry after the update.
    ///   - profileWeightUpdated: Whether the profile's weight changed.
    ///   - profileWeightKg: The profile's weight after the update.
    public init(entry: WeightEntry, profileWeightUpdated: Bool = false, profileWeightKg: Double = 0) {
        self.entry = entry
        self.profileWeightUpdated = profileWeightUpdated
        self.profileWeightKg = profileWeightKg
    }
}

// MARK: Wire

extension UpdatedWeight {
    /// Creates the result from the wire (`UpdateWeightResponse`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_UpdateWeightResponse) {
        self.init(
            entry: WeightEntry(wire: wire.entry), profileWeightUpdated: wire.profileWeightUpdated,
            profileWeightKg: wire.profileWeightKg)
    }
}
