import Foundation
import LMDB
import Storage
package import WorkoutProtocol
import WorkoutRules

/// Creating accounts, logging in and out, sessions.
///
/// Sessions: a login (or registration) makes a 256-bit random token, returned once; the store
/// keeps only its SHA-256. A session expires ``HouseholdStore/Configuration/sessionLifetimeMilliseconds``
/// after the last Login or Resume that used it (sliding on each new connection, not on each
/// call, so reads never write). Changing one's password revokes every other session.
extension HouseholdStore {
    /// What a successful login, registration or resume gives a connection.
    package struct Authenticated: Sendable {
        /// Who the connection now speaks for.
        package var caller: Caller
        /// The token to present with Resume later (login and registration only).
        package var token: [UInt8]?
        /// The session as ListSessions shows it.
        package var session: Workout_V1_SessionInfo
        /// The member's profile.
        package var profile: Workout_V1_Profile
        /// The member's totals.
        package var totals: Workout_V1_Totals
        /// The member's revision.
        package var revision: UInt64
    }

    // MARK: Owner

    /// Creates the household's owner: the first account, made on the server machine itself
    /// (having the data directory is the trust). Blocks until durable.
    ///
    /// - Throws: ``DomainError`` `failedPrecondition` when an owner exists already,
    ///   `invalidArgument` for a bad field, `alreadyExists` for a taken email.
    package func createOwner(
        email: String, password: String, firstName: String, lastName: String = "", timeZone: String
    ) throws -> Workout_V1_Profile {
        var profile = Workout_V1_Profile()
        profile.email = email
        profile.firstName = firstName
        profile.lastName = lastName
        profile.timeZone = timeZone
        let now = clock.nowMilliseconds()
        let candidate = try newUser(profile: profile, role: .owner, now: now)
        _ = try Bounds.password(new: password, field: "password")
        var user = candidate
        user.password = try hasher.hash(password)
        let stored = user
        return try store.writeAndWait { [self] txn in
            let existing = try txn.scan(tables.users.table, ScanRequest())
            if existing.elements.contains(where: { $0.value.role == Int32(Workout_V1_Role.owner.rawValue) }) {
                throw DomainError(.failedPrecondition, "this household has an owner already")
            }
            var user = stored
            try insertUser(&user, now: now, in: &txn)
            return self.profile(of: user)
        }
    }

    // MARK: Registration and login

    /// Joins the household with an invite code: creates the member, uses up the invite, and
    /// opens a session. When the profile states a weight and the request carries
    /// `initial_weight_entry_id`, the weight is also stored as the member's first weight entry,
    /// measured now.
    ///
    /// - Throws: ``DomainError`` `unauthenticated` for an unknown, used, revoked or expired
    ///   code (one answer for all), `alreadyExists` for a taken email, `invalidArgument`,
    ///   `resourceExhausted` when the household is full (``Configuration/maxMembers``).
    package func register(_ request: Workout_V1_RegisterRequest, source: String, agent: String) async throws -> Authenticated {
        let codeText = try Bounds.validText(request.inviteCode, field: "invite_code", bytes: 1...64)
        _ = try Bounds.password(new: request.password, field: "password")
        let deviceName = try Bounds.validText(request.deviceName, field: "device_name", bytes: 0...64)
        let initialWeightID = try request.initialWeightEntryID.isEmpty
            ? nil : Bounds.recordID(request.initialWeightEntryID, field: "initial_weight_entry_id")
        let now = clock.nowMilliseconds()
        var user = try newUser(profile: request.profile, role: .member, now: now, fieldPrefix: "profile.")
        user.password = try hasher.hash(request.password)
        let codeDigest = DigestKey(Secrets.digest(Array(Secrets.normalizeInviteCode(codeText).utf8)))
        let token = Secrets.sessionToken()
        let sessionID = UUID(bytes: Secrets.randomBytes(16))
        let lifetime = configuration.sessionLifetimeMilliseconds
        let prepared = user
        let agentText = String(agent.utf8.prefix(128)) ?? ""
        return try await write { [self] txn in
            guard var invite = try txn.get(codeDigest, from: tables.invites.table),
                  !invite.revoked, invite.usedBy.isEmpty, invite.expiresAtMs > now
            else { throw DomainError(.unauthenticated, "this invite code is not valid (unknown, used, revoked or expired)") }
            try checkRoomForMembers(1, in: txn)
            var user = prepared
            user.role = invite.role == Int32(Workout_V1_Role.admin.rawValue) ? invite.role : Int32(Workout_V1_Role.member.rawValue)
            try insertUser(&user, now: now, in: &txn)
            if let initialWeightID, user.weightKg != 0 {
                try storeInitialWeight(id: initialWeightID, user: &user, now: now, in: &txn)
            }
            invite.usedBy = user.userID
            invite.usedAtMs = now
            try txn.put(invite, forKey: codeDigest, in: tables.invites)
            let session = try openSession(
                user: user, token: token, sessionID: sessionID, deviceName: deviceName, agent: agentText,
                now: now, lifetime: lifetime, in: &txn)
            return authenticated(user: user, session: session, token: token, now: now)
        }
    }

