import Testing
import TestSupport
import WorkoutRules

@Suite("Steps-goal runs")
struct StepsGoalRunsTests {
    @Test("The count stops at the longest steps-goal target, 30 days")
    func counted() {
        #expect(StepsGoalRuns.counted == 30)
    }

    @Test("A day meets the goal of that day only when it has one and its steps reach it")
    func meets() {
        let goal = GoalSet(dailySteps: 8_000)
        #expect(StepsGoalRuns.meets(steps: 8_000, goals: goal))
        #expect(StepsGoalRuns.meets(steps: 12_000, goals: goal))
        #expect(!StepsGoalRuns.meets(steps: 7_999, goals: goal))
        #expect(!StepsGoalRuns.meets(steps: 50_000, goals: .none))
    }

    @Test("The window reaches 29 days either side of the changed days and never past today")
    func window() throws {
        let today = LocalDay("2026-12-07")
        let one = try #require(StepsGoalRuns.window(around: LocalDay("2026-11-01")...LocalDay("2026-11-01"), today: today))
        #expect(one == LocalDay("2026-10-03")...LocalDay("2026-11-30"))
        let recent = try #require(StepsGoalRuns.window(around: LocalDay("2026-12-05")...today, today: today))
        #expect(recent == LocalDay("2026-11-06")...today)
        #expect(StepsGoalRuns.window(around: LocalDay("2026-12-08")...LocalDay("2026-12-08"), today: today) == nil)
    }

    @Test("Runs are broken by a missed day, and each length is dated by the day that first completed it")
    func runs() {
        let start = LocalDay("2026-03-01")
        // met: 1 1 0 1 1 1 0 1
        let met: Set<Int32> = [0, 1, 3, 4, 5, 7]
        let count = StepsGoalRuns.count(over: start...start.adding(days: 7)) { met.contains($0.epochDay - start.epochDay) }
        #expect(count.longest == 3)
        #expect(count.reached == [1: start, 2: start.adding(days: 1), 3: start.adding(days: 5)])
    }

    @Test("Random days: the count equals a plain longest-run search, capped at 30", arguments: 0..<200)
    func oracle(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed))
        let length = Int.random(in: 1...120, using: &generator)
        let density = Double.random(in: 0.3...1, using: &generator)
        let met = (0..<length).map { _ in Double.random(in: 0..<1, using: &generator) < density }
        let start = LocalDay("2025-01-01")
        let count = StepsGoalRuns.count(over: start...start.adding(days: Int32(length - 1))) { met[Int($0.epochDay - start.epochDay)] }

        // The model: every run's length, and for each length the first index ending such a run.
        var longest = 0
        var firstEnd: [Int: Int] = [:]
        var run = 0
        for (index, isMet) in met.enumerated() {
            run = isMet ? run + 1 : 0
            for reached in stride(from: 1, through: run, by: 1) where firstEnd[reached] == nil { firstEnd[reached] = index }
            longest = max(longest, run)
        }
        #expect(count.longest == UInt32(min(longest, 30)))
        let expected = Dictionary(uniqueKeysWithValues: firstEnd.filter { $0.key <= 30 }.map { (UInt32($0.key), start.adding(days: Int32($0.value))) })
        #expect(count.reached == expected)
    }
}
