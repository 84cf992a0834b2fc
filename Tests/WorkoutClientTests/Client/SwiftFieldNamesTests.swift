import ClientTestSupport
import Foundation
import ServerTestSupport
import Testing
@testable import WorkoutClient

/// Errors name the Swift call and its argument's properties, and keep the wire's names.
@Suite("Errors in the Swift API's terms")
struct SwiftFieldNamesTests {
    @Test("wire field paths become the Swift call's argument and property path", arguments: [
        ("workout.duration_seconds", "Logging.LogWorkout", "workout.durationSeconds"),
        ("workout.workout_type", "Logging.UpdateWorkout", "workout.type"),
        ("workout.performed_at_ms", "Logging.LogWorkout", "workout.performedAt"),
        ("meal.items[3].protein_g", "Logging.LogMeal", "meal.items[3].proteinG"),
        ("entry.weight_kg", "Logging.LogWeight", "entry.weightKg"),
        ("records[7].weight_entry.measured_at_ms", "Logging.ImportRecords", "records[7].weight.measuredAt"),
        ("time_zone", "Profile.UpdateProfile", "update.timeZone"),
        ("height_cm", "Profile.UpdateProfile", "update.heightCm"),
        ("profile.first_name", "Auth.Register", "member.firstName"),
        ("invite_code", "Auth.Register", "inviteCode"),
        ("since_revision", "Queries.Changes", "since"),
        ("from_day", "Queries.Summaries", "from"),
        ("new_password", "Auth.ChangePassword", "new"),
        ("expires_in_seconds", "Admin.CreateInvite", "expiresIn"),
        ("page_size", "Queries.WorkoutHistory", "pageSize"),
    ])
    func swiftPath(wire: String, method: String, swift: String) {
        #expect(SwiftFieldNames.swiftPath(of: wire, method: method) == swift)
    }

    @Test("only whole names are replaced in a message", arguments: [
        ("time_zone must be an IANA zone", "time_zone", "timeZone", "timeZone must be an IANA zone"),
        ("workout.time_zone is not time_zone.", "time_zone", "timeZone", "workout.time_zone is not timeZone."),
        ("Auth.Login failed", "Auth.Login", "login(email:password:)", "login(email:password:) failed"),
        ("page_sizes", "page_size", "pageSize", "page_sizes"),
    ])
    func wholeWords(text: String, word: String, replacement: String, expected: String) {
        #expect(SwiftFieldNames.replacingWholeOccurrences(of: word, with: replacement, in: text) == expected)
    }

    @Test("a refused log names workout.durationSeconds, keeps the wire's workout.duration_seconds")
    func liveRefusal() async throws {
        try await LiveServer.run { live in
            let client = live.client()
            _ = try await client.login(email: ownerEmail, password: ownerPassword)
            let refused = try #require(await failure { _ = try await client.logWorkout(Workout(type: "running", durationSeconds: 0)) })
            #expect(refused.code == .invalidArgument)
            #expect(refused.field == "workout.durationSeconds")
            #expect(refused.wireField == "workout.duration_seconds")
            #expect(refused.message.hasPrefix("workout.durationSeconds must be"), "\(refused.message)")
            #expect(!refused.message.contains("duration_seconds"))
            #expect(refused.description.hasSuffix("(wire field workout.duration_seconds)"), "\(refused)")

            var update = ProfileUpdate()
            update.timeZone = "Nowhere/Special"
            let zone = try #require(await failure { _ = try await client.updateProfile(update) })
            #expect(zone.field == "update.timeZone")
            #expect(zone.wireField == "time_zone")
            client.close()
        }
    }

    @Test("a message of the client's own names the Swift method, not the wire's")
    func clientMessages() async {
        let client = WorkoutClient(configuration: .init(
            address: ServerAddress(host: "192.0.2.1", port: 9), transportSecurity: .plainTCP()))
        let refused = await failure { _ = try await client.login(email: "ida@example.com", password: "a long password") }
        #expect(refused?.code == .failedPrecondition)
        #expect(refused?.message.contains("(login(email:password:))") == true, "\(String(describing: refused))")
        #expect(refused?.message.contains("Auth.Login") == false)
        client.close()
    }
}
