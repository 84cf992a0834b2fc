import Testing
import TestSupport
import WorkoutClient

@Suite("Reconnect backoff")
struct ReconnectPolicyTests {
    @Test("waits grow exponentially up to the cap, within the jitter")
    func exponentialWithJitter() {
        let policy = ReconnectPolicy(initialDelay: .milliseconds(100), maximumDelay: .seconds(2), multiplier: 2, jitter: 0.2)
        var generator = SeededGenerator(seed: 7)
        for (failures, base) in [(1, 100), (2, 200), (3, 400), (4, 800), (5, 1_600), (6, 2_000), (20, 2_000), (1_000, 2_000)] {
            for _ in 0..<50 {
                let delay = policy.delay(afterFailures: failures, using: &generator)
                #expect(delay >= .milliseconds(Double(base) * 0.8 - 0.001), "attempt \(failures)")
                #expect(delay <= .milliseconds(Double(base) * 1.2 + 0.001), "attempt \(failures)")
            }
        }
    }

    @Test("jitter spreads the waits of many clients")
    func jitterSpreads() {
        let policy = ReconnectPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(1), jitter: 0.5)
        var generator = SeededGenerator(seed: 11)
        let delays = Set((0..<100).map { _ in policy.delay(afterFailures: 3, using: &generator) })
        #expect(delays.count > 90)
        #expect(delays.min()! < .milliseconds(700))
        #expect(delays.max()! > .milliseconds(1_300))
    }

    @Test("no jitter gives exact waits; silly settings are clamped")
    func clamping() {
        let exact = ReconnectPolicy(initialDelay: .milliseconds(50), maximumDelay: .seconds(1), multiplier: 3, jitter: 0)
        var generator = SeededGenerator(seed: 1)
        #expect(exact.delay(afterFailures: 1, using: &generator) == .milliseconds(50))
        #expect(exact.delay(afterFailures: 3, using: &generator) == .milliseconds(450))
        #expect(exact.delay(afterFailures: 0, using: &generator) == .milliseconds(50))
        let silly = ReconnectPolicy(initialDelay: .seconds(-1), maximumDelay: .seconds(-5), multiplier: 0.1, jitter: 7, maximumAttempts: -3)
        #expect(silly.initialDelay == .zero)
        #expect(silly.maximumDelay == .zero)
        #expect(silly.multiplier == 1)
        #expect(silly.jitter == 1)
        #expect(silly.maximumAttempts == 1)
    }
}
