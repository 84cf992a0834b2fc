// A member's steps-source priority through the real store: by default each day counts its
// largest source (today's behaviour); with a priority the first trusted source that reported
// wins, on past days too; the figure says which source it is; bad lists are refused.

import Foundation
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

@Suite("Steps source priority")
struct StepsSourcePriorityTests {
    static let now = householdStart
    static let today = LocalDay.containing(instant: householdStart, in: TimeZone(identifier: "UTC")!)

    static func daySteps(_ store: HouseholdStore, _ member: Member, days: Int32) throws -> [UInt32] {
        var request = Workout_V1_SummariesRequest()
        request.fromDay = today.adding(days: -(days - 1)).wire
        request.toDay = today.wire
        request.granularity = .day
        return try store.summaries(member.caller, request).periods.map(\.steps)
    }

    static func prioritize(_ store: HouseholdStore, _ member: Member, _ sources: [String]) async throws -> Workout_V1_UpdateProfileResponse {
        var request = Workout_V1_UpdateProfileRequest()
        request.stepsSourcePriority.sources = sources
        return try await store.updateProfile(member.caller, request)
    }

    @Test("The default is the largest source; a priority picks the trusted source per day, past days too; the day names its source")
    func priority() async throws {
        try await withHousehold(now: Self.now, ownerZone: "UTC") { household in
            let store = household.store
            let owner = household.owner
            // Three days: both report; only the phone; only the watch.
            let reports: [(Int32, String, UInt32)] = [(2, "phone", 9_000), (2, "watch", 7_000), (1, "phone", 4_000), (0, "watch", 6_000)]
            var last: Workout_V1_ReportStepsResponse?
            for (back, source, steps) in reports {
                last = try await store.report(owner, stepsReport(day: Self.today.adding(days: -back), source: source, steps: steps, reportedAt: Self.now - 60_000))
            }
            #expect(try Self.daySteps(store, owner, days: 3) == [9_000, 4_000, 6_000])
            #expect(last?.day.countedSource == "watch")

            let changed = try await Self.prioritize(store, owner, ["watch", "phone"])
            #expect(changed.profile.stepsSourcePriority == ["watch", "phone"])
            #expect(try Self.daySteps(store, owner, days: 3) == [7_000, 4_000, 6_000])
            let again = try await store.report(owner, stepsReport(day: Self.today.adding(days: -2), source: "phone", steps: 9_500, reportedAt: Self.now))
            #expect(again.day.steps == 7_000 && again.day.countedSource == "watch")

            // A source the list does not name counts only on a day none of the named reported.
            _ = try await Self.prioritize(store, owner, ["ring"])
            #expect(try Self.daySteps(store, owner, days: 3) == [9_500, 4_000, 6_000])
            // Back to the default.
            _ = try await Self.prioritize(store, owner, [])
            #expect(try store.getProfile(owner.caller).profile.stepsSourcePriority.isEmpty)
            #expect(try Self.daySteps(store, owner, days: 3) == [9_500, 4_000, 6_000])
        }
    }

    @Test("A list with a repeated, empty or long source, or more than 16, is refused naming the entry")
    func refusals() async throws {
        try await withHousehold(now: Self.now, ownerZone: "UTC") { household in
            let store = household.store
            let owner = household.owner
            await expectDomainError(.invalidArgument, field: "steps_source_priority.sources") { try await Self.prioritize(store, owner, ["watch", "watch"]) }
            await expectDomainError(.invalidArgument, field: "steps_source_priority.sources") { try await Self.prioritize(store, owner, [""]) }
            await expectDomainError(.invalidArgument, field: "steps_source_priority.sources") {
                try await Self.prioritize(store, owner, [String(repeating: "x", count: 65)])
            }
            await expectDomainError(.invalidArgument, field: "steps_source_priority.sources") {
                try await Self.prioritize(store, owner, (0...16).map { "source \($0)" })
            }
            let kept = try store.getProfile(owner.caller).profile.stepsSourcePriority
            #expect(kept.isEmpty)
        }
    }

    @Test("Changing the priority recounts the steps-goal runs of the days it changes")
    func goalRuns() async throws {
        try await withHousehold(now: Self.now, ownerZone: "UTC") { household in
            let store = household.store
            let owner = household.owner
            var goals = Workout_V1_SetGoalsRequest()
            goals.set.dailySteps = 8_000
            goals.effectiveFrom = Self.today.adding(days: -5).wire
            _ = try await store.setGoals(owner.caller, goals)
            // The phone falls short three days running; the watch, which the member trusts, does not.
            for back in Int32(1)...3 {
                try await store.report(owner, stepsReport(day: Self.today.adding(days: -back), source: "phone", steps: 8_500, reportedAt: Self.now - 60_000))
                try await store.report(owner, stepsReport(day: Self.today.adding(days: -back), source: "watch", steps: 7_000, reportedAt: Self.now - 60_000))
            }
            func unlocked(_ member: Member) throws -> Bool {
                try store.achievements(member.caller).first { $0.achievementID == "steps_goal_3" }?.unlocked == true
            }
            #expect(try unlocked(owner))              // the largest (phone) met it
            _ = try await Self.prioritize(store, owner, ["watch"])
            #expect(try unlocked(owner))              // earned is earned

            // A member who trusted the ring (short of the goal) and goes back to the largest source.
            let member = try await household.addMember("Mia", timeZone: "UTC")
            _ = try await store.setGoals(member.caller, goals)
            _ = try await Self.prioritize(store, member, ["ring"])
            for back in Int32(1)...3 {
                try await store.report(member, stepsReport(day: Self.today.adding(days: -back), source: "phone", steps: 9_000, reportedAt: Self.now - 60_000))
                try await store.report(member, stepsReport(day: Self.today.adding(days: -back), source: "ring", steps: 7_200, reportedAt: Self.now - 60_000))
            }
            #expect(try !unlocked(member))
            _ = try await Self.prioritize(store, member, [])
            #expect(try unlocked(member))
        }
    }
}
