public import Foundation
import WorkoutProtocol

/// Account facts of one member, as admins see them (`Admin.ListMembers`): no records, no totals.
public struct MemberInfo: Sendable, Hashable, Codable, Identifiable {
    /// The member's user id.
    public var id: UUID
    /// Email (lower-case).
    public var email: String
    /// First name.
    public var firstName: String
    /// Last name.
    public var lastName: String
    /// Role.
    public var role: Role
    /// When the account was created.
    public var createdAt: Date
    /// When one of the member's sessions was last used, or `nil` if never.
    public var lastSeenAt: Date?
    /// Number of unexpired, unrevoked sessions.
    public var activeSessions: Int
    /// Whether the member appears in the household view.
    public var shareWithHousehold: Bool
    /// Whether the household's rules for children apply to them: a stated age under 18, or
    /// ``markedChild``. A child is never ranked by calories or weight, and an admin sets their
    /// goals with them.
    public var isChild: Bool
    /// Whether an admin marked them a child (``WorkoutClient/markChild(_:_:)``), whatever their age.
    public var markedChild: Bool

    /// Creates member facts (the server makes them; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - id: The member's user id.
    ///   - email: Email.
    ///   - firstName: First name.
    ///   - lastName: Last name.
    ///   - role: Role.
    ///   - createdAt: When the account was created.
    ///   - lastSeenAt: When a session was last used, `nil` if never.
    ///   - activeSessions: Number of live sessions.
    ///   - shareWithHousehold: Whether they appear in the household view.
    ///   - isChild: Whether the rules for children apply to them.
    ///   - markedChild: Whether an admin marked them a child.
    public init(
        id: UUID, email: String, firstName: String, lastName: String = "", role: Role = .member,
        createdAt: Date, lastSeenAt: Date? = nil, activeSessions: Int = 0, shareWithHousehold: Bool = false,
        isChild: Bool = false, markedChild: Bool = false
    ) {
        self.id = id
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.role = role
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.activeSessions = activeSessions
        self.shareWithHousehold = shareWithHousehold
        self.isChild = isChild || markedChild
        self.markedChild = markedChild
    }
}

// MARK: Wire

extension MemberInfo {
    /// Creates member facts from the wire; `last_seen_at_ms` 0 becomes `nil`.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_MemberInfo) {
        self.init(
            id: UUID(wireBytes: wire.userID), email: wire.email, firstName: wire.firstName, lastName: wire.lastName,
            role: Role(wire: wire.role), createdAt: Date(wireMilliseconds: wire.createdAtMs),
            lastSeenAt: Date(wireMillisecondsUnlessZero: wire.lastSeenAtMs), activeSessions: Int(wire.activeSessions),
            shareWithHousehold: wire.shareWithHousehold, isChild: wire.child, markedChild: wire.markedChild
        )
    }
}
