import Testing
@testable import workoutd

/// When the server gives freed memory back after a burst of connections, on a manual clock.
@Suite struct BurstTrimRuleTests {
    /// Open connections seen every 2 s, and whether each look trims.
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var counts: [Int]
        var trims: [Bool]
        var description: String { name }
    }

    static let cases = [
        Case(name: "a household's few devices coming and going never trim",
             counts: [0, 3, 5, 2, 8, 0, 4], trims: [false, false, false, false, false, false, false]),
        Case(name: "a burst of 1,000 that drained trims once",
             counts: [0, 1_000, 1_000, 0, 0], trims: [false, false, false, true, false]),
        Case(name: "a fall by fewer than 200 is no burst's end",
             counts: [0, 300, 150], trims: [false, false, false]),
        Case(name: "a fall to more than half the peak is no burst's end",
             counts: [0, 1_000, 600], trims: [false, false, false]),
        Case(name: "a second burst trims again once ten seconds have passed",
             counts: [1_000, 0, 1_000, 0, 0, 0, 0, 0], trims: [false, true, false, false, false, false, true, false]),
        Case(name: "a burst that drains in steps trims at its first half, then again after ten seconds",
             counts: [1_000, 400, 400, 400, 400, 400, 0], trims: [false, true, false, false, false, false, true]),
    ]

    @Test("The rule trims at a burst's end and at most every ten seconds", arguments: cases)
    func rule(_ testCase: Case) {
        var rule = BurstTrimRule()
        let start = ContinuousClock.now
        var trims: [Bool] = []
        for (index, count) in testCase.counts.enumerated() {
            trims.append(rule.observe(openConnections: count, now: start + .seconds(2 * index)))
        }
        #expect(trims == testCase.trims)
    }
}
