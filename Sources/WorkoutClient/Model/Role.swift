import WorkoutProtocol

/// A member's role in the household.
public enum Role: String, Sendable, Hashable, Codable, CaseIterable {
    /// An ordinary member: uses their own records only.
    case member
    /// An admin: also manages invites and members (never members' records).
    case admin
    /// The owner: the admin created on the server machine itself; has every admin right
    /// and cannot be removed or reset by other admins. Never granted by an invite.
    case owner

    /// Whether the role may call the admin-only methods (`Admin.*`): admin or owner.
    public var isAdmin: Bool {
        self != .member
    }
}

// MARK: Wire

extension Role {
    /// Creates a role from the wire. `ROLE_UNSPECIFIED` and numbers this library does not
    /// know (a newer server's roles) become ``member``, the role with the fewest rights.
    ///
    /// - Parameter wire: The wire value.
    init(wire: Workout_V1_Role) {
        switch wire {
        case .member: self = .member
        case .admin: self = .admin
        case .owner: self = .owner
        case .unspecified, .UNRECOGNIZED: self = .member
        }
    }

    /// This role on the wire.
    var wire: Workout_V1_Role {
        switch self {
        case .member: .member
        case .admin: .admin
        case .owner: .owner
        }
    }
}
