package import WorkoutProtocol

/// What the server's own Admin.Stats says about the measured window: the difference between
/// the answer asked for at its start and the one asked for at its end.
package struct ServerFigures: Sendable, Hashable, Codable {
    /// Calls the server answered in between (Admin.Stats itself left out).
    package var calls: UInt64
    /// Write transactions committed in between.
    package var commits: UInt64
    /// Write operations in those commits, per commit (0 without commits).
    package var opsPerCommit: Double
    /// CPU time the server process used in between, µs (user + system).
    package var cpuMicroseconds: UInt64
    /// That CPU time per call answered, µs (0 without calls).
    package var cpuMicrosecondsPerCall: Double
    /// Anonymous resident memory at the end, bytes.
    package var rssAnonBytes: UInt64
    /// All resident memory at the end (mapped store pages included), bytes.
    package var rssBytes: UInt64
    /// Connections open at the end (the bench's own included).
    package var openConnections: UInt32
    /// Size of the store file at the end, bytes.
    package var storeSizeBytes: UInt64

    /// The figures between two Stats answers, `before` asked first.
    package init(before: Workout_V1_StatsResponse, after: Workout_V1_StatsResponse) {
        func calls(_ stats: Workout_V1_StatsResponse) -> UInt64 {
            stats.methods.filter { $0.method != MethodCatalog.stats.number }.reduce(0) { $0 + $1.calls }
        }
        self.calls = calls(after) &- calls(before)
        commits = after.commits &- before.commits
        let operations = after.writeOperations &- before.writeOperations
        opsPerCommit = commits > 0 ? Double(operations) / Double(commits) : 0
        cpuMicroseconds = after.processCpuUs &- before.processCpuUs
        cpuMicrosecondsPerCall = self.calls > 0 ? Double(cpuMicroseconds) / Double(self.calls) : 0
        rssAnonBytes = after.rssAnonBytes
        rssBytes = after.rssBytes
        openConnections = after.openConnections
        storeSizeBytes = after.storeSizeBytes
    }
}
