import Foundation
import Testing
import WorkoutCore
import WorkoutProtocol

/// PROTOCOL.md 19, Weight: deleting the entry that set the profile's weight hands it to the
/// newest remaining entry; deleting the only entry leaves the weight as it was.
@Suite("The profile's weight after deleting weight entries")
struct ProfileWeightTests {
    @Test("Deleting the newest entry sets the next newest's weight; deleting the only one keeps the weight")
    func deleteNewestThenOnly() async throws {
        try await withHousehold { household in
            let store = household.store
            let member = try await household.addMember("Nina")
            let older = weightEntry(kg: 70, at: householdStart - 7_200_000)
            let newest = weightEntry(kg: 68, at: householdStart - 3_600_000)
            try await store.log(member, older)
            try await store.log(member, newest)
            #expect(try store.profile(member).profile.weightKg == 68)

            let revision = try store.profile(member).revision
            try await store.deleteWeight(member, id: newest.id)
            #expect(try store.profile(member).profile.weightKg == 70)
            let changes = try store.changes(member.caller, .with { $0.sinceRevision = revision })
            #expect(changes.changes.contains { $0.profile.weightKg == 70 })

            try await store.deleteWeight(member, id: older.id)
            #expect(try store.profile(member).profile.weightKg == 70)
            #expect(try store.allWeights(member).isEmpty)

            // The next entry logged sets it again, whatever its time.
            try await store.log(member, weightEntry(kg: 72, at: householdStart - 86_400_000))
            #expect(try store.profile(member).profile.weightKg == 72)
        }
    }

    @Test("Deleting an entry that did not set the profile's weight leaves it alone")
    func deleteOlder() async throws {
        try await withHousehold { household in
            let store = household.store
            let member = try await household.addMember("Nina")
            let older = weightEntry(kg: 70, at: householdStart - 7_200_000)
            try await store.log(member, older)
            try await store.log(member, weightEntry(kg: 68, at: householdStart - 3_600_000))
            try await store.deleteWeight(member, id: older.id)
            #expect(try store.profile(member).profile.weightKg == 68)
        }
    }
}
