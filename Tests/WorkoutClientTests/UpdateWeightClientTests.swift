import ClientTestSupport
import Foundation
import ServerTestSupport
import TestSupport
import Testing
import WorkoutClient

/// `WorkoutClient.updateWeight`, end to end: like `updateMeal`, the full record with an
/// optional expected revision; the answer carries the profile's weight after it.
@Suite("Client updateWeight, end to end")
struct UpdateWeightClientTests {
    @Test("A weigh-in is corrected; the profile follows; a stale revision is ABORTED; an unknown id NOT_FOUND")
    func updateWeight() async throws {
        try await LiveServer.run { live in
            let owner = live.client()
            _ = try await owner.login(email: ownerEmail, password: ownerPassword)
            let logged = try await owner.logWeight(WeightEntry(weightKg: 95, measuredAt: Date().addingTimeInterval(-600)))
            var corrected = logged.entry
            corrected.weightKg = 59
            let updated = try await owner.updateWeight(corrected, expectedRevision: logged.entry.revision)
            #expect(updated.entry.weightKg == 59 && updated.entry.revision > logged.entry.revision)
            #expect(updated.profileWeightUpdated && updated.profileWeightKg == 59)
            #expect(try await owner.profile().profile.weightKg == 59)
            let stale = await failure { _ = try await owner.updateWeight(corrected, expectedRevision: logged.entry.revision) }
            #expect(stale?.code == .aborted)
            let unknown = await failure { _ = try await owner.updateWeight(WeightEntry(weightKg: 70)) }
            #expect(unknown?.code == .notFound)
        }
    }
}
