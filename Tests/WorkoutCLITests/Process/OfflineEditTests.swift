import Foundation
import ProcessTestSupport
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `workout edit` and `workout delete` of records that still wait in the outbox, as processes
/// against a `workoutd` process that is stopped, then started again on the same port.
@Suite("workout edits and deletes records that wait in the outbox", .serialized)
struct OfflineEditTests {
    @Test("an edit of a record logged offline folds into its queued log; a delete cancels it; sync sends only what is left")
    func foldIntoTheOutbox() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            try await OfflineTests.stopServer(household)

            let workout = try await household.json(["log", "workout", "running", "--minutes", "30", "--calories", "280"])
            let workoutID = try #require((workout["entry"] as? [String: Any])?["recordId"] as? String)
            let edited = try await household.json(["edit", "workout", String(workoutID.prefix(8)), "--minutes", "45", "--notes", "hills"])
            #expect(edited["outcome"] as? String == "folded", "\(edited)")
            #expect(edited["pending"] as? Int == 1, "the edit took no place of its own: \(edited)")
            let entry = try #require(edited["entry"] as? [String: Any])
            #expect(entry["id"] as? Int == 1)
            #expect(entry["action"] as? String == "log", "still the log, with the new fields")
            let record = try #require(entry["record"] as? [String: Any])
            #expect(record["durationSeconds"] as? Int == 2700)
            #expect(record["caloriesBurned"] as? Double == 280, "not given, so kept")
            #expect(record["notes"] as? String == "hills")

            let meal = try await household.json(["log", "meal", "--type", "lunch", "--name", "Soup", "--item", "soup:300"])
            let mealID = try #require((meal["entry"] as? [String: Any])?["recordId"] as? String)
            let cancelled = try await household.succeed(["delete", "meal", mealID])
            #expect(cancelled.contains("Cancelled #2 in the outbox"), "\(cancelled)")
            #expect(cancelled.contains("nothing is sent for it. 1 write waits in the outbox."), "\(cancelled)")

            // Edit, then delete, of one record made offline: nothing at all is sent for it.
            let weight = try await household.json(["log", "weight", "72.4"])
            let weightID = try #require((weight["entry"] as? [String: Any])?["recordId"] as? String)
            let weightEdit = try await household.json(["edit", "weight", weightID, "--weight", "72.0"])
            #expect(weightEdit["outcome"] as? String == "folded", "\(weightEdit)")
            let weightDelete = try await household.json(["delete", "weight", String(weightID.prefix(10))])
            #expect(weightDelete["outcome"] as? String == "cancelled", "\(weightDelete)")
            #expect(weightDelete["pending"] as? Int == 1)

            let waiting = try await household.json(["status"])
            #expect((waiting["pending"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["workout"], "\(waiting)")

            let server = try await OfflineTests.restartServer(household)
            defer { _ = server.stop(SIGTERM) }
            let sync = try await household.succeed(["sync"])
            #expect(sync.contains("Sent 1; the outbox is empty."), "\(sync)")
            let history = try await household.json(["history"])
            let workouts = try #require(history["workouts"] as? [[String: Any]])
            #expect(workouts.count == 1)
            #expect(workouts.first?["id"] as? String == workoutID)
            #expect(workouts.first?["durationSeconds"] as? Int == 2700)
            let today = try await household.json(["today"])
            #expect((today["meals"] as? [Any])?.isEmpty == true, "the cancelled meal was never sent: \(today)")
            let weights = try await household.json(["weight"])
            #expect((weights["entries"] as? [Any])?.isEmpty ?? true, "the cancelled weigh-in was never sent: \(weights)")
            // And the server never saw them: deleting them there finds nothing.
            let gone = try await household.workout(["delete", "meal", mealID])
            #expect(gone.status == 66, "\(gone)")
        }
    }
}
