import WorkoutProtocol

extension WorkoutClient {
    /// The member's profile, totals and current revision.
    ///
    /// - Returns: The snapshot.
    /// - Throws: ``WorkoutError``: `UNAUTHENTICATED` without a valid session.
    public func profile() async throws(WorkoutError) -> ProfileSnapshot {
        ProfileSnapshot(wire: try await call(MethodCatalog.getProfile, Workout_V1_GetProfileRequest(), idempotent: true))
    }

    /// Changes the fields that `update` sets.
    ///
    /// - Parameter update: The changes (and, optionally, the revision they expect).
    /// - Returns: The profile after the change.
    /// - Throws: ``WorkoutError``: `INVALID_ARGUMENT` naming the field; `ABORTED` when
    ///   the expected revision no longer holds; `ALREADY_EXISTS` for a taken email.
    public func updateProfile(_ update: ProfileUpdate) async throws(WorkoutError) -> ProfileSnapshot {
        ProfileSnapshot(wire: try await call(MethodCatalog.updateProfile, try update.wire(), idempotent: update.expectedRevision == nil))
    }

    /// Deletes the member's account and every record of theirs, for good.
    ///
    /// - Parameter password: Their password, as confirmation.
    /// - Throws: ``WorkoutError``: `PERMISSION_DENIED` for a wrong password (the session
    ///   itself is fine); `FAILED_PRECONDITION` when the member is the household's owner and
    ///   no other admin would remain.
    public func deleteAccount(password: String) async throws(WorkoutError) {
        var request = Workout_V1_DeleteAccountRequest()
        request.password = password
        try requireConfidentialTransport(for: "DeleteAccount")
        _ = try await call(MethodCatalog.deleteAccount, request, idempotent: false, carriesPassword: true)
        forgetSession()
    }
}
