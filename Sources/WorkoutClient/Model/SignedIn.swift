import WorkoutProtocol

/// A connection bound to a session: the answer to `Auth.Login`, `Auth.Register` and
/// `Auth.Resume`.
///
/// Store ``token`` (never the password) to resume the session on later connections.
public struct SignedIn: Sendable, Hashable, Codable {
    /// The session token. From Login and Register it is new and shown only this once;
    /// from Resume it is the token that was presented.
    public var token: SessionToken
    /// The session (with its current expiry).
    public var session: SessionInfo
    /// The member's profile.
    public var profile: Profile
    /// The member's totals.
    public var totals: Totals
    /// The member's current revision: sync (`Queries.Changes`, `Streams.Watch`) from a
    /// stored revision up to here.
    public var revision: UInt64

    /// Creates a signed-in result.
    ///
    /// - Parameters:
    ///   - token: The session token.
    ///   - session: The session.
    ///   - profile: The member's profile.
    ///   - totals: The member's totals.
    ///   - revision: The member's current revision.
    public init(token: SessionToken, session: SessionInfo, profile: Profile, totals: Totals, revision: UInt64) {
        self.token = token
        self.session = session
        self.profile = profile
        self.totals = totals
        self.revision = revision
    }
}

// MARK: Wire

extension SignedIn {
    /// Creates the result of `Auth.Login` from the wire.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_LoginResponse) {
        self.init(
            token: SessionToken(wire: wire.sessionToken), session: SessionInfo(wire: wire.session),
            profile: Profile(wire: wire.profile), totals: Totals(wire: wire.totals), revision: wire.revision
        )
    }

    /// Creates the result of `Auth.Register` from the wire.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_RegisterResponse) {
        self.init(
            token: SessionToken(wire: wire.sessionToken), session: SessionInfo(wire: wire.session),
            profile: Profile(wire: wire.profile), totals: Totals(wire: wire.totals), revision: wire.revision
        )
    }

    /// Creates the result of `Auth.Resume` from the wire and the token that was presented
    /// (the response does not repeat it).
    ///
    /// - Parameters:
    ///   - wire: The wire message.
    ///   - token: The token the `ResumeRequest` carried.
    init(wire: Workout_V1_ResumeResponse, token: SessionToken) {
        self.init(
            token: token, session: SessionInfo(wire: wire.session), profile: Profile(wire: wire.profile),
            totals: Totals(wire: wire.totals), revision: wire.revision
        )
    }
}
