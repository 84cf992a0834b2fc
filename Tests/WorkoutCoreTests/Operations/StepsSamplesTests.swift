// Steps samples through the real store: kept per (day, source, start), summed into the
// source's report of the day; the same batch again changes nothing; a ReportSteps under the
// same source name meets them by its own rule; bad samples are refused naming the field.

import Foundation
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

@Suite("Steps samples")
struct StepsSamplesTests {
    /// 2026-06-01T12:00:00Z.
    static let now = householdStart
    static let today = LocalDay.containing(instant: householdStart, in: TimeZone(identifier: "UTC")!)

    static func sample(_ source: String, minutesBefore minutes: Int64, steps: UInt32, day: LocalDay = today) -> Workout_V1_ImportRecord {
        var sample = Workout_V1_StepsSample()
        sample.day = day.wire
        sample.source = source
        sample.startMs = now - minutes * 60_000
        sample.endMs = sample.startMs + 60_000
        sample.steps = steps
        var record = Workout_V1_ImportRecord()
        record.stepsSample = sample
        return record
    }

    static func importing(_ store: HouseholdStore, _ member: Member, _ records: [Workout_V1_ImportRecord]) async throws -> Workout_V1_ImportRecordsResponse {
        var request = Workout_V1_ImportRecordsRequest()
        request.records = records
        return try await store.importRecords(member.caller, request)
    }

    static func day(_ store: HouseholdStore, _ member: Member) throws -> [String: UInt32] {
        var request = Workout_V1_ChangesRequest()
        request.pageSize = 500
        var sources: [String: UInt32] = [:]
        for change in try store.changes(member.caller, request).changes {
            if case .steps(let day) = change.item { for report in day.sources { sources[report.source] = report.steps } }
        }
        return sources
    }

    @Test("Samples sum per source; the same batch again is unchanged; a corrected one replaces itself; ReportSteps meets them by its rule")
    func sums() async throws {
        try await withHousehold(now: Self.now, ownerZone: "UTC") { household in
            let store = household.store
            let owner = household.owner
            let first = try await Self.importing(store, owner, [
                Self.sample("watch", minutesBefore: 90, steps: 1_200), Self.sample("watch", minutesBefore: 60, steps: 800),
                Self.sample("phone", minutesBefore: 60, steps: 1_500),
            ])
            #expect(first.stepsSamples == 3 && first.stepsReports == 2 && first.unchanged == 0)
            #expect(try Self.day(store, owner) == ["watch": 2_000, "phone": 1_500])
            let again = try await Self.importing(store, owner, [Self.sample("watch", minutesBefore: 60, steps: 800), Self.sample("phone", minutesBefore: 60, steps: 1_500)])
            #expect(again.stepsSamples == 0 && again.stepsReports == 0 && again.unchanged == 2 && again.revision == first.revision)
            let corrected = try await Self.importing(store, owner, [Self.sample("watch", minutesBefore: 60, steps: 900)])
            #expect(corrected.stepsSamples == 1 && corrected.stepsReports == 1)
            #expect(try Self.day(store, owner)["watch"] == 2_100)

            // A device's running total under the same source, newer: it replaces the sum ...
            var report = Workout_V1_ReportStepsRequest()
            report.report = stepsReport(day: Self.today, source: "watch", steps: 5_000, reportedAt: Self.now + 60_000)
            #expect(try await store.reportSteps(owner.caller, report).applied)
            #expect(try Self.day(store, owner)["watch"] == 5_000)
            // ... until the next sample of that day sums the samples again.
            _ = try await Self.importing(store, owner, [Self.sample("watch", minutesBefore: 30, steps: 100)])
            #expect(try Self.day(store, owner)["watch"] == 2_200)
        }
    }

    @Test("Bad samples are refused naming the record's field; nothing of the batch is stored")
    func refusals() async throws {
        try await withHousehold(now: Self.now, ownerZone: "UTC") { household in
            let store = household.store
            let owner = household.owner
            func refused(_ field: String, _ change: (inout Workout_V1_StepsSample) -> Void) async {
                var record = Self.sample("phone", minutesBefore: 10, steps: 100)
                change(&record.stepsSample)
                await expectDomainError(.invalidArgument, field: "records[1].\(field)") {
                    try await Self.importing(store, owner, [Self.sample("phone", minutesBefore: 20, steps: 50), record])
                }
            }
            await refused("steps_sample.steps") { $0.steps = 200_001 }
            await refused("steps_sample.source") { $0.source = "" }
            await refused("steps_sample.end_ms") { $0.endMs = $0.startMs - 1 }
            await refused("steps_sample.end_ms") { $0.endMs = $0.startMs + 86_400_001 }
            await refused("steps_sample.day") { $0.day = Self.today.adding(days: -3).wire }
            await refused("steps_sample.start_ms") { $0.startMs = Self.now + 2 * 86_400_000 }
            let stored = try Self.day(store, owner)
            #expect(stored.isEmpty)
        }
    }

    @Test("A source's day keeps at most 2,880 samples: the next new one is refused, a corrected one is not")
    func boundedPerDay() async throws {
        try await withHousehold(now: Self.now, ownerZone: "UTC") { household in
            let store = household.store
            let owner = household.owner
            // 2,880 samples, 15 s apart, within today (the first half of the day up to now).
            let starts = (0..<HouseholdStore.maxStepsSamplesPerSourceDay).map { Self.now - 12 * 3_600_000 + Int64($0) * 15_000 }
            for batch in stride(from: 0, to: starts.count, by: 1_000) {
                let records = starts[batch..<min(batch + 1_000, starts.count)].map { start -> Workout_V1_ImportRecord in
                    var record = Self.sample("phone", minutesBefore: 0, steps: 1)
                    record.stepsSample.startMs = start
                    record.stepsSample.endMs = 0
                    return record
                }
                household.clock.advance(by: 60_000)
                _ = try await Self.importing(store, owner, records)
            }
            #expect(try Self.day(store, owner)["phone"] == 2_880)
            var extra = Self.sample("phone", minutesBefore: 0, steps: 1)
            extra.stepsSample.startMs = starts[0] + 1
            extra.stepsSample.endMs = 0
            household.clock.advance(by: 60_000)
            await expectDomainError(.invalidArgument, field: "records[0].steps_sample.start_ms") { try await Self.importing(store, owner, [extra]) }
            var corrected = extra
            corrected.stepsSample.startMs = starts[0]
            corrected.stepsSample.steps = 5
            #expect(try await Self.importing(store, owner, [corrected]).stepsSamples == 1)
            #expect(try Self.day(store, owner)["phone"] == 2_884)
        }
    }
}
