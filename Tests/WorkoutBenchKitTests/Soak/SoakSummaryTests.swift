import Testing
import WorkoutBenchKit

/// The first-versus-last comparison of a soak: medians, ratios and the 10 % verdict.
@Suite("Soak summary")
struct SoakSummaryTests {
    /// A minute with the given figures and zeros elsewhere.
    static func minute(_ number: Int, rssAnon: UInt64, descriptors: UInt32, p99: Double, rss: UInt64 = 0, store: UInt64 = 0) -> SoakMinute {
        SoakMinute(
            minute: number, calls: 0, errors: 0, rounds: 0, logins: 0, watchEvents: 0, p50Microseconds: 0, p99Microseconds: p99,
            maxMicroseconds: 0, rssAnonBytes: rssAnon, rssBytes: rss, openDescriptors: descriptors, openConnections: 0,
            storeSizeBytes: store, storeUsedBytes: 0, serverCPUMicroseconds: 0, serverCPUPercent: 0, shedConnections: 0,
            incompleteFrameBytes: 0)
    }

    @Test("The median is the middle value, or the mean of the two middle ones", arguments: [
        ([3.0, 1, 2], 2.0), ([4.0, 1, 3, 2], 2.5), ([7.0], 7.0), ([] as [Double], 0.0),
    ])
    func median(_ values: [Double], _ expected: Double) {
        #expect(SoakComparison.median(values) == expected)
    }

    @Test("Sixty minutes compare the medians of minutes 1-10 and 51-60; the middle minutes do not count")
    func sixtyMinutes() throws {
        let minutes = (1...60).map { number -> SoakMinute in
            // A spike in the middle that must not matter; the ends differ by 5 %.
            let anon: UInt64 = number <= 10 ? 100 : number > 50 ? 105 : 1_000
            return Self.minute(number, rssAnon: anon, descriptors: number > 50 ? 60 : 50, p99: number <= 10 ? 1_000 : 1_080)
        }
        let summary = try #require(SoakSummary(minutes: minutes))
        #expect(summary.minutesCompared == 10)
        #expect(summary.rssAnonBytes.first == 100 && summary.rssAnonBytes.last == 105)
        #expect(summary.rssAnonBytes.ratio == 1.05 && summary.rssAnonBytes.flat)
        #expect(summary.p99Microseconds.ratio == 1.08 && summary.p99Microseconds.flat)
        // 50 → 60 descriptors is 20 %: not flat, so the soak is not flat.
        #expect(summary.openDescriptors.ratio == 1.2 && !summary.openDescriptors.flat)
        #expect(!summary.flat)
    }

    @Test("Exactly 10 % is still flat, and a drop counts like a rise", arguments: [
        (100.0, 110.0, true), (100, 90, true), (100, 111, false), (100, 89, false), (0, 0, true), (0, 5, false),
    ])
    func tolerance(_ first: Double, _ last: Double, _ flat: Bool) {
        let comparison = SoakComparison(first: [first], last: [last], tolerance: SoakSummary.tolerance)
        #expect(comparison.flat == flat)
        #expect(comparison.ratio == (first == 0 ? (last == 0 ? 1 : nil) : last / first))
    }

    @Test("A run shorter than twenty minutes compares its halves; fewer than two minutes give no summary")
    func shortRuns() throws {
        let six = (1...6).map { Self.minute($0, rssAnon: 100, descriptors: 40, p99: 500) }
        let summary = try #require(SoakSummary(minutes: six))
        #expect(summary.minutesCompared == 3)
        #expect(summary.flat)
        #expect(SoakSummary(minutes: Array(six.prefix(1))) == nil)
    }

    @Test("Whole RSS and the map size are compared but do not decide the verdict")
    func informativeFigures() throws {
        let minutes = (1...20).map {
            Self.minute($0, rssAnon: 100, descriptors: 40, p99: 500, rss: $0 <= 10 ? 100 : 300, store: $0 <= 10 ? 64 : 128)
        }
        let summary = try #require(SoakSummary(minutes: minutes))
        #expect(!summary.rssBytes.flat && summary.rssBytes.ratio == 3)
        #expect(!summary.storeSizeBytes.flat && summary.storeSizeBytes.ratio == 2)
        #expect(summary.flat)
    }
}
