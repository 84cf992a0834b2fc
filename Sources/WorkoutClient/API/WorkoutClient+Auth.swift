public import Foundation
import WorkoutProtocol

extension WorkoutClient {
    /// Signs in with email and password, starting a new session for this device. The
    /// client keeps the session token (``sessionToken``) and resumes it on every new
    /// connection.
    ///
    /// - Parameters:
    ///   - email: The member's email.
    ///   - password: Their password.
    /// - Returns: The session, profile, totals and current revision.
    /// - Throws: ``WorkoutError``: `UNAUTHENTICATED` for a wrong email or password,
    ///   `RESOURCE_EXHAUSTED` (with ``WorkoutError/retryAfter``) after too many failures.
    public func login(email: String, password: String) async throws(WorkoutError) -> SignedIn {
        var request = Workout_V1_LoginRequest()
        request.email = email
        request.password = password
        request.deviceName = configuration.deviceName
        return SignedIn(wire: try await signIn(MethodCatalog.login, request) { $0.sessionToken })
    }

    /// Creates an account with an invite code from an admin, and signs in.
    ///
    /// - Parameters:
    ///   - inviteCode: The code the admin handed out (with the server's fingerprint after an
    ///     `@` or without: only the code is sent; see ``InviteCode``). With a fingerprint,
    ///     nothing is sent unless the connection's server proved it holds that key, and a
    ///     server not pinned yet that does is trusted and pinned, with no confirmation asked.
    ///   - member: The new member's profile.
    ///   - password: Their password (8 to 256 bytes).
    ///   - initialWeightEntryID: The id for the weight entry made from `member.weightKg`, if any.
    /// - Returns: The session, profile, totals and revision.
    /// - Throws: ``WorkoutError``: `NOT_FOUND` for an unknown, used, revoked or expired
    ///   code; `ALREADY_EXISTS` when the email has an account; `INVALID_ARGUMENT`;
    ///   `FAILED_PRECONDITION` when the invite's fingerprint is not the server's verified key
    ///   (or the connection is plain TCP, where no key is verified); `INVALID_ARGUMENT`,
    ///   before anything is sent, when the part after `@` is not a fingerprint.
    public func register(
        inviteCode: String, member: NewMember, password: String, initialWeightEntryID: UUID = .timeOrdered()
    ) async throws(WorkoutError) -> SignedIn {
        // A fingerprint the member meant to give but that does not read as one must not turn
        // into a registration with no key required (nor travel to the server).
        guard let invite = InviteCode(inviteCode) else {
            let text = inviteCode.split(separator: "@", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
            throw WorkoutError(TrustFailure(.inviteFingerprintInvalid, address: configuration.address, text: text))
        }
        var request = Workout_V1_RegisterRequest()
        request.inviteCode = invite.code
        request.profile = try member.wire()
        request.password = password
        request.deviceName = configuration.deviceName
        request.initialWeightEntryID = initialWeightEntryID.wireBytes
        return SignedIn(wire: try await signIn(
            MethodCatalog.register, request, requiringServerFingerprint: invite.serverFingerprint) { $0.sessionToken })
    }

    /// Ends this device's session on the server and forgets the token. Succeeds also when
    /// the session had already expired or been revoked.
    ///
    /// - Throws: ``WorkoutError`` when the server cannot be reached (the token is kept,
    ///   so the logout can be tried again).
    public func logout() async throws(WorkoutError) {
        do {
            _ = try await call(MethodCatalog.logout, Workout_V1_LogoutRequest(), idempotent: true)
        } catch where error.code == .unauthenticated {
            // Already over on the server's side.
        }
        forgetSession()
    }

    /// Changes the password; every other session of the member ends.
    ///
    /// - Parameters:
    ///   - current: The password now.
    ///   - new: The new password (8 to 256 bytes).
    /// - Returns: How many other sessions were ended.
    /// - Throws: ``WorkoutError``: `PERMISSION_DENIED` when `current` is wrong (the session
    ///   itself is fine); `INVALID_ARGUMENT` for a new password the server does not accept.
    public func changePassword(current: String, new: String) async throws(WorkoutError) -> Int {
        var request = Workout_V1_ChangePasswordRequest()
        request.currentPassword = current
        request.newPassword = new
        try requireConfidentialTransport(for: "ChangePassword")
        return Int(try await call(MethodCatalog.changePassword, request, idempotent: false, carriesPassword: true).revokedSessions)
    }

    /// The member's sessions (their devices), the current one marked.
    ///
    /// - Returns: The sessions.
    /// - Throws: ``WorkoutError``.
    public func sessions() async throws(WorkoutError) -> [SessionInfo] {
        try await call(MethodCatalog.listSessions, Workout_V1_ListSessionsRequest(), idempotent: true)
            .sessions.map(SessionInfo.init(wire:))
    }

    /// Ends one of the member's sessions (a lost phone, say).
    ///
    /// - Parameter id: The session's id, from ``sessions()``.
    /// - Throws: ``WorkoutError``: `NOT_FOUND` when the member has no such session.
    public func revokeSession(_ id: UUID) async throws(WorkoutError) {
        var request = Workout_V1_RevokeSessionRequest()
        request.sessionID = id.wireBytes
        _ = try await call(MethodCatalog.revokeSession, request, idempotent: true)
    }

    /// Makes a device token: a named, never-expiring credential with scopes for an automation
    /// (Home Assistant, a Shortcut, Health Auto Export). The token is in the answer only this
    /// once; the server keeps only its hash.
    ///
    /// - Parameters:
    ///   - name: What the member calls it, 1 to 64 bytes, e.g. `"Home Assistant"`.
    ///   - scopes: What it may do: at least one scope, each at most once.
    ///   - signed: Make a token whose posts must be signed (a phone bridge such as Life
    ///     Dashboard Companion): the answer carries its signing secret. Only with `[.import]`.
    /// - Returns: The token and the token as listed (and a signed token's signing secret).
    /// - Throws: ``WorkoutError``: `INVALID_ARGUMENT` for the name or the scopes;
    ///   `PERMISSION_DENIED` when this client itself signed in with a device token (only a
    ///   password's session may make them); `RESOURCE_EXHAUSTED` when the member holds 20.
    public func createDeviceToken(name: String, scopes: [TokenScope], signed: Bool = false) async throws(WorkoutError) -> CreatedDeviceToken {
        var request = Workout_V1_CreateDeviceTokenRequest()
        request.name = name
        request.scopes = scopes.map(\.wire)
        request.signed = signed
        return CreatedDeviceToken(wire: try await call(MethodCatalog.createDeviceToken, request, idempotent: false))
    }

    /// The member's device tokens, newest first; an admin may ask for any member's.
    ///
    /// - Parameter member: The member whose tokens to list (admins only); `nil` for the
    ///   signed-in member's own.
    /// - Returns: The tokens (never the secrets).
    /// - Throws: ``WorkoutError``: `PERMISSION_DENIED` when a member who is not an admin names
    ///   another member; `NOT_FOUND` for an unknown member.
    public func deviceTokens(of member: UUID? = nil) async throws(WorkoutError) -> [DeviceToken] {
        var request = Workout_V1_ListDeviceTokensRequest()
        if let member { request.userID = member.wireBytes }
        return try await call(MethodCatalog.listDeviceTokens, request, idempotent: true).deviceTokens.map(DeviceToken.init(wire:))
    }

    /// Revokes a device token: it stops working at once, on every connection.
    ///
    /// - Parameter id: The token's id, from ``deviceTokens(of:)``: one of the member's own, or
    ///   (for an admin) any member's.
    /// - Returns: Whether this call revoked it; `false` when there is no such token (or it is
    ///   another member's and the caller is not an admin). The call is retried on a new
    ///   connection, so when an answer was lost, `false` can also mean the lost attempt
    ///   revoked it: either way, no such token works afterwards.
    /// - Throws: ``WorkoutError``.
    public func revokeDeviceToken(_ id: UUID) async throws(WorkoutError) -> Bool {
        var request = Workout_V1_RevokeDeviceTokenRequest()
        request.tokenID = id.wireBytes
        return try await call(MethodCatalog.revokeDeviceToken, request, idempotent: true).revoked
    }
}
