import Foundation
import LMDB
import Storage
package import WorkoutProtocol
import WorkoutRules

/// What admins do: invites, the member list, removing a member, resetting a password.
/// Admins manage members; they never read members' logs.
///
/// Rules: only the owner may invite or remove admins, or reset an admin's password; nobody
/// resets the owner's password through here (the owner does it on the server machine); a
/// member is removed with everything of theirs.
extension HouseholdStore {
    /// Makes an invite code; the code is returned once and only its digest is kept.
    ///
    /// - Throws: ``DomainError`` `resourceExhausted` when ``maxActiveInvites`` are active
    ///   (the oldest inactive ones beyond ``maxInactiveInvites`` are forgotten to make room).
    package func createInvite(_ caller: Caller, _ request: Workout_V1_CreateInviteRequest) async throws -> Workout_V1_CreateInviteResponse {
        guard request.role == .member || request.role == .admin else {
            throw DomainError.invalid("role", "role must be ROLE_MEMBER or ROLE_ADMIN")
        }
        if request.expiresInSeconds != 0 {
            try Bounds.integer(request.expiresInSeconds, field: "expires_in_seconds", range: RecordLimits.inviteLifetimeSeconds.asUInt32)
        }
        let note = try Bounds.validText(request.note, field: "note", bytes: 0...128)
        let now = clock.nowMilliseconds()
        let lifetime = request.expiresInSeconds == 0
            ? configuration.defaultInviteLifetimeMilliseconds : Int64(request.expiresInSeconds) * 1000
        let code = Secrets.inviteCode()
        let digest = DigestKey(Secrets.digest(Array(Secrets.normalizeInviteCode(code).utf8)))
        let inviteID = Data(Secrets.randomBytes(16))
        return try await write { [self] txn in
            let admin = try authorizeAdmin(caller, in: txn, now: now)
            if request.role == .admin, admin.role != Int32(Workout_V1_Role.owner.rawValue) {
                throw DomainError.permissionDenied("only the owner may invite admins")
            }
            try makeRoomForInvite(now: now, in: &txn)
            var invite = Workout_Store_V1_StoredInvite()
            invite.inviteID = inviteID
            invite.role = Int32(request.role.rawValue)
            invite.createdBy = admin.userID
            invite.createdAtMs = now
            invite.expiresAtMs = now + lifetime
            invite.note = note
            invite.codeHint = String(code.suffix(4))
            try txn.put(invite, forKey: digest, in: tables.invites)
            var response = Workout_V1_CreateInviteResponse()
            response.code = code
            response.invite = wireInvite(invite, now: now)
            return response
        }
    }

    /// The household's invites, newest first; with `include_inactive`, used, revoked and
    /// expired ones too.
    package func listInvites(_ caller: Caller, _ request: Workout_V1_ListInvitesRequest) throws -> [Workout_V1_Invite] {
        let now = clock.nowMilliseconds()
        return try store.read { txn in
            _ = try authorizeAdmin(caller, in: txn, now: now)
            return try txn.scan(tables.invites.table, ScanRequest()).elements
                .map { wireInvite($0.value, now: now) }
                .filter { request.includeInactive || $0.state == .active }
                // Newest first; invites made in the same millisecond in the same order every time.
                .sorted { a, b in a.createdAtMs != b.createdAtMs ? a.createdAtMs > b.createdAtMs : a.inviteID.lexicographicallyPrecedes(b.inviteID) }
        }
    }

    /// Revokes an invite so its code no longer works; revoking a revoked or expired one is a
    /// no-op.
    ///
    /// - Throws: ``DomainError`` `notFound` for an unknown id, `failedPrecondition` for an
    ///   invite that was already used.
    package func revokeInvite(_ caller: Caller, _ request: Workout_V1_RevokeInviteRequest) async throws -> Workout_V1_Invite {
        let inviteID = try Bounds.recordID(request.inviteID, field: "invite_id")
        let now = clock.nowMilliseconds()
        return try await write { [self] txn in
            _ = try authorizeAdmin(caller, in: txn, now: now)
            guard let digest = try txn.get(inviteID, fromIndex: tables.invitesByID),
                  var invite = try txn.get(digest, from: tables.invites.table)
            else { throw DomainError.notFound("no invite with that id") }
            guard invite.usedBy.isEmpty else {
                throw DomainError.failedPrecondition("the invite was already used")
            }
            invite.revoked = true
            try txn.put(invite, forKey: digest, in: tables.invites)
            return wireInvite(invite, now: now)
        }
    }

    /// Every member, with roles and session counts (no logs).
    package func listMembers(_ caller: Caller) throws -> [Workout_V1_MemberInfo] {
        let now = clock.nowMilliseconds()
        return try store.read { txn in
            _ = try authorizeAdmin(caller, in: txn, now: now)
            return try txn.scan(tables.users.table, ScanRequest()).elements.map { id, user in
                try memberInfo(user, id: id, now: now, in: txn)
            }
            // Oldest first; members made in the same millisecond in the same order every time.
            .sorted { a, b in a.createdAtMs != b.createdAtMs ? a.createdAtMs < b.createdAtMs : a.userID.lexicographicallyPrecedes(b.userID) }
        }
    }

