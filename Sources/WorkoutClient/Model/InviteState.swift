import WorkoutProtocol

/// The state of an invite.
public enum InviteState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Usable: not used, not revoked, not expired.
    case active
    /// Used by a registration.
    case used
    /// Revoked by an admin.
    case revoked
    /// Past its expiry without being used.
    case expired
}

// MARK: Wire

extension InviteState {
    /// Creates a state from the wire. `INVITE_STATE_UNSPECIFIED` (never sent by the
    /// server) and numbers this library does not know (a newer server's states) become
    /// ``expired``: not usable, and not claiming anything happened to the invite.
    ///
    /// - Parameter wire: The wire value.
    init(wire: Workout_V1_InviteState) {
        switch wire {
        case .active: self = .active
        case .used: self = .used
        case .revoked: self = .revoked
        case .expired, .unspecified, .UNRECOGNIZED: self = .expired
        }
    }
}