    /// Logs in with email and password, throttling repeated failures.
    ///
    /// An `email` that is not an email at all (outside the bounds every account's email meets)
    /// is INVALID_ARGUMENT before any lookup: no account can have it, so the answer says
    /// nothing about who has an account, and it is not counted as a failed login.
    ///
    /// - Throws: ``DomainError`` `invalidArgument` on `email`, `password` or `device_name`;
    ///   `unauthenticated` ("wrong email or password", whichever was wrong);
    ///   `resourceExhausted` while throttled.
    package func login(_ request: Workout_V1_LoginRequest, source: String, agent: String) async throws -> Authenticated {
        let emailKey = try Bounds.email(request.email, field: "email")
        _ = try Bounds.password(presented: request.password, field: "password")
        let deviceName = try Bounds.validText(request.deviceName, field: "device_name", bytes: 0...64)
        let now = clock.nowMilliseconds()
        try throttle.check(account: emailKey, source: source, now: now)
        let found: Workout_Store_V1_StoredUser? = try store.read { txn in
            guard let id = try txn.get(emailKey, fromIndex: tables.usersByEmail) else { return nil }
            return try txn.get(id, from: tables.users.table)
        }
        // Spend the same scrypt work whether or not the account exists: no timing oracle.
        let verified = hasher.verify(request.password, against: found?.password ?? Self.decoyHash)
        guard let user = found, verified else {
            throttle.recordFailure(account: emailKey, source: source, now: now)
            throw DomainError(.unauthenticated, "wrong email or password")
        }
        throttle.recordSuccess(account: emailKey, source: source)
        let rehashed = hasher.needsRehash(user.password) ? try hasher.hash(request.password) : nil
        let userID = UUID(bytes: user.userID)
        let token = Secrets.sessionToken()
        let sessionID = UUID(bytes: Secrets.randomBytes(16))
        let lifetime = configuration.sessionLifetimeMilliseconds
        let maxSessions = configuration.maxSessionsPerMember
        let agentText = String(agent.utf8.prefix(128)) ?? ""
        return try await write { [self] txn in
            guard var user = try txn.get(userID, from: tables.users.table) else {
                throw DomainError(.unauthenticated, "wrong email or password")
            }
            if let rehashed {
                user.password = rehashed
                try txn.put(user, forKey: userID, in: tables.users)
            }
            try evictSessions(of: userID, keeping: maxSessions - 1, in: &txn)
            let session = try openSession(
                user: user, token: token, sessionID: sessionID, deviceName: deviceName, agent: agentText,
                now: now, lifetime: lifetime, in: &txn)
            return authenticated(user: user, session: session, token: token, now: now)
        }
    }

    /// Binds a new connection to an existing session, sliding its expiry.
    ///
    /// When the store has no room for the slide (a full disk), the session is resumed as it
    /// stands, unslid: a device reopening must not be locked out by what it cannot fix.
    ///
    /// - Throws: ``DomainError`` `unauthenticated` when the token is unknown, revoked or expired.
    package func resume(_ request: Workout_V1_ResumeRequest) async throws -> Authenticated {
        guard request.sessionToken.count == 32 else {
            throw DomainError.invalid("session_token", "session_token must be exactly 32 bytes (got \(request.sessionToken.count))")
        }
        let digest = DigestKey(Secrets.digest(request.sessionToken))
        let now = clock.nowMilliseconds()
        let lifetime = configuration.sessionLifetimeMilliseconds
        do {
            return try await write { [self] txn in
                var (session, user) = try resumable(digest, now: now, in: txn)
                session.lastUsedAtMs = now
                // A device token does not expire; a session slides.
                if !session.deviceToken { session.expiresAtMs = now + lifetime }
                try txn.put(session, forKey: digest, in: tables.sessions)
                return authenticated(user: user, session: session, token: nil, tokenDigest: digest.bytes, now: now)
            }
        } catch where Self.isLackOfSpace(error) {
            let (session, user) = try store.read { txn in try resumable(digest, now: now, in: txn) }
            return authenticated(user: user, session: session, token: nil, tokenDigest: digest.bytes, now: now)
        }
    }

