public import Foundation
import WorkoutProtocol
import WorkoutRules

// Admin-only calls: members whose role is not admin or owner get PERMISSION_DENIED.

extension WorkoutClient {
    /// Creates a single-use invite code for a new member.
    ///
    /// - Parameters:
    ///   - role: The role the new member gets (member or admin).
    ///   - expiresIn: How long the code is valid, from a minute to 30 days (the server's default
    ///     when `nil`).
    ///   - note: Who it is for, for the admin's list.
    /// - Returns: The code (shown once) and the invite.
    /// - Throws: ``WorkoutError``: `PERMISSION_DENIED`; `INVALID_ARGUMENT`, before anything is
    ///   sent, for a lifetime outside a minute to 30 days.
    public func createInvite(role: Role = .member, expiresIn: Duration? = nil, note: String = "") async throws(WorkoutError) -> CreatedInvite {
        var request = Workout_V1_CreateInviteRequest()
        request.role = role.wire
        if let expiresIn {
            // Whole seconds, rounded up: a lifetime is never made shorter than asked.
            let (seconds, attoseconds) = expiresIn.components
            let whole = seconds.addingReportingOverflow(attoseconds > 0 ? 1 : 0)
            request.expiresInSeconds = try WireCount.check(
                whole.overflow ? .max : Int(truncatingIfNeeded: whole.partialValue), field: "expiresIn", wireField: "expires_in_seconds",
                range: RecordLimits.inviteLifetimeSeconds, unit: "seconds")
        }
        request.note = note
        return CreatedInvite(wire: try await call(MethodCatalog.createInvite, request, idempotent: false))
    }

    /// The household's invites.
    ///
    /// - Parameter includeInactive: Also used, revoked and expired ones.
    /// - Returns: The invites.
    /// - Throws: ``WorkoutError``: `PERMISSION_DENIED`.
    public func invites(includeInactive: Bool = false) async throws(WorkoutError) -> [Invite] {
        var request = Workout_V1_ListInvitesRequest()
        request.includeInactive = includeInactive
        return try await call(MethodCatalog.listInvites, request, idempotent: true).invites.map(Invite.init(wire:))
    }

    /// Revokes an unused invite.
    ///
    /// - Parameter id: The invite's id.
    /// - Returns: The invite after.
    /// - Throws: ``WorkoutError``: `NOT_FOUND`, `FAILED_PRECONDITION` when already used.
    public func revokeInvite(_ id: UUID) async throws(WorkoutError) -> Invite {
        var request = Workout_V1_RevokeInviteRequest()
        request.inviteID = id.wireBytes
        return Invite(wire: try await call(MethodCatalog.revokeInvite, request, idempotent: true).invite)
    }

    /// The household's accounts, for administration.
    ///
    /// - Returns: The members.
    /// - Throws: ``WorkoutError``: `PERMISSION_DENIED`.
    public func members() async throws(WorkoutError) -> [MemberInfo] {
        try await call(MethodCatalog.listMembers, Workout_V1_ListMembersRequest(), idempotent: true).members.map(MemberInfo.init(wire:))
    }

    /// Removes a member and all their records.
    ///
    /// - Parameter id: The member's user id.
    /// - Throws: ``WorkoutError``: `NOT_FOUND`, `PERMISSION_DENIED`, `FAILED_PRECONDITION`.
    public func removeMember(_ id: UUID) async throws(WorkoutError) {
        var request = Workout_V1_RemoveMemberRequest()
        request.userID = id.wireBytes
        _ = try await call(MethodCatalog.removeMember, request, idempotent: false)
    }

    /// Sets a member's password (they forgot it); all their sessions end.
    ///
    /// - Parameters:
    ///   - id: The member's user id.
    ///   - newPassword: The new password.
    /// - Returns: How many sessions ended.
    /// - Throws: ``WorkoutError``: `NOT_FOUND`, `PERMISSION_DENIED`, `INVALID_ARGUMENT`.
    public func resetPassword(of id: UUID, to newPassword: String) async throws(WorkoutError) -> Int {
        var request = Workout_V1_ResetPasswordRequest()
        request.userID = id.wireBytes
        request.newPassword = newPassword
        try requireConfidentialTransport(for: "ResetPassword")
        return Int(try await call(MethodCatalog.resetPassword, request, idempotent: false, carriesPassword: true).revokedSessions)
    }

    /// Marks a member a child, or lifts the mark: the household's rules for children (never
    /// ranked by calories or weight, no energy target below maintenance, a target weight only
    /// from an admin, goals an admin may set) apply to a marked member whatever age they state.
    /// A member whose stated age is under 18 stays a child without the mark.
    ///
    /// - Parameters:
    ///   - id: The member's user id.
    ///   - child: `true` to mark them, `false` to lift the mark.
    /// - Returns: The member after the change.
    /// - Throws: ``WorkoutError``: `FAILED_PRECONDITION` for oneself, an admin or the owner
    ///   (the household's admins are its adults), `NOT_FOUND`, `PERMISSION_DENIED`.
    @discardableResult
    public func markChild(_ id: UUID, _ child: Bool) async throws(WorkoutError) -> MemberInfo {
        var request = Workout_V1_MarkChildRequest()
        request.userID = id.wireBytes
        request.child = child
        return MemberInfo(wire: try await call(MethodCatalog.markChild, request, idempotent: true).member)
    }

    /// The server's figures: connections, calls and latencies by method, store size, commits.
    ///
    /// - Returns: The statistics.
    /// - Throws: ``WorkoutError``: `PERMISSION_DENIED`.
    public func stats() async throws(WorkoutError) -> ServerStats {
        ServerStats(wire: try await call(MethodCatalog.stats, Workout_V1_StatsRequest(), idempotent: true))
    }
}
