import Testing
import WorkoutBenchKit
import WorkoutProtocol

/// Latency percentiles, error counts, and the server's figures from two Stats answers.
@Suite("Statistics")
struct StatisticsTests {
    @Test("Percentiles of 1...10,000 µs are within HdrHistogram's 3 significant digits")
    func percentiles() {
        var recorder = LatencyRecorder()
        for microseconds in 1...10_000 { recorder.record(nanoseconds: UInt64(microseconds) * 1_000) }
        #expect(recorder.count == 10_000)
        for (percentile, expected) in [(50.0, 5_000.0), (90, 9_000), (99, 9_900), (99.9, 9_990)] {
            let value = recorder.microseconds(atPercentile: percentile)
            #expect(abs(value - expected) <= expected * 0.001 + 1, "p\(percentile) = \(value)")
        }
        #expect(abs(recorder.maxMicroseconds - 10_000) <= 10)
        #expect(abs(recorder.meanMicroseconds - 5_000.5) <= 5)
    }

    @Test("An empty recorder reports zeros; values beyond a minute count as a minute; merging adds counts")
    func edges() {
        var recorder = LatencyRecorder()
        #expect(recorder.microseconds(atPercentile: 99) == 0 && recorder.maxMicroseconds == 0 && recorder.meanMicroseconds == 0)
        recorder.record(nanoseconds: 3_600_000_000_000)
        #expect(recorder.maxMicroseconds >= 59_000_000 && recorder.maxMicroseconds <= 61_000_000)
        var other = LatencyRecorder()
        other.record(nanoseconds: 0)
        other.record(nanoseconds: 20_000)
        recorder.add(other)
        #expect(recorder.count == 3)
        recorder.reset()
        #expect(recorder.count == 0)
    }

    @Test("Errors are counted by status name, keeping each status's first message")
    func errors() {
        var tally = ErrorTally()
        tally.record(status: StatusCode.notFound.rawValue, message: "first")
        tally.record(status: StatusCode.notFound.rawValue, count: 2, message: "second")
        tally.record(status: StatusCode.resourceExhausted.rawValue, message: "too many calls in flight")
        tally.record(status: 42, message: "from the future")
        #expect(tally.total == 5)
        #expect(tally.byName == ["NOT_FOUND": 3, "RESOURCE_EXHAUSTED": 1, "UNKNOWN(42)": 1])
        #expect(tally.messagesByName["NOT_FOUND"] == "first")
    }

    @Test("Server figures are the differences between two Stats answers: calls (Stats left out), commits, writes per commit, CPU per call; memory at the end")
    func serverFigures() {
        func stats(calls: [UInt32: UInt64], commits: UInt64, writes: UInt64, cpu: UInt64, anonymous: UInt64) -> Workout_V1_StatsResponse {
            var stats = Workout_V1_StatsResponse()
            stats.methods = calls.map { method, count in
                var entry = Workout_V1_MethodStats()
                entry.method = method
                entry.calls = count
                return entry
            }
            stats.commits = commits
            stats.writeOperations = writes
            stats.processCpuUs = cpu
            stats.rssAnonBytes = anonymous
            stats.rssBytes = anonymous * 2
            return stats
        }
        let before = stats(calls: [101: 64, 307: 1_000, 607: 1], commits: 100, writes: 1_100, cpu: 5_000_000, anonymous: 10 << 20)
        let after = stats(calls: [101: 64, 307: 41_000, 607: 2], commits: 2_100, writes: 41_100, cpu: 9_000_000, anonymous: 12 << 20)
        let figures = ServerFigures(before: before, after: after)
        #expect(figures.calls == 40_000)
        #expect(figures.commits == 2_000 && figures.opsPerCommit == 20)
        #expect(figures.cpuMicroseconds == 4_000_000 && figures.cpuMicrosecondsPerCall == 100)
        #expect(figures.rssAnonBytes == 12 << 20 && figures.rssBytes == 24 << 20)
        let idle = ServerFigures(before: before, after: before)
        #expect(idle.calls == 0 && idle.opsPerCommit == 0 && idle.cpuMicrosecondsPerCall == 0)
    }
}
