import Testing
import TestSupport
import WorkoutRules

@Suite("Steps")
struct StepsRuleTests {
    static let dayTotals: [([UInt32], UInt32)] = [
        ([], 0), ([5], 5), ([3000, 4500], 4500), ([4500, 3000], 4500), ([0, 0], 0), ([200_000, 1], 200_000),
    ]

    @Test("A day's steps are the maximum over sources, not the sum", arguments: dayTotals)
    func dayTotal(counts: [UInt32], expected: UInt32) {
        #expect(StepsRule.dayTotal(counts) == expected)
    }

    @Test("A later or equal report replaces; an older one is ignored", arguments: [
        (Int64(1000), Int64(2000), true), (1000, 1000, true), (2000, 1000, false), (2000, 1999, false),
    ])
    func replacement(existing: Int64, new: Int64, replaces: Bool) {
        #expect(StepsRule.shouldReplace(existingReportedAt: existing, newReportedAt: new) == replaces)
    }
}
