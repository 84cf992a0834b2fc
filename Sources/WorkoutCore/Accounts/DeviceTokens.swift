import Foundation
import Storage
package import WorkoutProtocol
import WorkoutRules

/// Device tokens: named, long-lived, revocable credentials with scopes, for the household's
/// automations (Home Assistant, a Shortcut, Health Auto Export, an Android phone's bridge).
///
/// A device token is a session record of its own kind: its SHA-256 is the key (the token is
/// shown once), it never expires, and it carries its name and scopes. It authenticates as a
/// session token does (Auth.Resume, or HTTP's `Authorization: Bearer`); the caller it makes
/// carries its scopes, which the router checks against every method. Logging in evicts and
/// changing a password revokes sessions, never device tokens: they are managed here.
extension HouseholdStore {
    /// The most device tokens one member may hold.
    package static let maxDeviceTokensPerMember = 20

    /// Makes a device token for the caller.
    ///
    /// A signed token (`request.signed`, the import scope alone) also gets a signing secret,
    /// returned this once and kept with the token: the ingest endpoints refuse its posts
    /// without `X-Signature` under that secret, and it may call nothing else.
    ///
    /// - Returns: the token (shown this once), the token as listed, and a signed token's secret.
    /// - Throws: ``DomainError`` `invalidArgument` for the name or scopes (or `signed` with other scopes),
    ///   `permissionDenied` when the caller is itself a device token, `resourceExhausted` past
    ///   ``maxDeviceTokensPerMember``.
    package func createDeviceToken(_ caller: Caller, _ request: Workout_V1_CreateDeviceTokenRequest) async throws -> Workout_V1_CreateDeviceTokenResponse {
        guard caller.scopes == nil else {
            throw DomainError(.permissionDenied, "a device token cannot make device tokens; sign in with your password")
        }
        let name = try Bounds.validText(request.name, field: "name", bytes: 1...64)
        guard !request.scopes.isEmpty else {
            throw DomainError.invalid("scopes", "scopes must name at least one of read, log, import")
        }
        guard request.scopes.allSatisfy({ $0 != .unspecified && Workout_V1_TokenScope.allCases.contains($0) }),
              Set(request.scopes).count == request.scopes.count
        else { throw DomainError.invalid("scopes", "scopes must be read, log or import, each at most once") }
        if request.signed, request.scopes != [.import] {
            throw DomainError.invalid("signed", "a signed token may only post to the ingest endpoints: give it the import scope alone")
        }
        // 40 lowercase hex characters: what a person pastes into the phone app's secret field.
        let signingSecret = request.signed ? Secrets.randomBytes(20).map { String(format: "%02x", $0) }.joined() : ""
        let token = Secrets.sessionToken()
        let tokenID = UUID(bytes: Secrets.randomBytes(16))
        let now = clock.nowMilliseconds()
        let scopes = request.scopes.map { Int32($0.rawValue) }.sorted()
        let info = try await write { [self] txn in
            let user = try authorize(caller, in: txn, now: now)
            let held = try credentials(of: caller.userID, in: txn).filter(\.value.deviceToken).count
            guard held < Self.maxDeviceTokensPerMember else {
                throw DomainError(.resourceExhausted, "you hold \(held) device tokens, the most a member may: revoke one first")
            }
            var session = Workout_Store_V1_StoredSession()
            session.sessionID = tokenID.data
            session.userID = user.userID
            session.deviceName = name
            session.createdAtMs = now
            session.lastUsedAtMs = 0
            session.expiresAtMs = Int64.max
            session.deviceToken = true
            session.tokenName = name
            session.scopes = scopes
            session.signingSecret = signingSecret
            try txn.put(session, forKey: DigestKey(Secrets.digest(token)), in: tables.sessions)
            return deviceTokenInfo(session)
        }
        var response = Workout_V1_CreateDeviceTokenResponse()
        response.token = Data(token)
        response.deviceToken = info
        response.signingSecret = signingSecret
        return response
    }

    /// The caller's device tokens, or (for an admin) another member's, newest first.
    ///
    /// - Throws: ``DomainError`` `permissionDenied` when a member names another member,
    ///   `notFound` for an unknown member.
    package func listDeviceTokens(_ caller: Caller, _ request: Workout_V1_ListDeviceTokensRequest) throws -> [Workout_V1_DeviceTokenInfo] {
        let now = clock.nowMilliseconds()
        let member = try request.userID.isEmpty ? caller.userID : Bounds.recordID(request.userID, field: "user_id")
        return try store.read { txn in
            if member == caller.userID {
                _ = try authorize(caller, in: txn, now: now)
            } else {
                _ = try authorizeAdmin(caller, in: txn, now: now)
                guard try txn.get(member, from: tables.users.table) != nil else { throw DomainError.notFound("no member has that id") }
            }
            // Newest first; tokens made in the same millisecond in the same order every time.
            return try credentials(of: member, in: txn).map(\.value).filter(\.deviceToken)
                .sorted { a, b in
                    a.createdAtMs != b.createdAtMs ? a.createdAtMs > b.createdAtMs : a.sessionID.lexicographicallyPrecedes(b.sessionID)
                }
                .map(deviceTokenInfo)
        }
    }

    /// Revokes one of the caller's device tokens, or (for an admin) any member's: it stops
    /// working at once.
    ///
    /// - Returns: whether a token was revoked (`false`: none has that id).
    package func revokeDeviceToken(_ caller: Caller, _ request: Workout_V1_RevokeDeviceTokenRequest) async throws -> Bool {
        let tokenID = try Bounds.recordID(request.tokenID, field: "token_id")
        let now = clock.nowMilliseconds()
        let owner: UUID? = try store.read { txn in
            let user = try authorize(caller, in: txn, now: now)
            if try txn.get(UserItemKey(user: caller.userID, id: tokenID), fromIndex: tables.sessionsByUser) != nil { return caller.userID }
            let isAdmin = user.role == Int32(Workout_V1_Role.admin.rawValue) || user.role == Int32(Workout_V1_Role.owner.rawValue)
            guard isAdmin else { return nil }
            for (id, _) in try txn.scan(tables.users.table, ScanRequest()).elements {
                if try txn.get(UserItemKey(user: id, id: tokenID), fromIndex: tables.sessionsByUser) != nil { return id }
            }
            return nil
        }
        guard let owner else { return false }
        // Notifying the member's watchers ends the streams the token held (UNAUTHENTICATED).
        return try await write(notifying: owner) { [self] txn in
            if owner == caller.userID {
                _ = try authorize(caller, in: txn, now: now)
            } else {
                _ = try authorizeAdmin(caller, in: txn, now: now)
            }
            guard let digest = try txn.get(UserItemKey(user: owner, id: tokenID), fromIndex: tables.sessionsByUser),
                  let session = try txn.get(digest, from: tables.sessions.table), session.deviceToken
            else { return false }
            return try txn.delete(digest, from: tables.sessions) != nil
        }
    }

    /// A device token as listed.
    func deviceTokenInfo(_ session: Workout_Store_V1_StoredSession) -> Workout_V1_DeviceTokenInfo {
        var info = Workout_V1_DeviceTokenInfo()
        info.tokenID = session.sessionID
        info.name = session.tokenName
        info.scopes = session.scopes.compactMap { Workout_V1_TokenScope(rawValue: Int($0)) }
        info.createdAtMs = session.createdAtMs
        info.lastUsedAtMs = session.lastUsedAtMs
        info.userID = session.userID
        info.signed = !session.signingSecret.isEmpty
        return info
    }
}
