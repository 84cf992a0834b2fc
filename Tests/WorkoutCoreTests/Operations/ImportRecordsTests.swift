import Foundation
import Testing
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

/// `Logging.ImportRecords` on the store: batches with the Log* rules, all or nothing, paced.
@Suite("Import batches")
struct ImportRecordsTests {
    static func batch(_ records: [Workout_V1_ImportRecord.OneOf_Record]) -> Workout_V1_ImportRecordsRequest {
        var request = Workout_V1_ImportRecordsRequest()
        request.records = records.map { record in
            var message = Workout_V1_ImportRecord()
            message.record = record
            return message
        }
        return request
    }

    @Test("A batch is applied like its Log* calls: totals, streak, achievements once, a change per record; sent again it changes nothing")
    func batchLikeLive() async throws {
        try await withHousehold { household in
            let start = householdStart - 10 * 86_400_000
            var records: [Workout_V1_ImportRecord.OneOf_Record] = (0..<4).map { .workout(workout(at: start + Int64($0) * 86_400_000)) }
            records.append(.meal(meal(at: start + 3_600_000, items: [300, 200])))
            records.append(.weightEntry(weightEntry(kg: 70, at: start)))
            records.append(.steps(stepsReport(day: referenceDay(start, "Europe/Berlin"), source: "watch", steps: 9_000, reportedAt: start)))
            let request = Self.batch(records)
            let answer = try await household.store.importRecords(household.owner.caller, request)
            #expect(answer.workouts == 4 && answer.meals == 1 && answer.weightEntries == 1 && answer.stepsReports == 1 && answer.unchanged == 0)
            #expect(Set(answer.unlocked.map(\.achievementID)) == ["workout_1", "streak_3"])
            // Dated as if each workout had been logged when it happened: the first, and the third day's.
            let dates = Dictionary(uniqueKeysWithValues: answer.unlocked.map { ($0.achievementID, $0.unlockedAtMs) })
            #expect(dates == ["workout_1": start, "streak_3": start + 2 * 86_400_000])
            #expect(answer.totals.totalWorkouts == 4 && answer.totals.longestStreakDays == 4)
            #expect(answer.totals.points == 4 * 50 + 100 + 100)
            // One change per record, one per achievement, and the profile (its weight).
            let changes = try household.store.allChanges(household.owner)
            #expect(answer.revision == changes.revision)
            #expect(changes.changes.count == 7 + 2 + 1)
            let again = try await household.store.importRecords(household.owner.caller, request)
            #expect(again.workouts == 0 && again.unchanged == 7 && again.unlocked.isEmpty && again.revision == answer.revision)
        }
    }

    @Test("A record out of bounds refuses the whole batch, naming it; nothing is written")
    func invalidRecordWritesNothing() async throws {
        try await withHousehold { household in
            var bad = meal(at: householdStart)
            bad.items[0].calories = -1
            let before = try household.store.profile(household.owner).revision
            await expectDomainError(.invalidArgument, field: "records[1].meal.items[0].calories") {
                try await household.store.importRecords(household.owner.caller, Self.batch([.workout(workout(at: householdStart)), .meal(bad)]))
            }
            var heavy = weightEntry(kg: 900, at: householdStart)
            heavy.note = ""
            await expectDomainError(.invalidArgument, field: "records[0].weight_entry.weight_kg") {
                try await household.store.importRecords(household.owner.caller, Self.batch([.weightEntry(heavy)]))
            }
            await expectDomainError(.invalidArgument, field: "records[0].workout.duration_seconds") {
                try await household.store.importRecords(household.owner.caller, Self.batch([.workout(workout(at: householdStart, seconds: 90 * 3_600))]))
            }
            await expectDomainError(.invalidArgument, field: "records") {
                try await household.store.importRecords(household.owner.caller, Self.batch([]))
            }
            await expectDomainError(.invalidArgument, field: "records") {
                try await household.store.importRecords(
                    household.owner.caller, Self.batch((0...1_000).map { _ in .workout(workout(at: householdStart)) }))
            }
            #expect(try household.store.profile(household.owner).revision == before)
            #expect(try household.store.allWorkouts(household.owner).isEmpty)
        }
    }

    @Test("An id stored with other content refuses the batch (ALREADY_EXISTS naming the record); the records before it in the batch are not written")
    func conflictingIDWritesNothing() async throws {
        try await withHousehold { household in
            let stored = workout(at: householdStart - 86_400_000)
            _ = try await household.store.log(household.owner, stored)
            var changed = stored
            changed.caloriesBurned += 1
            let before = try household.store.profile(household.owner).revision
            await expectDomainError(.alreadyExists, field: "records[1].workout.id") {
                try await household.store.importRecords(household.owner.caller, Self.batch([.workout(workout(at: householdStart)), .workout(changed)]))
            }
            #expect(try household.store.profile(household.owner).revision == before)
            #expect(try household.store.allWorkouts(household.owner).count == 1)
        }
    }

    @Test("Batches beyond the member's pace are refused with a retry-after; another member is not held up")
    func paced() async throws {
        try await withHousehold(configure: { $0.importBatchesPerMinute = 2 }) { household in
            let mia = try await household.addMember("Mia")
            for _ in 0..<2 {
                _ = try await household.store.importRecords(household.owner.caller, Self.batch([.workout(workout(at: householdStart))]))
            }
            do {
                _ = try await household.store.importRecords(household.owner.caller, Self.batch([.workout(workout(at: householdStart))]))
                Issue.record("a third batch within the minute was taken")
            } catch let error as DomainError {
                #expect(error.code == .resourceExhausted && error.retryAfterMilliseconds > 0 && error.retryAfterMilliseconds <= 30_000)
            }
            _ = try await household.store.importRecords(mia.caller, Self.batch([.workout(workout(at: householdStart))]))
            household.clock.advance(by: 30_000)
            _ = try await household.store.importRecords(household.owner.caller, Self.batch([.workout(workout(at: householdStart))]))
            #expect(try household.store.allWorkouts(household.owner).count == 3)
        }
    }
}
