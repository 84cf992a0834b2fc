// PageLimits: how many items one page of a paged query holds at most (PROTOCOL.md section 20),
// in one place for the server, which enforces them, and the client, which refuses a page size
// outside them before sending (0 on the wire means the server's default page size).

/// The largest page of each paged query.
package enum PageLimits {
    /// Workouts in one page of `WorkoutHistory` (default 20).
    package static let workoutHistory = 100
    /// Weigh-ins in one page of `WeightProgress` (default 500).
    package static let weightProgress = 1_000
    /// Changes in one page of `Changes` (default 100).
    package static let changes = 500
}