    /// What ListMembers shows of a member.
    private func memberInfo(
        _ user: Workout_Store_V1_StoredUser, id: UUID, now: Int64, in txn: borrowing some TransactionReading & ~Copyable
    ) throws -> Workout_V1_MemberInfo {
        let live = try sessions(of: id, in: txn).map(\.value).filter { $0.expiresAtMs > now }
        var member = Workout_V1_MemberInfo()
        member.userID = user.userID
        member.email = user.emailKey  // lower-cased, as in the profile
        member.firstName = user.firstName
        member.lastName = user.lastName
        member.role = Workout_V1_Role(rawValue: Int(user.role)) ?? .member
        member.createdAtMs = user.createdAtMs
        member.lastSeenAtMs = live.map(\.lastUsedAtMs).max() ?? 0
        member.activeSessions = UInt32(live.count)
        member.shareWithHousehold = user.shareWithHousehold
        member.child = user.isChild
        member.markedChild = user.markedChild
        return member
    }

    /// Marks a member a child, or lifts the mark (Admin.MarkChild).
    ///
    /// - Returns: The member after the change, and whether the mark was already so.
    /// - Throws: ``DomainError`` `failedPrecondition` for the caller themself, an admin or the
    ///   owner; `notFound` for an id of no member.
    package func markChild(_ caller: Caller, _ request: Workout_V1_MarkChildRequest) async throws -> Workout_V1_MarkChildResponse {
        let target = try Bounds.recordID(request.userID, field: "user_id")
        let now = clock.nowMilliseconds()
        return try await write(notifying: target) { [self] txn in
            _ = try authorizeAdmin(caller, in: txn, now: now)
            guard target != caller.userID else {
                throw DomainError.failedPrecondition("an admin cannot mark themself a child: the household's admins are its adults")
            }
            guard var member = try txn.get(target, from: tables.users.table) else {
                throw DomainError.notFound("no member with that id")
            }
            guard !isAdmin(member) else {
                throw DomainError.failedPrecondition("\(member.firstName) is an admin, and the household's admins are its adults: only a member can be marked a child")
            }
            var response = Workout_V1_MarkChildResponse()
            if member.markedChild == request.child {
                response.unchanged = true
            } else {
                member.markedChild = request.child
                try saveUser(&member, profileChanged: false, now: now, in: &txn)
            }
            response.member = try memberInfo(member, id: target, now: now, in: txn)
            return response
        }
    }

    /// Removes a member and everything of theirs.
    package func removeMember(_ caller: Caller, _ request: Workout_V1_RemoveMemberRequest) async throws {
        let target = try Bounds.recordID(request.userID, field: "user_id")
        let now = clock.nowMilliseconds()
        try await write(notifying: target) { [self] txn in
            let admin = try authorizeAdmin(caller, in: txn, now: now)
            guard target != caller.userID else {
                throw DomainError.failedPrecondition("use DeleteAccount to remove your own account")
            }
            guard let member = try txn.get(target, from: tables.users.table) else {
                throw DomainError.notFound("no member with that id")
            }
            try checkMayManage(admin: admin, member: member)
            try deleteEverything(of: target, in: &txn)
        }
    }

    /// Sets a member's password and revokes all their sessions.
    ///
    /// - Returns: how many sessions were revoked.
    /// - Throws: ``DomainError`` `failedPrecondition` when the caller names themself (they use
    ///   ChangePassword, which checks the current password).
    package func resetPassword(_ caller: Caller, _ request: Workout_V1_ResetPasswordRequest) async throws -> UInt32 {
        let target = try Bounds.recordID(request.userID, field: "user_id")
        _ = try Bounds.password(new: request.newPassword, field: "new_password")
        let now = clock.nowMilliseconds()
        let newHash = try hasher.hash(request.newPassword)
        // Notifying the member's watchers makes their streams end with UNAUTHENTICATED.
        return try await write(notifying: target) { [self] txn in
            let admin = try authorizeAdmin(caller, in: txn, now: now)
            guard var member = try txn.get(target, from: tables.users.table) else {
                throw DomainError.notFound("no member with that id")
            }
            guard target != caller.userID else {
                throw DomainError.failedPrecondition("use ChangePassword to change your own password")
            }
            try checkMayManage(admin: admin, member: member)
            member.password = newHash
            try txn.put(member, forKey: target, in: tables.users)
            return try revokeSessions(of: target, except: nil, in: &txn)
        }
    }

