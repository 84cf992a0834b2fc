import Foundation
import Testing
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

/// PROTOCOL.md 19, Steps: a report with the same reported_at_ms as the stored one replaces it
/// when its count differs (the last received wins) and is a harmless retry when it is the same.
@Suite("Steps reported twice at the same instant")
struct StepsSameTimeTests {
    @Test("Same reported_at_ms: a different count replaces the stored one, the same count changes nothing")
    func sameTime() async throws {
        try await withHousehold { household in
            let store = household.store
            let member = try await household.addMember("Nina")
            let day = LocalDay.containing(instant: householdStart, in: TimeZone(identifier: "Europe/Berlin")!)
            let at = householdStart - 60_000
            let first = try await store.report(member, stepsReport(day: day, source: "phone", steps: 5_000, reportedAt: at))
            #expect(first.applied && first.day.steps == 5_000)

            let lower = try await store.report(member, stepsReport(day: day, source: "phone", steps: 4_000, reportedAt: at))
            #expect(lower.applied && lower.day.steps == 4_000)
            #expect(lower.day.revision > first.day.revision)

            let retry = try await store.report(member, stepsReport(day: day, source: "phone", steps: 4_000, reportedAt: at))
            #expect(!retry.applied && retry.day.steps == 4_000 && retry.day.revision == lower.day.revision)

            let older = try await store.report(member, stepsReport(day: day, source: "phone", steps: 9_000, reportedAt: at - 1))
            #expect(!older.applied && older.day.steps == 4_000)
        }
    }
}
