import Foundation
import SwiftProtobuf
import Testing
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

/// The change feed for sync, and the export of all of one's data.
@Suite("Sync and export")
struct SyncAndExportTests {
    /// A name for what a change carries, to count and find them.
    static func describe(_ change: Workout_V1_Change) -> String {
        switch change.item {
        case .workout(let workout): "workout \(workout.id.base64EncodedString())"
        case .meal(let meal): "meal \(meal.id.base64EncodedString())"
        case .weight(let entry): "weight \(entry.id.base64EncodedString())"
        case .steps(let day): "steps \(day.day.localDay)"
        case .achievement(let achievement): "achievement \(achievement.achievementID)"
        case .profile: "profile"
        case .deleted(let tombstone): "deleted \(tombstone.kind) \(tombstone.id.base64EncodedString())"
        case nil: "nothing"
        }
    }

    @Test("Changes since a revision list each changed item once, in its current state or as a tombstone, in ascending revision order")
    func changesFeed() async throws {
        try await withHousehold { household in
            let store = household.store
            let member = try await household.addMember("Hal")
            let other = try await household.addMember("Ivy")
            let now = household.clock.nowMilliseconds()
            let start = try store.profile(member).revision
            #expect(start == 1)                                                       // the profile, at registration

            let w1 = try await store.log(member, workout(at: now - 5_000)).workout
            var w2 = try await store.log(member, workout(at: now - 4_000)).workout
            let w3 = try await store.log(member, workout(at: now - 3_000)).workout
            let afterWorkouts = try store.profile(member).revision
            w2.caloriesBurned = 999
            w2 = try await store.update(member, w2).workout
            try await store.deleteWorkout(member, id: w3.id)
            var m1 = try await store.log(member, meal(at: now - 2_000)).meal
            m1.items = meal(at: 0, items: [1, 2, 3]).items
            m1 = try await store.updateMeal(member.caller, .with { $0.meal = m1 }).meal
            let m2 = try await store.log(member, meal(at: now - 1_000)).meal
            try await store.deleteMeal(member, id: m2.id)
            let e1 = try await store.log(member, weightEntry(kg: 72.5, at: now - 500)).entry
            let today = LocalDay.containing(instant: now, in: TimeZone(identifier: "UTC")!)
            try await store.report(member, stepsReport(day: today, source: "phone", steps: 4_000, reportedAt: now))
            try await store.report(member, stepsReport(day: today, source: "watch", steps: 4_500, reportedAt: now))
            _ = try await store.updateProfile(member.caller, .with { $0.displayName = "H" })
            _ = try await store.updateProfile(member.caller, .with { $0.displayName = "Hal 9000" })
            try await store.log(other, workout(at: now - 1))                          // not in the member's feed

            let revision = try store.profile(member).revision
            for pageSize in [UInt32(1), 2, 3, 100] {
                let feed = try store.allChanges(member, pageSize: pageSize)
                #expect(feed.revision == revision)
                #expect(zip(feed.changes, feed.changes.dropFirst()).allSatisfy { $0.revision < $1.revision })
                let names = feed.changes.map(Self.describe)
                #expect(Set(names).count == names.count, "an item appears twice: \(names)")
                #expect(Set(names) == [
                    "profile", "achievement workout_1",
                    "workout \(w1.id.base64EncodedString())", "workout \(w2.id.base64EncodedString())",
                    "deleted \(Workout_V1_RecordKind.workout) \(w3.id.base64EncodedString())",
                    "meal \(m1.id.base64EncodedString())", "deleted \(Workout_V1_RecordKind.meal) \(m2.id.base64EncodedString())",
                    "weight \(e1.id.base64EncodedString())", "steps \(today)",
                ])
                #expect(feed.pages == (names.count + Int(pageSize) - 1) / Int(pageSize), "page size \(pageSize)")
                // Current states.
                for change in feed.changes {
                    switch change.item {
                    case .workout(let workout) where workout.id == w2.id:
                        #expect(workout == w2)
                        #expect(workout.caloriesBurned == 999)
                        #expect(change.revision == w2.revision)
                    case .meal(let meal):
                        #expect(meal == m1)
                        #expect(meal.totals.calories == 6)
                    case .steps(let day):
                        #expect(day.steps == 4_500)
                        #expect(day.sources.count == 2)
                    case .profile(let profile):
                        #expect(profile.displayName == "Hal 9000")
                    case .achievement(let achievement):
                        #expect(achievement.unlocked)
                    default: break
                    }
                }
            }