    /// The session of a token's digest and its member, when the session may be resumed at `now`.
    ///
    /// A method rather than a local function: a generic local function captured by the
    /// writer's `@Sendable` closure would capture its transaction type's metatype, which is
    /// not `Sendable`.
    private func resumable<T: TransactionReading & ~Copyable>(
        _ digest: DigestKey, now: Int64, in txn: borrowing T
    ) throws -> (Workout_Store_V1_StoredSession, Workout_Store_V1_StoredUser) {
        guard let session = try txn.get(digest, from: tables.sessions.table), session.expiresAtMs > now,
              let user = try txn.get(UUID(bytes: session.userID), from: tables.users.table)
        else { throw DomainError(.unauthenticated, "the session has expired or was revoked; log in again") }
        return (session, user)
    }

    /// The caller's session, checked: for a connection that wants to know it is still valid.
    package func validate(_ caller: Caller) throws {
        let now = clock.nowMilliseconds()
        _ = try store.read { txn in try authorize(caller, in: txn, now: now) }
    }

    /// Ends the caller's session.
    package func logout(_ caller: Caller) async throws {
        let digest = DigestKey(caller.tokenDigest)
        // Notifying the member's watchers ends the streams of revoked sessions (UNAUTHENTICATED).
        try await write(notifying: caller.userID) { [self] txn in
            _ = try txn.delete(digest, from: tables.sessions)
        }
    }

    /// Changes the caller's password after checking the current one, and revokes every other
    /// session of theirs.
    ///
    /// - Returns: how many sessions were revoked.
    /// - Throws: ``DomainError`` `permissionDenied` for a wrong current password (not
    ///   `unauthenticated`: the session itself is fine).
    package func changePassword(_ caller: Caller, _ request: Workout_V1_ChangePasswordRequest) async throws -> UInt32 {
        _ = try Bounds.password(presented: request.currentPassword, field: "current_password")
        _ = try Bounds.password(new: request.newPassword, field: "new_password")
        let now = clock.nowMilliseconds()
        let user = try store.read { txn in try authorize(caller, in: txn, now: now) }
        guard hasher.verify(request.currentPassword, against: user.password) else {
            throw DomainError(.permissionDenied, "the current password is wrong", field: "current_password")
        }
        let newHash = try hasher.hash(request.newPassword)
        return try await write(notifying: caller.userID) { [self] txn in
            var user = try authorize(caller, in: txn, now: now)
            user.password = newHash
            try txn.put(user, forKey: caller.userID, in: tables.users)
            return try revokeSessions(of: caller.userID, except: caller.sessionID, in: &txn)
        }
    }

    /// The caller's sessions, most recently used first.
    package func listSessions(_ caller: Caller) throws -> [Workout_V1_SessionInfo] {
        let now = clock.nowMilliseconds()
        return try store.read { txn in
            _ = try authorize(caller, in: txn, now: now)
            return try sessions(of: caller.userID, in: txn)
                .filter { $0.value.expiresAtMs > now }
                .map { sessionInfo($0.value, current: UUID(bytes: $0.value.sessionID) == caller.sessionID) }
                // Most recently used first; sessions used in the same millisecond in the same
                // order every time.
                .sorted { a, b in
                    a.lastUsedAtMs != b.lastUsedAtMs ? a.lastUsedAtMs > b.lastUsedAtMs : a.sessionID.lexicographicallyPrecedes(b.sessionID)
                }
        }
    }

    /// Revokes one of the caller's sessions by its id.
    ///
    /// - Throws: ``DomainError`` `notFound` when the caller has no session with that id.
    package func revokeSession(_ caller: Caller, _ request: Workout_V1_RevokeSessionRequest) async throws {
        let sessionID = try Bounds.recordID(request.sessionID, field: "session_id")
        let now = clock.nowMilliseconds()
        try await write(notifying: caller.userID) { [self] txn in
            _ = try authorize(caller, in: txn, now: now)
            guard let digest = try txn.get(UserItemKey(user: caller.userID, id: sessionID), fromIndex: tables.sessionsByUser) else {
                throw DomainError.notFound("you have no session with that id")
            }
            try txn.delete(digest, from: tables.sessions)
        }
    }

