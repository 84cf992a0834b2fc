import WorkoutProtocol

extension WorkoutClient {
    /// The household's members with the figures each chose to share (level, points,
    /// streaks, workouts), the caller included.
    ///
    /// - Returns: The members.
    /// - Throws: ``WorkoutError``.
    public func household() async throws(WorkoutError) -> [HouseholdMember] {
        try await call(MethodCatalog.householdView, Workout_V1_HouseholdViewRequest(), idempotent: true)
            .members.map(HouseholdMember.init(wire:))
    }
}
