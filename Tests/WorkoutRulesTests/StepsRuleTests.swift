import Testing
import TestSupport
import WorkoutRules

@Suite("Steps")
struct StepsRuleTests {
    static let dayTotals: [([UInt32], UInt32)] = [
        ([], 0), ([5], 5), ([3000, 4500], 4500), ([4500, 3000], 4500), ([0, 0], 0), ([200_000, 1], 200_000),
    ]

    @Test("Without a priority, a day's steps are the maximum over sources, not the sum", arguments: dayTotals)
    func dayTotal(counts: [UInt32], expected: UInt32) {
        let reports = counts.enumerated().map { (source: "source \($0.offset)", steps: $0.element) }
        #expect(StepsRule.dayFigure(reports, priority: []).steps == expected)
    }

    @Test("The first trusted source that reported wins; a day none of them reported counts its largest; ties go to the first name", arguments: [
        ([("phone", UInt32(9_000)), ("watch", 7_000)], ["watch", "phone"], UInt32(7_000), "watch"),
        ([("phone", 9_000), ("watch", 7_000)], ["ring", "phone"], 9_000, "phone"),
        ([("phone", 9_000), ("watch", 7_000)], ["ring"], 9_000, "phone"),
        ([("phone", 9_000), ("watch", 7_000)], [], 9_000, "phone"),
        ([("watch", 5_000), ("phone", 5_000)], [], 5_000, "phone"),
        ([("watch", 0)], ["watch", "phone"], 0, "watch"),
    ] as [([(String, UInt32)], [String], UInt32, String)])
    func priority(reports: [(String, UInt32)], priority: [String], steps: UInt32, source: String) {
        let figure = StepsRule.dayFigure(reports.map { (source: $0.0, steps: $0.1) }, priority: priority)
        #expect(figure.steps == steps && figure.source == source)
        #expect(StepsRule.dayFigure([], priority: priority) == (0, nil))
    }

    @Test("A priority names at most 16 sources, each 1 to 64 bytes, none twice")
    func priorityBounds() throws {
        try StepsRule.checkPriority(["watch", "phone"], field: "p")
        #expect(throws: DomainError.self) { try StepsRule.checkPriority(["watch", "watch"], field: "p") }
        #expect(throws: DomainError.self) { try StepsRule.checkPriority([""], field: "p") }
        #expect(throws: DomainError.self) { try StepsRule.checkPriority((0...16).map { "s\($0)" }, field: "p") }
        let error = #expect(throws: DomainError.self) { try StepsRule.checkPriority(["watch", "phone", "watch"], field: "p") }
        #expect(error?.field == "p" && error?.message.contains("\"watch\" twice") == true)
    }

    @Test("A later or equal report replaces; an older one is ignored", arguments: [
        (Int64(1000), Int64(2000), true), (1000, 1000, true), (2000, 1000, false), (2000, 1999, false),
    ])
    func replacement(existing: Int64, new: Int64, replaces: Bool) {
        #expect(StepsRule.shouldReplace(existingReportedAt: existing, newReportedAt: new) == replaces)
    }
}