    // MARK: Helpers

    /// Stores a new member's profile weight as their first weight entry, measured `now` in
    /// their zone, and marks it as the entry that set the profile's weight.
    func storeInitialWeight(id: UUID, user: inout Workout_Store_V1_StoredUser, now: Int64, in txn: inout WriteTransaction) throws {
        let zone = try TimeZoneCatalog.zone(named: user.timeZone, field: "profile.time_zone")
        var entry = Workout_V1_WeightEntry()
        entry.id = id.data
        entry.weightKg = user.weightKg
        entry.measuredAtMs = now
        entry.timeZone = user.timeZone
        entry.localDay = LocalDay.containing(instant: now, in: zone).wire
        entry.createdAtMs = now
        entry.revision = try fileRecordChange(.weight, id: id, previousRevision: nil, user: &user, now: now, in: &txn)
        try txn.put(entry, forKey: UserRecordKey(user: UUID(bytes: user.userID), id: id), in: tables.weights)
        user.weightMeasuredAtMs = now
        user.weightEntryID = entry.id
        try saveUser(&user, profileChanged: false, now: now, in: &txn)
    }

    /// A scrypt hash of nothing anyone knows, for timing-safe failed logins.
    static let decoyHash: Workout_Store_V1_PasswordHash = {
        (try? PasswordHasher(parameters: .standard).hash(UUID().uuidString)) ?? Workout_Store_V1_PasswordHash()
    }()

    /// A stored user from a requested profile, validated; not yet stored.
    func newUser(profile: Workout_V1_Profile, role: Workout_V1_Role, now: Int64, fieldPrefix: String = "") throws -> Workout_Store_V1_StoredUser {
        var user = Workout_Store_V1_StoredUser()
        user.userID = Data(Secrets.randomBytes(16))
        user.emailKey = try Bounds.email(profile.email, field: fieldPrefix + "email")
        user.email = user.emailKey
        user.firstName = try Bounds.validText(profile.firstName, field: fieldPrefix + "first_name", bytes: 1...64)
        user.lastName = try Bounds.validText(profile.lastName, field: fieldPrefix + "last_name", bytes: 0...64)
        user.displayName = try Bounds.validText(profile.displayName, field: fieldPrefix + "display_name", bytes: 0...64)
        user.age = try Bounds.validInteger(profile.age, field: fieldPrefix + "age", range: RecordLimits.profileAge.asUInt32, allowZeroAsUnset: true)
        user.heightCm = try Bounds.validNumber(profile.heightCm, field: fieldPrefix + "height_cm", range: 50...272, allowZeroAsUnset: true)
        user.weightKg = try Bounds.validNumber(profile.weightKg, field: fieldPrefix + "weight_kg", range: 10...500, allowZeroAsUnset: true)
        try Bounds.known(profile.fitnessGoal, field: fieldPrefix + "fitness_goal", allowUnspecified: true)
        user.fitnessGoal = Int32(profile.fitnessGoal.rawValue)
        // Required: every local day (totals, streaks, achievements) is counted in it.
        _ = try TimeZoneCatalog.zone(named: profile.timeZone, field: fieldPrefix + "time_zone")
        user.timeZone = profile.timeZone
        user.shareWithHousehold = profile.shareWithHousehold
        user.role = Int32(role.rawValue)
        user.createdAtMs = now
        return user
    }

    /// Stores a new user, refusing a taken email.
    func insertUser(_ user: inout Workout_Store_V1_StoredUser, now: Int64, in txn: inout WriteTransaction) throws {
        if try txn.get(user.emailKey, fromIndex: tables.usersByEmail) != nil {
            throw DomainError.alreadyExists("an account with this email exists already", field: "email")
        }
        try saveUser(&user, profileChanged: true, now: now, in: &txn)
    }

    func openSession(
        user: Workout_Store_V1_StoredUser, token: [UInt8], sessionID: UUID, deviceName: String, agent: String,
        now: Int64, lifetime: Int64, in txn: inout WriteTransaction
    ) throws -> Workout_Store_V1_StoredSession {
        var session = Workout_Store_V1_StoredSession()
        session.sessionID = sessionID.data
        session.userID = user.userID
        session.deviceName = deviceName
        session.clientAgent = agent
        session.createdAtMs = now
        session.lastUsedAtMs = now
        session.expiresAtMs = now + lifetime
        try txn.put(session, forKey: DigestKey(Secrets.digest(token)), in: tables.sessions)
        return session
    }

