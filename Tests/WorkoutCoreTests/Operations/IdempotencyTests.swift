import Foundation
import Testing
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

/// Retried writes apply once; the same id with other content, or a deleted record's id, is
/// refused; deletes are idempotent; concurrent writers keep totals exact.
@Suite("Idempotent retries and concurrent writers")
struct IdempotencyTests {
    /// A kind of record, with how to log, change and delete one.
    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case workout, meal, weight
        var testDescription: String { rawValue }

        /// The id field an ALREADY_EXISTS names.
        var idField: String {
            switch self {
            case .workout: "workout.id"
            case .meal: "meal.id"
            case .weight: "entry.id"
            }
        }

        /// Logs a record of this kind with `id`; `variant` changes its content.
        func log(_ store: HouseholdStore, _ member: Member, id: Data, at: Int64, variant: Int = 0) async throws -> (replayed: Bool, record: Data) {
            switch self {
            case .workout:
                let response = try await store.log(member, WorkoutCoreTests.workout(id: id, at: at, calories: 300 + Double(variant)))
                return (response.replayed, try response.workout.serializedData())
            case .meal:
                let response = try await store.log(member, WorkoutCoreTests.meal(id: id, at: at, items: [500, Double(variant)]))
                return (response.replayed, try response.meal.serializedData())
            case .weight:
                let response = try await store.log(member, weightEntry(id: id, kg: 80 + Double(variant), at: at))
                return (response.replayed, try response.entry.serializedData())
            }
        }

        /// Deletes the record with `id`; whether something was deleted.
        func delete(_ store: HouseholdStore, _ member: Member, id: Data) async throws -> Bool {
            switch self {
            case .workout: try await store.deleteWorkout(member, id: id).deleted
            case .meal: try await store.deleteMeal(member, id: id).deleted
            case .weight: try await store.deleteWeight(member, id: id).deleted
            }
        }
    }

    @Test("Repeating a write with the same id and content is a replay; other content or a deleted id is ALREADY_EXISTS; deletes are idempotent",
          arguments: Kind.allCases)
    func retries(_ kind: Kind) async throws {
        try await withHousehold { household in
            let store = household.store
            let member = try await household.addMember("La")
            let at = household.clock.nowMilliseconds() - 3_600_000
            let id = newID()
            let first = try await kind.log(store, member, id: id, at: at)
            #expect(!first.replayed)
            let state = try store.profile(member)
            let export = try store.export(member.caller)

            // Retried after a while (a lost connection): same answer, nothing applied.
            household.clock.advance(by: 60_000)
            for _ in 0..<3 {
                let again = try await kind.log(store, member, id: id, at: at)
                #expect(again.replayed)
                #expect(again.record == first.record)
            }
            #expect(try store.profile(member) == state)
            #expect(try store.export(member.caller).map(\.workouts) == export.map(\.workouts))
            #expect(try store.export(member.caller).map(\.meals) == export.map(\.meals))
            #expect(try store.export(member.caller).map(\.weights) == export.map(\.weights))
            #expect(try store.changes(member.caller, .init()).revision == state.revision)

            // The same id with other content, or at another time.
            await expectDomainError(.alreadyExists, field: kind.idField) { try await kind.log(store, member, id: id, at: at, variant: 1) }
            await expectDomainError(.alreadyExists, field: kind.idField) { try await kind.log(store, member, id: id, at: at + 1) }
            #expect(try store.profile(member) == state)

            // Deleted: a delete, then idempotent repeats; the id is never taken again.
            #expect(try await kind.delete(store, member, id: id))
            let afterDelete = try store.profile(member)
            #expect(afterDelete.revision == state.revision + 1 || kind == .weight)   // a weight delete may also move the profile
            #expect(try await kind.delete(store, member, id: id) == false)
            #expect(try await kind.delete(store, member, id: newID()) == false)
            #expect(try store.profile(member) == afterDelete)
            await expectDomainError(.alreadyExists, field: kind.idField) { try await kind.log(store, member, id: id, at: at) }
            await expectDomainError(.alreadyExists, field: kind.idField) { try await kind.log(store, member, id: id, at: at, variant: 2) }
            #expect(try store.profile(member) == afterDelete)

            // Another member may use the same id: ids are per member.
            let other = try await household.addMember("Mo")
            #expect(try await kind.log(store, other, id: id, at: at).replayed == false)
        }
    }

    @Test("A replayed workout gives no second 50 points, even with the profile zone filled in for an empty zone")
    func workoutReplayKeepsPoints() async throws {
        try await withHousehold { household in
            let store = household.store
            let member = try await household.addMember("Na", timeZone: "Asia/Kolkata")
            let sent = workout(at: household.clock.nowMilliseconds() - 60_000, zone: "")
            let first = try await store.log(member, sent)
            #expect(first.workout.timeZone == "Asia/Kolkata")
            #expect(first.totals.points == 150)
            let replay = try await store.log(member, sent)
            #expect(replay.replayed)
            #expect(replay.unlocked.isEmpty)
            #expect(replay.totals == first.totals)
            #expect(replay.workout == first.workout)
            // Spelling the filled-in zone out is the same content.
            var explicit = sent
            explicit.timeZone = "Asia/Kolkata"
            #expect(try await store.log(member, explicit).replayed)
            #expect(try store.profile(member).totals.points == 150)
        }
    }

    @Test("Concurrent writers on one member keep count, calories and points exact", arguments: [false, true])
    func concurrentWriters(withRetries: Bool) async throws {
        try await withHousehold { household in
            let store = household.store
            let member = try await household.addMember("Oz")
            let second = try await household.login(member)
            let now = household.clock.nowMilliseconds()
            let tasks = 8, perTask = 25
            // Each task logs its own 25 workouts; with retries, every task also logs every other task's.
            let ids = (0..<tasks).map { _ in (0..<perTask).map { _ in newID() } }
            let replays = try await withThrowingTaskGroup(of: Int.self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        var replays = 0
                        let sources = withRetries ? Array(0..<tasks) : [task]
                        for source in sources {
                            for (index, id) in ids[source].enumerated() {
                                // The same workout whichever task sends it: calories 1...200, 10 minutes.
                                let sent = workout(id: id, at: now - Int64(source * perTask + index) * 60_000, seconds: 600,
                                                   calories: Double(source * perTask + index + 1))
                                let caller = task % 2 == 0 ? member : second
                                if try await store.log(caller, sent).replayed { replays += 1 }
                            }
                        }
                        return replays
                    }
                }
                return try await group.reduce(0, +)
            }
            let count = tasks * perTask
            #expect(replays == (withRetries ? count * (tasks - 1) : 0))
            let totals = try store.profile(member).totals
            #expect(totals.totalWorkouts == UInt32(count))
            #expect(totals.totalCaloriesBurned == Double(count * (count + 1) / 2))
            #expect(totals.totalActiveSeconds == UInt64(count * 600))
            // 50 per workout plus workout_1, workout_10, workout_50 and workout_100 (the same day: no streak).
            #expect(totals.points == UInt64(count * 50 + 100 + 250 + 500 + 1_000))
            #expect(totals.achievementsUnlocked == 4)
            #expect(try store.allWorkouts(member).count == count)
            #expect(try store.achievements(member.caller).filter(\.unlocked).count == 4)
            // Every write moved the revision once: one change-log entry per workout and achievement.
            let changes = try store.allChanges(member)
            #expect(changes.changes.count == count + 4 + 1)                           // + the profile from registration
            #expect(Set(changes.changes.map(\.revision)).count == changes.changes.count)
        }
    }
}