            // Since a revision in the middle: only what changed after it.
            let later = try store.allChanges(member, since: afterWorkouts, pageSize: 4).changes.map(Self.describe)
            #expect(!later.contains("workout \(w1.id.base64EncodedString())"))
            #expect(!later.contains("achievement workout_1"))
            #expect(later.contains("workout \(w2.id.base64EncodedString())"))
            #expect(later.contains("deleted \(Workout_V1_RecordKind.workout) \(w3.id.base64EncodedString())"))

            // Caught up: nothing, no more. Ahead of the server: OUT_OF_RANGE.
            let caughtUp = try store.changes(member.caller, .with { $0.sinceRevision = revision })
            #expect(caughtUp.changes.isEmpty)
            #expect(!caughtUp.hasMore_p)
            #expect(caughtUp.revision == revision)
            await expectDomainError(.outOfRange, field: "since_revision") {
                try store.changes(member.caller, .with { $0.sinceRevision = revision + 1 })
            }
            await expectDomainError(.invalidArgument, field: "page_size") {
                try store.changes(member.caller, .with { $0.pageSize = 501 })
            }
        }
    }

    @Test("Export returns all of one's own data, each kind oldest first, in chunks under the size limit", arguments: [2_048, 4_096, 256 << 10])
    func export(maxChunkBytes: Int) async throws {
        try await withHousehold { household in
            let store = household.store
            let member = try await household.addMember("Jay")
            let other = try await household.addMember("Kim")
            let now = household.clock.nowMilliseconds()
            var workouts: [Workout_V1_Workout] = [], meals: [Workout_V1_Meal] = [], weights: [Workout_V1_WeightEntry] = []
            for index in 0..<60 {
                household.clock.advance(by: 1_000)
                let at = now - Int64(60 - index) * 7_200_000
                workouts.append(try await store.log(member, workout(at: at, notes: String(repeating: "n", count: 200))).workout)
                if index % 2 == 0 { meals.append(try await store.log(member, meal(at: at + 1, items: [100, 200, 300, 400, 500])).meal) }
                if index % 3 == 0 { weights.append(try await store.log(member, weightEntry(kg: 70 + Double(index) / 10, at: at + 2)).entry) }
                if index % 6 == 0 {
                    // Ten days back from today, one per sixth workout.
                    let day = LocalDay.containing(instant: now, in: TimeZone(identifier: "UTC")!).adding(days: -Int32(index / 6))
                    try await store.report(member, stepsReport(day: day, source: "phone", steps: UInt32(1_000 + index), reportedAt: at))
                    try await store.report(member, stepsReport(day: day, source: "watch", steps: UInt32(900 + index), reportedAt: at))
                }
            }
            try await store.deleteWorkout(member, id: workouts.removeFirst().id)
            try await store.deleteMeal(member, id: meals.removeLast().id)
            try await store.log(other, workout(at: now))
            // Goals from three days: a history of three entries, and the other member's, not exported.
            var goalEntries: [Workout_V1_GoalsEntry] = []
            for (back, steps) in [(20, UInt32(6_000)), (10, 7_000), (0, 8_000)] {
                var request = Workout_V1_SetGoalsRequest()
                request.set.dailySteps = steps
                request.effectiveFrom = LocalDay.containing(instant: now, in: TimeZone(identifier: "Europe/Berlin")!).adding(days: -Int32(back)).wire
                goalEntries.append(try await store.setGoals(member.caller, request).entry)
                _ = try await store.setGoals(other.caller, request)
            }
            workouts = try store.allWorkouts(member).reversed()                       // their current states

            let chunks = try store.export(member.caller, maxChunkBytes: maxChunkBytes)
            for chunk in chunks {
                let size = (try chunk.serializedBytes() as [UInt8]).count
                #expect(size <= maxChunkBytes, "a chunk of \(size) bytes")
            }
            if maxChunkBytes == 256 << 10 { #expect(chunks.count == 1) } else { #expect(chunks.count > 3) }
            let profile = try store.profile(member)
            #expect(chunks.first?.profile == profile.profile)
            #expect(chunks.first?.totals == profile.totals)
            #expect(chunks.dropFirst().allSatisfy { !$0.hasProfile && !$0.hasTotals })
            #expect(chunks.allSatisfy { $0.revision == profile.revision && $0.exportedAtMs == household.clock.nowMilliseconds() })
            #expect(chunks.flatMap(\.workouts) == workouts)
            #expect(chunks.flatMap(\.meals) == meals)
            #expect(chunks.flatMap(\.weights) == weights)
            let expectedSteps: [UInt32] = (0..<10).reversed().map { UInt32(1_000 + $0 * 6) }
            #expect(chunks.flatMap(\.steps).map(\.steps) == expectedSteps)
            #expect(chunks.flatMap(\.steps).allSatisfy { $0.sources.count == 2 })
            let achievements = chunks.flatMap(\.achievements)
            #expect(achievements.count == Int(profile.totals.achievementsUnlocked))
            // Six Berlin days in a row (May 27 to June 1) also unlock streak_3, after workout_1.
            #expect(Set(achievements.map(\.achievementID)) == ["workout_1", "streak_3", "workout_10", "workout_50"])
            #expect(achievements.map(\.unlockedAtMs) == achievements.map(\.unlockedAtMs).sorted(), "achievements oldest first")
            #expect(achievements.allSatisfy { $0.unlocked })
            #expect(chunks.flatMap(\.goals) == goalEntries, "the goal history, oldest first")
        }
    }

    /// PROTOCOL.md, Streams.Export: each chunk is read when it is made, so a change during a long
    /// export shows as it is then (with a revision above the export's), and the change log from
    /// the export's revision brings the copy to the present.
    @Test("An export made chunk by chunk shows later changes as they are, and Changes from its revision converge")
    func exportChunkByChunkAndConverge() async throws {
        try await withHousehold { household in
            let store = household.store
            let member = try await household.addMember("Lee")
            let now = household.clock.nowMilliseconds()
            var meals: [Workout_V1_Meal] = []
            for index in 0..<20 {
                meals.append(try await store.log(member, meal(at: now - Int64(20 - index) * 3_600_000, items: [100, 200, 300])).meal)
            }
            var cursor = try store.beginExport(member.caller)
            let first = try #require(try store.nextExportChunk(&cursor, maxChunkBytes: 1_024))
            let exported = first.meals.count
            #expect(exported > 0 && exported < 20)
            // Meanwhile: a meal not yet exported is deleted, a newer meal is logged (ahead of the
            // cursor), and a workout (a kind the export has passed).
            _ = try await store.deleteMeal(member, id: meals[19].id)
            let late = try await store.log(member, meal(at: now, items: [50])).meal
            let workout = try await store.log(member, workout(at: now)).workout
            var chunks = [first]
            while let chunk = try store.nextExportChunk(&cursor, maxChunkBytes: 1_024) { chunks.append(chunk) }
            #expect(chunks.allSatisfy { $0.revision == cursor.revision })
            #expect(chunks.flatMap(\.meals).map(\.id) == meals.dropLast().map(\.id) + [late.id], "the deleted meal is missing, the new one there")
            #expect(chunks.flatMap(\.meals).last.map { $0.revision > cursor.revision } == true)
            #expect(chunks.flatMap(\.workouts).isEmpty, "workouts were passed before it was logged")
            // Changes from the export's revision name all three, so a client converges.
            let changes = try store.changes(member.caller, .with { $0.sinceRevision = cursor.revision; $0.pageSize = 100 }).changes
            #expect(changes.contains { $0.deleted.kind == .meal && $0.deleted.id == meals[19].id })
            #expect(changes.contains { $0.meal.id == late.id })
            #expect(changes.contains { $0.workout.id == workout.id })
        }
    }
}