    /// Sets a member's password from the server machine (the `workoutd` admin command):
    /// having the data directory is the trust. Revokes all their sessions.
    package func resetPasswordLocally(email: String, newPassword: String) throws -> UInt32 {
        _ = try Bounds.password(new: newPassword, field: "new_password")
        let newHash = try hasher.hash(newPassword)
        let key = email.lowercased()
        return try store.writeAndWait { [self] txn in
            guard let id = try txn.get(key, fromIndex: tables.usersByEmail),
                  var member = try txn.get(id, from: tables.users.table)
            else { throw DomainError.notFound("no member with email \(email)") }
            member.password = newHash
            try txn.put(member, forKey: id, in: tables.users)
            return try revokeSessions(of: id, except: nil, in: &txn)
        }
    }

    /// Makes an invite code from the server machine (the `workoutd` admin command): having the
    /// data directory is the trust, so no session is needed. Blocks until durable.
    ///
    /// - Parameters:
    ///   - role: `.member` or `.admin`.
    ///   - expiresInSeconds: 0 for the default (7 days), else 60...2,592,000.
    ///   - note: a reminder for whom it is (0...128 bytes).
    /// - Returns: the code (shown once) and the invite.
    /// - Throws: ``DomainError`` `invalidArgument`, or `resourceExhausted` as
    ///   ``createInvite(_:_:)``.
    package func createInviteLocally(role: Workout_V1_Role, expiresInSeconds: UInt32 = 0, note: String = "") throws -> Workout_V1_CreateInviteResponse {
        guard role == .member || role == .admin else {
            throw DomainError.invalid("role", "role must be ROLE_MEMBER or ROLE_ADMIN")
        }
        if expiresInSeconds != 0 {
            try Bounds.integer(expiresInSeconds, field: "expires_in_seconds", range: RecordLimits.inviteLifetimeSeconds.asUInt32)
        }
        try Bounds.text(note, field: "note", bytes: 0...128)
        let now = clock.nowMilliseconds()
        let lifetime = expiresInSeconds == 0 ? configuration.defaultInviteLifetimeMilliseconds : Int64(expiresInSeconds) * 1000
        let code = Secrets.inviteCode()
        let digest = DigestKey(Secrets.digest(Array(Secrets.normalizeInviteCode(code).utf8)))
        var invite = Workout_Store_V1_StoredInvite()
        invite.inviteID = Data(Secrets.randomBytes(16))
        invite.role = Int32(role.rawValue)
        invite.createdAtMs = now
        invite.expiresAtMs = now + lifetime
        invite.note = note
        invite.codeHint = String(code.suffix(4))
        let stored = invite
        return try store.writeAndWait { [self] txn in
            try makeRoomForInvite(now: now, in: &txn)
            try txn.put(stored, forKey: digest, in: tables.invites)
            var response = Workout_V1_CreateInviteResponse()
            response.code = code
            response.invite = wireInvite(stored, now: now)
            return response
        }
    }

    /// Every member, for the local admin command (no session needed: local trust).
    package func listMembersLocally() throws -> [Workout_V1_Profile] {
        try store.read { txn in
            try txn.scan(tables.users.table, ScanRequest()).elements.map { profile(of: $0.value) }
        }
    }

    /// Checks that the caller's session is valid and belongs to an admin or the owner.
    ///
    /// - Throws: ``DomainError`` `unauthenticated` or `permissionDenied`.
    package func requireAdmin(_ caller: Caller) throws {
        let now = clock.nowMilliseconds()
        _ = try store.read { txn in try authorizeAdmin(caller, in: txn, now: now) }
    }

    /// Refuses when `admin` may not manage `member`: nobody manages the owner, and only the
    /// owner manages admins.
    private func checkMayManage(admin: Workout_Store_V1_StoredUser, member: Workout_Store_V1_StoredUser) throws {
        if member.role == Int32(Workout_V1_Role.owner.rawValue) {
            throw DomainError.permissionDenied("nobody manages the owner's account from here")
        }
        if member.role == Int32(Workout_V1_Role.admin.rawValue), admin.role != Int32(Workout_V1_Role.owner.rawValue) {
            throw DomainError.permissionDenied("only the owner manages admins")
        }
    }

    func wireInvite(_ invite: Workout_Store_V1_StoredInvite, now: Int64) -> Workout_V1_Invite {
        var wire = Workout_V1_Invite()
        wire.inviteID = invite.inviteID
        wire.role = Workout_V1_Role(rawValue: Int(invite.role)) ?? .member
        wire.note = invite.note
        wire.createdBy = invite.createdBy
        wire.createdAtMs = invite.createdAtMs
        wire.expiresAtMs = invite.expiresAtMs
        wire.usedAtMs = invite.usedAtMs
        wire.usedBy = invite.usedBy
        wire.state = !invite.usedBy.isEmpty ? .used : invite.revoked ? .revoked : invite.expiresAtMs <= now ? .expired : .active
        return wire
    }
}
