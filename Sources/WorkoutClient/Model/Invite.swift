public import Foundation
import WorkoutProtocol

/// An invite as admins see it (`Admin.ListInvites`). The code itself is shown only once,
/// by `Admin.CreateInvite` (see ``CreatedInvite``).
public struct Invite: Sendable, Hashable, Codable, Identifiable {
    /// The invite's id, chosen by the server; pass it to `Admin.RevokeInvite`.
    public var id: UUID
    /// The role the new member will get: ``Role/member`` or ``Role/admin``.
    public var role: Role
    /// The admin's note, e.g. `"for Masha"`.
    public var note: String
    /// The user id of the admin who created it.
    public var createdBy: UUID
    /// When it was created.
    public var createdAt: Date
    /// When it stops being usable.
    public var expiresAt: Date
    /// Its state now.
    public var state: InviteState
    /// When it was used, or `nil` unless ``state`` is ``InviteState/used``.
    public var usedAt: Date?
    /// The user id of the member who registered with it, or `nil` unless used.
    public var usedBy: UUID?

    /// Creates invite facts (the server makes them; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - id: The invite's id.
    ///   - role: The role it grants.
    ///   - note: The admin's note.
    ///   - createdBy: The creating admin's user id.
    ///   - createdAt: When it was created.
    ///   - expiresAt: When it expires.
    ///   - state: Its state.
    ///   - usedAt: When it was used, if it was.
    ///   - usedBy: Who used it, if it was used.
    public init(
        id: UUID, role: Role = .member, note: String = "", createdBy: UUID, createdAt: Date, expiresAt: Date,
        state: InviteState = .active, usedAt: Date? = nil, usedBy: UUID? = nil
    ) {
        self.id = id
        self.role = role
        self.note = note
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.state = state
        self.usedAt = usedAt
        self.usedBy = usedBy
    }
}

// MARK: Wire

extension Invite {
    /// Creates invite facts from the wire; `used_at_ms` 0 and an empty `used_by` become `nil`.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_Invite) {
        self.init(
            id: UUID(wireBytes: wire.inviteID), role: Role(wire: wire.role), note: wire.note,
            createdBy: UUID(wireBytes: wire.createdBy), createdAt: Date(wireMilliseconds: wire.createdAtMs),
            expiresAt: Date(wireMilliseconds: wire.expiresAtMs), state: InviteState(wire: wire.state),
            usedAt: Date(wireMillisecondsUnlessZero: wire.usedAtMs), usedBy: UUID(wireBytesUnlessEmpty: wire.usedBy)
        )
    }
}
