import Testing
import WorkoutBenchKit
import WorkoutProtocol

/// The minute sampler's arithmetic: counts and percentiles per minute, reset between minutes,
/// matched with the Stats answer of the minute, the server's CPU use, and its bound.
@Suite("Soak sampler")
struct SoakSamplerTests {
    static func stats(cpuMicroseconds: UInt64, uptimeMilliseconds: UInt64, rssAnon: UInt64 = 0, descriptors: UInt32 = 0) -> Workout_V1_StatsResponse {
        var stats = Workout_V1_StatsResponse()
        stats.processCpuUs = cpuMicroseconds
        stats.uptimeMs = uptimeMilliseconds
        stats.rssAnonBytes = rssAnon
        stats.rssBytes = rssAnon * 2
        stats.openDescriptors = descriptors
        stats.openConnections = 40
        stats.storeSizeBytes = 64 << 20
        stats.storeUsedBytes = 20 << 20
        stats.shedConnections = 1
        stats.incompleteFrameBytes = 12
        return stats
    }

    @Test("A minute carries its own calls, errors, rounds, logins, Watch events and percentiles, and the server's figures")
    func oneMinute() throws {
        var sampler = SoakSampler(capacity: 60)
        sampler.setBaseline(Self.stats(cpuMicroseconds: 1_000_000, uptimeMilliseconds: 10_000))
        for microseconds in 1...1_000 { sampler.record(nanoseconds: UInt64(microseconds) * 1_000, failed: microseconds % 100 == 0) }
        for _ in 0..<7 { sampler.countRound() }
        sampler.countLogin()
        let closed = sampler.closeMinute(watchEvents: 21)
        let number = try #require(closed)
        #expect(number == 1)
        #expect(sampler.minutesWaiting == 1)
        sampler.complete(minute: 1, stats: Self.stats(cpuMicroseconds: 31_000_000, uptimeMilliseconds: 70_000, rssAnon: 40 << 20, descriptors: 52))
        #expect(sampler.minutesWaiting == 0)
        let minute = try #require(sampler.minutes.first)
        #expect(minute.minute == 1 && minute.calls == 1_000 && minute.errors == 10)
        #expect(minute.rounds == 7 && minute.logins == 1 && minute.watchEvents == 21)
        #expect(abs(minute.p50Microseconds - 500) <= 1 && abs(minute.p99Microseconds - 990) <= 1)
        #expect(minute.rssAnonBytes == 40 << 20 && minute.rssBytes == 80 << 20 && minute.openDescriptors == 52)
        #expect(minute.storeSizeBytes == 64 << 20 && minute.storeUsedBytes == 20 << 20)
        #expect(minute.shedConnections == 1 && minute.incompleteFrameBytes == 12 && minute.openConnections == 40)
        // 30 s of CPU over 60 s of uptime: half a core.
        #expect(minute.serverCPUPercent == 50)
    }

    @Test("Each minute starts from zero: the second minute's p99 knows nothing of the first's")
    func resetEachMinute() throws {
        var sampler = SoakSampler(capacity: 2)
        for _ in 0..<100 { sampler.record(nanoseconds: 50_000_000, failed: true) }
        _ = sampler.closeMinute(watchEvents: 0)
        for _ in 0..<100 { sampler.record(nanoseconds: 1_000_000, failed: false) }
        _ = sampler.closeMinute(watchEvents: 0)
        sampler.complete(minute: 1, stats: Self.stats(cpuMicroseconds: 0, uptimeMilliseconds: 60_000))
        sampler.complete(minute: 2, stats: Self.stats(cpuMicroseconds: 0, uptimeMilliseconds: 120_000))
        let minutes = sampler.minutes
        #expect(minutes.map(\.calls) == [100, 100])
        #expect(minutes.map(\.errors) == [100, 0])
        #expect(abs(minutes[1].p99Microseconds - 1_000) <= 1)
    }

    @Test("Stats answers matched by minute number, in any order; the CPU use of each is against the minute before it")
    func outOfOrder() throws {
        var sampler = SoakSampler(capacity: 3)
        sampler.setBaseline(Self.stats(cpuMicroseconds: 0, uptimeMilliseconds: 0))
        for _ in 1...3 { _ = sampler.closeMinute(watchEvents: 0) }
        sampler.complete(minute: 3, stats: Self.stats(cpuMicroseconds: 90_000_000, uptimeMilliseconds: 180_000))
        sampler.complete(minute: 1, stats: Self.stats(cpuMicroseconds: 6_000_000, uptimeMilliseconds: 60_000))
        sampler.complete(minute: 2, stats: Self.stats(cpuMicroseconds: 30_000_000, uptimeMilliseconds: 120_000))
        sampler.complete(minute: 9, stats: Self.stats(cpuMicroseconds: 0, uptimeMilliseconds: 0))
        let minutes = sampler.minutes
        #expect(minutes.map(\.minute) == [1, 2, 3])
        #expect(minutes.map(\.serverCPUPercent) == [10, 40, 100])
    }

    @Test("No more minutes than the capacity are kept")
    func bounded() {
        var sampler = SoakSampler(capacity: 2)
        #expect(sampler.closeMinute(watchEvents: 0) == 1)
        #expect(sampler.closeMinute(watchEvents: 0) == 2)
        #expect(sampler.closeMinute(watchEvents: 0) == nil)
        #expect(sampler.minutesWaiting == 2)
    }
}
