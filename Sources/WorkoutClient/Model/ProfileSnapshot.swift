import WorkoutProtocol

/// The member's profile and totals at a revision: the answer to `Profile.GetProfile` and
/// `Profile.UpdateProfile`.
public struct ProfileSnapshot: Sendable, Hashable, Codable {
    /// The member's profile.
    public var profile: Profile
    /// The member's totals (an update of the time zone may change the current streak).
    public var totals: Totals
    /// The member's current revision.
    public var revision: UInt64

    /// Creates a snapshot.
    ///
    /// - Parameters:
    ///   - profile: The member's profile.
    ///   - totals: The member's totals.
    ///   - revision: The member's current revision.
    public init(profile: Profile, totals: Totals, revision: UInt64) {
        self.profile = profile
        self.totals = totals
        self.revision = revision
    }
}

// MARK: Wire

extension ProfileSnapshot {
    /// Creates the result of `Profile.GetProfile` from the wire.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_GetProfileResponse) {
        self.init(profile: Profile(wire: wire.profile), totals: Totals(wire: wire.totals), revision: wire.revision)
    }

    /// Creates the result of `Profile.UpdateProfile` from the wire.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_UpdateProfileResponse) {
        self.init(profile: Profile(wire: wire.profile), totals: Totals(wire: wire.totals), revision: wire.revision)
    }
}
