import WorkoutProtocol

extension WorkoutClient {
    /// Asks whether the server is serving, and what it is. Needs no session.
    ///
    /// - Parameter timeout: The call's deadline (`nil`: the configuration's).
    /// - Returns: The server's software, version, clock and uptime.
    /// - Throws: ``WorkoutError``; `UNAVAILABLE` when the server cannot be reached.
    public func health(timeout: Duration? = nil) async throws(WorkoutError) -> ServerHealth {
        ServerHealth(wire: try await call(MethodCatalog.health, Workout_V1_HealthRequest(), idempotent: true, timeout: timeout))
    }
}
