import Foundation
import Testing
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

/// Logging.UpdateWeight (310) works as UpdateWorkout and UpdateMeal do: NOT_FOUND, expected
/// revision, the change log and Watch; and it keeps the profile's weight on the newest entry.
@Suite("Logging.UpdateWeight")
struct UpdateWeightTests {
    private func update(_ store: HouseholdStore, _ member: Member, _ entry: Workout_V1_WeightEntry, expected: UInt64 = 0) async throws -> Workout_V1_UpdateWeightResponse {
        var request = Workout_V1_UpdateWeightRequest()
        request.entry = entry
        request.expectedRevision = expected
        return try await store.updateWeight(member.caller, request)
    }

    @Test("Correcting the newest entry changes the entry, the profile's weight and the change feed")
    func correctNewest() async throws {
        try await withHousehold { household in
            let store = household.store
            let member = try await household.addMember("Nina")
            let older = weightEntry(kg: 70, at: householdStart - 7_200_000)
            var newest = weightEntry(kg: 95, at: householdStart - 3_600_000, note: "typo")
            try await store.log(member, older)
            let logged = try await store.log(member, newest)
            newest.weightKg = 59
            newest.note = "fixed"
            let updated = try await update(store, member, newest, expected: logged.entry.revision)
            #expect(updated.entry.weightKg == 59 && updated.entry.note == "fixed")
            #expect(updated.entry.revision > logged.entry.revision)
            #expect(updated.entry.createdAtMs == logged.entry.createdAtMs)
            #expect(updated.entry.timeZone == "Europe/Berlin" && updated.entry.localDay.year == 2026)
            #expect(updated.profileWeightUpdated && updated.profileWeightKg == 59)
            let profile = try store.profile(member)
            #expect(profile.profile.weightKg == 59)
            #expect(try store.allWeights(member).map(\.weightKg) == [70, 59])

            let changes = try store.changes(member.caller, .with { $0.sinceRevision = logged.entry.revision })
            #expect(changes.changes.contains { $0.weight.id == newest.id && $0.weight.weightKg == 59 })
            #expect(changes.changes.contains { $0.profile.weightKg == 59 })
            #expect(profile.revision == changes.revision)
        }
    }

    @Test("Moving the entry that set the profile's weight behind another hands the weight to the newest")
    func moveBack() async throws {
        try await withHousehold { household in
            let store = household.store
            let member = try await household.addMember("Nina")
            let older = weightEntry(kg: 70, at: householdStart - 7_200_000)
            var newest = weightEntry(kg: 68, at: householdStart - 3_600_000)
            try await store.log(member, older)
            try await store.log(member, newest)
            newest.measuredAtMs = householdStart - 10_800_000
            let updated = try await update(store, member, newest)
            #expect(updated.profileWeightUpdated && updated.profileWeightKg == 70)
            #expect(try store.profile(member).profile.weightKg == 70)

            // An older entry moved ahead of all the others sets it.
            var moved = older
            moved.measuredAtMs = householdStart - 60_000
            moved.weightKg = 69.5
            let ahead = try await update(store, member, moved)
            #expect(ahead.profileWeightUpdated && ahead.profileWeightKg == 69.5)
            // Editing an entry that is not the newest leaves the profile alone.
            newest.weightKg = 67
            let behind = try await update(store, member, newest)
            #expect(!behind.profileWeightUpdated && behind.profileWeightKg == 69.5)
        }
    }

    @Test("NOT_FOUND, ABORTED and bounds as for the other updates; the same content changes nothing")
    func statuses() async throws {
        try await withHousehold { household in
            let store = household.store
            let member = try await household.addMember("Nina")
            let other = try await household.addMember("Oleg")
            let entry = weightEntry(kg: 70, at: householdStart - 3_600_000, zone: "Europe/Berlin")
            let logged = try await store.log(member, entry)
            await expectDomainError(.notFound) { try await update(store, member, weightEntry(kg: 70, at: householdStart - 60_000)) }
            await expectDomainError(.notFound) { try await update(store, other, entry) }
            await expectDomainError(.aborted) { try await update(store, member, entry, expected: logged.entry.revision + 1) }
            var heavy = entry
            heavy.weightKg = 501
            await expectDomainError(.invalidArgument, field: "entry.weight_kg") { try await update(store, member, heavy) }

            let before = try store.profile(member).revision
            let same = try await update(store, member, entry, expected: logged.entry.revision)
            #expect(same.entry == logged.entry && !same.profileWeightUpdated && same.profileWeightKg == 70)
            #expect(try store.profile(member).revision == before)
        }
    }
}