    /// What a login, registration or resume answers.
    ///
    /// - Parameters:
    ///   - token: The new session's token (login and registration), returned once; `nil` for a resume.
    ///   - tokenDigest: The session's key when `token` is `nil` (a resume knows only the digest);
    ///     without it the caller could never be authorized again.
    func authenticated(
        user: Workout_Store_V1_StoredUser, session: Workout_Store_V1_StoredSession, token: [UInt8]?,
        tokenDigest: [UInt8]? = nil, now: Int64
    ) -> Authenticated {
        let userID = UUID(bytes: user.userID)
        let digest = token.map { Secrets.digest($0) } ?? tokenDigest ?? []
        return Authenticated(
            caller: Caller(
                userID: userID, sessionID: UUID(bytes: session.sessionID), tokenDigest: digest,
                scopes: session.deviceToken ? Set(session.scopes.compactMap { Workout_V1_TokenScope(rawValue: Int($0)) }) : nil,
                signingSecret: session.deviceToken && !session.signingSecret.isEmpty ? Array(session.signingSecret.utf8) : nil,
                isAdmin: isAdmin(user)),
            token: token, session: sessionInfo(session, current: true),
            profile: profile(of: user), totals: totals(of: user, now: now), revision: user.revision)
    }

    func sessionInfo(_ session: Workout_Store_V1_StoredSession, current: Bool) -> Workout_V1_SessionInfo {
        var info = Workout_V1_SessionInfo()
        info.sessionID = session.sessionID
        info.deviceName = session.deviceName
        info.clientAgent = session.clientAgent
        info.createdAtMs = session.createdAtMs
        info.lastUsedAtMs = session.lastUsedAtMs
        info.expiresAtMs = session.expiresAtMs
        info.current = current
        return info
    }

    /// Every session of `user` made by Login or Register (device tokens are not sessions to
    /// list, evict or revoke with them), with its key.
    func sessions(of user: UUID, in txn: borrowing some TransactionReading & ~Copyable) throws -> [(key: DigestKey, value: Workout_Store_V1_StoredSession)] {
        try credentials(of: user, in: txn).filter { !$0.value.deviceToken }
    }

    /// Every session and device token of `user`, with its key.
    func credentials(of user: UUID, in txn: borrowing some TransactionReading & ~Copyable) throws -> [(key: DigestKey, value: Workout_Store_V1_StoredSession)] {
        try txn.scanRecords(tables.sessionsByUser, in: tables.sessions, ScanRequest(range: .prefix(user.orderedKey))).elements
    }

    /// Revokes every session of `user` but `kept`.
    ///
    /// - Returns: how many were revoked.
    func revokeSessions(of user: UUID, except kept: UUID?, in txn: inout WriteTransaction) throws -> UInt32 {
        var revoked: UInt32 = 0
        for (key, session) in try sessions(of: user, in: txn) where UUID(bytes: session.sessionID) != kept {
            try txn.delete(key, from: tables.sessions)
            revoked += 1
        }
        return revoked
    }

    /// Keeps at most `limit` sessions of `user`, removing the least recently used (and every
    /// expired one).
    func evictSessions(of user: UUID, keeping limit: Int, in txn: inout WriteTransaction) throws {
        let now = clock.nowMilliseconds()
        // Most recently used first; of sessions used in the same millisecond, always the same kept.
        let all = try sessions(of: user, in: txn).sorted { a, b in
            a.value.lastUsedAtMs != b.value.lastUsedAtMs
                ? a.value.lastUsedAtMs > b.value.lastUsedAtMs : a.value.sessionID.lexicographicallyPrecedes(b.value.sessionID)
        }
        for (position, entry) in all.enumerated() where position >= max(limit, 0) || entry.value.expiresAtMs <= now {
            try txn.delete(entry.key, from: tables.sessions)
        }
    }
}

extension TransactionReading where Self: ~Copyable {
    /// The primary key an index entry points at, found by the entry's exact index key.
    func get<IK, K, V>(_ indexKey: IK, fromIndex index: SecondaryIndex<IK, K, V>) throws -> K? {
        try withValue(in: index.database, forKey: indexKey.orderedKey.bytes) { try K(decodingKey: $0) }
    }
}
