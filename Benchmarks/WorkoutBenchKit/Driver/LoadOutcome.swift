package import WorkoutProtocol

/// What a run measured.
package struct LoadOutcome: Sendable {
    /// Latency of every call answered in the measured window.
    package var latency = LatencyRecorder()
    /// Calls answered in the window (failed ones included).
    package var ops: UInt64 = 0
    /// The window's length, seconds.
    package var windowSeconds: Double = 0
    /// Failed calls in the window, by status.
    package var errors = ErrorTally()
    /// Scripts completed in the window (`household`: app openings; `connect`: connections).
    package var cycles: UInt64 = 0
    /// Calls answered in the window before the server's Stats for its start arrived: the
    /// server may have counted them before it took its figures.
    package var opsBeforeStatsBefore: UInt64 = 0
    /// Admin.Stats at the window's start and end, when asked.
    package var statsBefore: Workout_V1_StatsResponse?
    /// See ``statsBefore``.
    package var statsAfter: Workout_V1_StatsResponse?
    /// The bench's own CPU time during the window, µs.
    package var clientCPUMicroseconds: UInt64 = 0
    /// Meals the preloaded day asked before the run held, when checked.
    package var probedMeals: Int?
    /// Seconds spent connecting and logging in.
    package var setupSeconds: Double = 0
    /// The server's limit on calls in flight per connection (ServerHello).
    package var serverMaxCallsInFlight: UInt32 = 0
    /// A soak's minutes, in order (`--soak`), else `nil`.
    package var soakMinutes: [SoakMinute]?

    package init() {}

    /// The server's figures for the window, when Stats was asked.
    package var serverFigures: ServerFigures? {
        guard let statsBefore, let statsAfter else { return nil }
        return ServerFigures(before: statsBefore, after: statsAfter)
    }
}

/// One second of a run, for the progress line.
package struct ProgressSample: Sendable {
    /// The phase: "setup", "warm-up", "measure", "finish".
    package var phase: String
    /// Seconds since the load started.
    package var elapsedSeconds: Double
    /// Calls answered per second in the last interval.
    package var opsPerSecond: Double
    /// Their 99th percentile latency, µs.
    package var p99Microseconds: Double
    /// Calls that failed in the last interval.
    package var errors: UInt64
    /// A note (setup progress), or empty.
    package var note: String

    /// A sample; see each property.
    package init(phase: String, elapsedSeconds: Double, opsPerSecond: Double, p99Microseconds: Double, errors: UInt64, note: String) {
        self.phase = phase
        self.elapsedSeconds = elapsedSeconds
        self.opsPerSecond = opsPerSecond
        self.p99Microseconds = p99Microseconds
        self.errors = errors
        self.note = note
    }
}
