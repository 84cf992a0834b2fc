import WorkoutProtocol

/// The answer to `Admin.CreateInvite`: the code to pass on, shown only this once.
public struct CreatedInvite: Sendable, Hashable, Codable {
    /// The invite code to give the new member (ASCII, at most 64 bytes); single-use.
    public var code: String
    /// The invite.
    public var invite: Invite

    /// Creates a created-invite result.
    ///
    /// - Parameters:
    ///   - code: The invite code.
    ///   - invite: The invite.
    public init(code: String, invite: Invite) {
        self.code = code
        self.invite = invite
    }
}

// MARK: Wire

extension CreatedInvite {
    /// Creates the result from the wire (`CreateInviteResponse`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_CreateInviteResponse) {
        self.init(code: wire.code, invite: Invite(wire: wire.invite))
    }
}
