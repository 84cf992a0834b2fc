package import WorkoutProtocol

/// Cuts a soak into minutes: counts the calls, errors, rounds and logins of the current minute
/// and records their latencies in an HdrHistogram that is reset each minute; at a minute's end
/// the counts wait (by minute number) for the Admin.Stats answer asked at that moment, and the
/// two together make a ``SoakMinute``.
///
/// Bounded: at most `capacity` minutes are kept; the histogram is one, reused.
package struct SoakSampler: Sendable {
    /// What the bench counted in a closed minute, waiting for the server's Stats.
    struct Counts: Sendable {
        var calls: UInt64
        var errors: UInt64
        var rounds: UInt64
        var logins: UInt64
        var watchEvents: UInt64
        var p50Microseconds: Double
        var p99Microseconds: Double
        var maxMicroseconds: Double
    }

    /// The most minutes kept.
    package let capacity: Int
    private var latency = LatencyRecorder()
    private var calls: UInt64 = 0
    private var errors: UInt64 = 0
    private var rounds: UInt64 = 0
    private var logins: UInt64 = 0
    private var closedMinutes = 0
    private var waiting: [Int: Counts] = [:]
    private var completed: [SoakMinute] = []
    /// The server's uptime at each completed minute's Stats, ms (for its CPU use).
    private var uptimes: [Int: UInt64] = [:]
    /// The server's CPU time and uptime when the soak began (the Stats of the window's start).
    private var baseline: (cpuMicroseconds: UInt64, uptimeMilliseconds: UInt64)?
    /// Minutes closed whose Stats has not come.
    package var minutesWaiting: Int { waiting.count }

    /// A sampler for at most `capacity` minutes (1 or more).
    package init(capacity: Int) {
        precondition(capacity >= 1, "a soak has at least one minute")
        self.capacity = capacity
        completed.reserveCapacity(capacity)
    }

    /// Counts a call of the current minute that took `nanoseconds`.
    @inline(__always)
    package mutating func record(nanoseconds: UInt64, failed: Bool) {
        latency.record(nanoseconds: nanoseconds)
        calls += 1
        if failed { errors += 1 }
    }

    /// Counts a household round completed in the current minute.
    package mutating func countRound() { rounds += 1 }

    /// Counts a full login answered in the current minute.
    package mutating func countLogin() { logins += 1 }

    /// Sets the server's figures the first minute's CPU use is measured from.
    package mutating func setBaseline(_ stats: Workout_V1_StatsResponse) {
        baseline = (stats.processCpuUs, stats.uptimeMs)
    }

    /// Ends the current minute: its counts wait for the server's Stats, and a new minute starts.
    ///
    /// - Parameter watchEvents: Stream messages the Watch streams received in the minute.
    /// - Returns: The closed minute's number (from 1), to hand back with its Stats; `nil` when
    ///   `capacity` minutes are already closed (the minute is dropped).
    package mutating func closeMinute(watchEvents: UInt64) -> Int? {
        defer {
            latency.reset()
            calls = 0
            errors = 0
            rounds = 0
            logins = 0
        }
        guard closedMinutes < capacity else { return nil }
        closedMinutes += 1
        waiting[closedMinutes] = Counts(
            calls: calls, errors: errors, rounds: rounds, logins: logins, watchEvents: watchEvents,
            p50Microseconds: latency.microseconds(atPercentile: 50), p99Microseconds: latency.microseconds(atPercentile: 99),
            maxMicroseconds: latency.maxMicroseconds)
        return closedMinutes
    }

    /// Completes minute `minute` with the Stats asked at its end; an unknown minute is ignored.
    package mutating func complete(minute: Int, stats: Workout_V1_StatsResponse) {
        guard let counts = waiting.removeValue(forKey: minute) else { return }
        completed.append(SoakMinute(
            minute: minute, calls: counts.calls, errors: counts.errors, rounds: counts.rounds, logins: counts.logins,
            watchEvents: counts.watchEvents, p50Microseconds: counts.p50Microseconds, p99Microseconds: counts.p99Microseconds,
            maxMicroseconds: counts.maxMicroseconds, rssAnonBytes: stats.rssAnonBytes, rssBytes: stats.rssBytes,
            openDescriptors: stats.openDescriptors, openConnections: stats.openConnections, storeSizeBytes: stats.storeSizeBytes,
            storeUsedBytes: stats.storeUsedBytes, serverCPUMicroseconds: stats.processCpuUs, serverCPUPercent: 0,
            shedConnections: stats.shedConnections, incompleteFrameBytes: stats.incompleteFrameBytes))
        uptimes[minute] = stats.uptimeMs
    }

    /// The completed minutes in order, each with its CPU use over the minute (from the previous
    /// minute's figures, or the baseline for the first).
    package var minutes: [SoakMinute] {
        var result = completed.sorted { $0.minute < $1.minute }
        var previous = baseline
        for index in result.indices {
            let cpu = result[index].serverCPUMicroseconds
            let uptime = uptimes[result[index].minute] ?? 0
            if let previous, uptime > previous.uptimeMilliseconds, cpu >= previous.cpuMicroseconds {
                let wall = Double(uptime - previous.uptimeMilliseconds) * 1_000
                result[index].serverCPUPercent = (Double(cpu - previous.cpuMicroseconds) / wall * 10_000).rounded() / 100
            }
            previous = (cpu, uptime)
        }
        return result
    }
}
