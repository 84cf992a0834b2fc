// Steps-goal streaks feed achievements, through the real store: reports in any order, an
// import batch and a goal change each unlock the runs they complete, dated by the day that
// completed them; a later, higher goal takes nothing back.

import Foundation
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

@Suite("Steps-goal achievements")
struct StepsGoalAchievementsTests {
    /// 2026-12-07T12:00:00Z, a Monday.
    static let now: Int64 = 1_796_644_800_000
    static let today = LocalDay(year: 2026, month: 12, day: 7)!
    static let zone = TimeZone(identifier: "Europe/Berlin")!

    /// The instant a run completed on `day` dates its achievement: the day's last millisecond.
    static func endOf(_ day: LocalDay) -> Int64 { day.adding(days: 1).startInstant(in: zone) - 1 }

    static func stepsGoal(_ store: HouseholdStore, _ member: Member, _ steps: UInt32, from day: LocalDay) async throws -> Workout_V1_SetGoalsResponse {
        var request = Workout_V1_SetGoalsRequest()
        request.set.dailySteps = steps
        request.effectiveFrom = day.wire
        return try await store.setGoals(member.caller, request)
    }

    static func stepsGoalAchievements(_ store: HouseholdStore, _ member: Member) throws -> [String: Workout_V1_Achievement] {
        Dictionary(uniqueKeysWithValues: try store.achievements(member.caller)
            .filter { $0.achievementID.hasPrefix("steps_goal_") }.map { ($0.achievementID, $0) })
    }

    @Test("Reports in any order unlock a run when it completes, dated by its last day; a missed day breaks it until a later report fills it")
    func reports() async throws {
        try await withHousehold(now: Self.now) { household in
            let store = household.store
            let owner = household.owner
            let day = { (back: Int32) in Self.today.adding(days: -back) }
            _ = try await Self.stepsGoal(store, owner, 8_000, from: day(20))
            func report(_ back: Int32, _ steps: UInt32, at offset: Int64 = 0) async throws -> [String] {
                try await store.report(owner, stepsReport(day: day(back), source: "phone", steps: steps, reportedAt: Self.now - 60_000 + offset))
                    .unlocked.map(\.achievementID)
            }
            // Days 12, 10 and 11 back: the third report completes a run of three, ending 10 days back.
            #expect(try await report(12, 9_000) == [])
            #expect(try await report(10, 8_000) == [])
            #expect(try await report(11, 12_000) == ["steps_goal_3"])
            var listed = try Self.stepsGoalAchievements(store, owner)
            #expect(listed["steps_goal_3"]?.unlocked == true && listed["steps_goal_3"]?.unlockedAtMs == Self.endOf(day(10)))
            #expect(listed["steps_goal_7"]?.unlocked == false && listed["steps_goal_7"]?.progress == 3)

            // Nine back falls short; eight to two back meet it: a second run of seven... which
            // is only six days long (8...3 back), then two back makes seven.
            #expect(try await report(9, 5_000) == [])
            for back in stride(from: Int32(8), through: 3, by: -1) { #expect(try await report(back, 10_000) == []) }
            #expect(try Self.stepsGoalAchievements(store, owner)["steps_goal_7"]?.progress == 6)
            #expect(try await report(2, 10_000) == ["steps_goal_7"])
            listed = try Self.stepsGoalAchievements(store, owner)
            #expect(listed["steps_goal_7"]?.unlockedAtMs == Self.endOf(day(2)))

            // A later report for nine back fills the gap: a run of 11 days, nothing new to earn
            // below 30, and the count grows.
            #expect(try await report(9, 8_500, at: 1) == [])
            #expect(try Self.stepsGoalAchievements(store, owner)["steps_goal_30"]?.progress == 11)

            // Points: the two unlocked achievements count in the totals.
            let totals = try store.profile(owner).totals
            #expect(totals.points == 100 + 250)
        }
    }

    @Test("An import batch of 35 days unlocks all three once, dated by the days that completed each run; importing again changes nothing")
    func importBatch() async throws {
        try await withHousehold(now: Self.now) { household in
            let store = household.store
            let owner = household.owner
            let first = Self.today.adding(days: -35)
            _ = try await Self.stepsGoal(store, owner, 6_000, from: first)
            var request = Workout_V1_ImportRecordsRequest()
            request.records = (0..<35).map { offset in
                var record = Workout_V1_ImportRecord()
                record.steps = stepsReport(day: first.adding(days: Int32(offset)), source: "watch", steps: 7_000, reportedAt: Self.now - 60_000)
                return record
            }
            let imported = try await store.importRecords(owner.caller, request)
            #expect(imported.unlocked.map(\.achievementID) == ["steps_goal_3", "steps_goal_7", "steps_goal_30"])
            #expect(imported.unlocked.map(\.unlockedAtMs) == [2, 6, 29].map { Self.endOf(first.adding(days: $0)) })
            #expect(imported.totals.points == 100 + 250 + 1000)
            let again = try await store.importRecords(owner.caller, request)
            #expect(again.unlocked.isEmpty && again.unchanged == 35)
        }
    }

    @Test("Lowering the steps goal from a past day unlocks the run it now makes; raising it later takes nothing back")
    func goalChanges() async throws {
        try await withHousehold(now: Self.now) { household in
            let store = household.store
            let owner = household.owner
            _ = try await Self.stepsGoal(store, owner, 10_000, from: Self.today.adding(days: -6))
            for back in Int32(1)...4 {
                try await store.report(owner, stepsReport(day: Self.today.adding(days: -back), source: "phone", steps: 7_500, reportedAt: Self.now - 60_000))
            }
            #expect(try Self.stepsGoalAchievements(store, owner)["steps_goal_3"]?.unlocked == false)
            let lowered = try await Self.stepsGoal(store, owner, 7_000, from: Self.today.adding(days: -5))
            #expect(lowered.unlocked.map(\.achievementID) == ["steps_goal_3"])
            #expect(lowered.unlocked.first?.unlockedAtMs == Self.endOf(Self.today.adding(days: -2)))
            // Today: a higher goal for every day on. Earned is earned.
            let raised = try await Self.stepsGoal(store, owner, 20_000, from: Self.today)
            #expect(raised.unlocked.isEmpty)
            let listed = try Self.stepsGoalAchievements(store, owner)
            #expect(listed["steps_goal_3"]?.unlocked == true && listed["steps_goal_7"]?.progress == 4)
        }
    }

    @Test("Without a steps goal no run counts, however many steps")
    func noGoal() async throws {
        try await withHousehold(now: Self.now) { household in
            let store = household.store
            let owner = household.owner
            for back in Int32(0)...5 {
                let answer = try await store.report(owner, stepsReport(day: Self.today.adding(days: -back), source: "phone", steps: 30_000, reportedAt: Self.now - 60_000))
                #expect(answer.unlocked.isEmpty)
            }
            #expect(try Self.stepsGoalAchievements(store, owner).values.allSatisfy { !$0.unlocked && $0.progress == 0 })
        }
    }
}
