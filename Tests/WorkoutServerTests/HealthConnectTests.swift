import Crypto
import Foundation
import ServerTestSupport
import Testing
import TestSupport
import WorkoutProtocol
import WorkoutServer

/// The Android members' way in: what HC Webhook and Life Dashboard Companion post from Health
/// Connect, written here from their published formats (HC Webhook's `docs/webhook.md`, Life
/// Dashboard Companion's README and `WebhookSupport.signature`), through the real server: each
/// posted twice and stored once, the same figures as logging the same records live, a signed
/// token's bad signature refused with nothing stored, one bad record counted and skipped.
@Suite("Health Connect ingest")
struct HealthConnectTests {
    /// The fixture's days in the members' zone (Europe/Berlin, +01:00 in November).
    static let days = ["2026-11-02", "2026-11-03", "2026-11-04"]

    /// Milliseconds of a local time on `day` (+01:00).
    static func milliseconds(_ day: String, _ hour: Int, _ minute: Int = 0) -> Int64 {
        HealthAutoExportTests.milliseconds(day, hour, minute)
    }

    /// A local time as the apps write it: Java's `Instant.toString()`, in UTC with a fraction.
    static func instant(_ day: String, _ hour: Int, _ minute: Int = 0) -> String {
        let date = Date(timeIntervalSince1970: Double(milliseconds(day, hour, minute)) / 1_000)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    /// Google Fit's steps per hour 8...19 on day `index`; Samsung Health counts less.
    static func steps(_ index: Int, samsung: Bool) -> Int { samsung ? 300 + index * 5 : 400 + index * 10 }

    /// A push of the fixture's records. HC Webhook's records carry their app
    /// (`metadata.data_origin`) and its exercise types are Health Connect's numbers; Life
    /// Dashboard Companion's carry no app, and a type may be written by name.
    static func push(hcWebhook: Bool) -> [UInt8] {
        func origin(_ package: String) -> String {
            hcWebhook ? #", "metadata": {"data_origin": "\#(package)", "recording_method": "automatically_recorded"}"# : ""
        }
        var steps: [String] = []
        for (index, day) in days.enumerated() {
            for hour in 8...19 {
                steps.append(#"{"count": \#(Self.steps(index, samsung: false)), "start_time": "\#(instant(day, hour))", "end_time": "\#(instant(day, hour, 59))"\#(origin("com.google.android.apps.fitness"))}"#)
                if hcWebhook {
                    steps.append(#"{"count": \#(Self.steps(index, samsung: true)), "start_time": "\#(instant(day, hour, 30))", "end_time": "\#(instant(day, hour, 45))"\#(origin("com.sec.android.app.shealth"))}"#)
                }
            }
        }
        let scale = origin("com.withings.wiscale2")
        let food = origin("com.myfitnesspal.android")
        let fit = origin("com.google.android.apps.fitness")
        let run = hcWebhook ? "56" : #""running""#
        return Array("""
        {"timestamp": "2026-11-04T21:00:00.123Z", "app_version": "2.0.1"\(hcWebhook ? "" : #", "source": "health_connect""#),
         "steps": [\(steps.joined(separator: ","))],
         "weight": [{"kilograms": 72.0, "time": "\(instant(days[0], 7))"\(scale)}, {"kilograms": 71.5, "time": "\(instant(days[2], 7))"\(scale)}],
         "nutrition": [
           {"calories": 420, "protein_grams": 21, "carbs_grams": 55, "fat_grams": 12.5, "start_time": "\(instant(days[1], 8))", "end_time": "\(instant(days[1], 8, 20))"\(food)},
           {"calories": 760, "protein_grams": 44, "name": "Lasagne", "start_time": "\(instant(days[1], 19))", "end_time": "\(instant(days[1], 19, 40))"\(food)}],
         "exercise": [
           {"type": \(run), "start_time": "\(instant(days[0], 18))", "end_time": "\(instant(days[0], 18, 30))", "duration_seconds": 1800, "distance_meters": 5633.0, "steps": 4100\(fit)},
           {"type": "70", "start_time": "\(instant(days[2], 17))", "end_time": "\(instant(days[2], 17, 45))", "duration_seconds": 2700\(fit)}],
         "heart_rate": [{"bpm": 72, "time": "\(instant(days[0], 9))"}, {"bpm": 75, "time": "\(instant(days[0], 10))"}],
         "sleep": [{"session_end_time": "\(instant(days[1], 7))", "duration_seconds": 28800, "stages": []}]
        }
        """.utf8)
    }

    /// The same records, logged live by `client` (Google Fit's steps, the larger source, count).
    static func logLive(_ client: TestConnection) throws {
        for (index, day) in days.enumerated() {
            var report = Workout_V1_ReportStepsRequest()
            let parts = day.split(separator: "-").map { Int32($0)! }
            report.report.day.year = parts[0]
            report.report.day.month = parts[1]
            report.report.day.day = parts[2]
            report.report.source = "Google Fit"
            report.report.steps = UInt32(steps(index, samsung: false) * 12)
            report.report.reportedAtMs = milliseconds(day, 20)
            _ = try client.call(MethodCatalog.reportSteps, report)
        }
        for (day, kilograms) in [(days[0], 72.0), (days[2], 71.5)] {
            var weight = Workout_V1_LogWeightRequest()
            weight.entry.id = newID()
            weight.entry.weightKg = kilograms
            weight.entry.measuredAtMs = milliseconds(day, 7)
            _ = try client.call(MethodCatalog.logWeight, weight)
        }
        try HealthAutoExportTests.logMeals(client)
        for (day, hour, type, seconds) in [(days[0], 18, "running", UInt32(1_800)), (days[2], 17, "strength", 2_700)] {
            var workout = Workout_V1_LogWorkoutRequest()
            workout.workout = WorkoutServerTests.workout(type: type, at: milliseconds(day, hour))
            workout.workout.durationSeconds = seconds
            workout.workout.caloriesBurned = 0
            _ = try client.call(MethodCatalog.logWorkout, workout)
        }
    }

    /// What the endpoint answers.
    struct Answer: Decodable, Equatable {
        var workouts: Int, meals: Int, weightEntries: Int, stepsReports: Int, stepsSamples: Int, unchanged: Int
        var skipped: [String: Int]
        var refused: [String: Int]
        var refusals: [String]
    }

    /// `X-Signature` of `body` under `secret`, as Life Dashboard Companion computes it.
    static func signature(_ body: [UInt8], secret: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Array(secret.utf8)))
        return "sha256=" + mac.map { String(format: "%02x", $0) }.joined()
    }

    /// A member in Europe/Berlin with an import token (signed or not) on an HTTP client.
    static func androidMember(
        port: Int, owner: TestConnection, email: String, signed: Bool
    ) throws -> (member: TestConnection, phone: HTTPTestClient, secret: String) {
        let (member, _) = try TestConnection.member(port: port, invitedBy: owner, email: email)
        var zone = Workout_V1_UpdateProfileRequest()
        zone.timeZone = "Europe/Berlin"
        _ = try member.call(MethodCatalog.updateProfile, zone)
        var create = Workout_V1_CreateDeviceTokenRequest()
        create.name = signed ? "Life Dashboard Companion" : "HC Webhook"
        create.scopes = [.import]
        create.signed = signed
        let created = try member.call(MethodCatalog.createDeviceToken, create)
        let phone = try HTTPTestClient(port: port)
        phone.token = created.token
        return (member, phone, created.signingSecret)
    }

    @Test("An iPhone member and two Android members (HC Webhook, Life Dashboard Companion signed): each push posted twice, stored once, the figures of logging live")
    func household() async throws {
        try await withServer(tls: false) { _, _, port in
            try await blocking {
                let owner = try TestConnection.owner(port: port)
                var zone = Workout_V1_UpdateProfileRequest()
                zone.timeZone = "Europe/Berlin"
                _ = try owner.call(MethodCatalog.updateProfile, zone)
                // The iPhone member: Health Auto Export, as its own suite tests it.
                let iphone = try HealthAutoExportTests.phone(owner: owner, port: port)
                #expect(try iphone.request("POST", "/ingest/health-auto-export", body: HealthAutoExportTests.fixture).status == 200)

                let hc = try Self.androidMember(port: port, owner: owner, email: "ola@example.com", signed: false)
                let ldc = try Self.androidMember(port: port, owner: owner, email: "kai@example.com", signed: true)
                #expect(ldc.secret.count == 40 && ldc.secret.allSatisfy(\.isHexDigit), "\(ldc.secret)")
                #expect(hc.secret.isEmpty)

                // HC Webhook: 36 Google Fit and 36 Samsung Health samples into 6 sources' days.
                let hcBody = Self.push(hcWebhook: true)
                let first = try hc.phone.request("POST", "/ingest/health-connect", contentType: "application/json; charset=utf-8", body: hcBody)
                #expect(first.status == 200, "\(first.text)")
                let skipped = ["heart_rate": 2, "sleep": 1]
                #expect(try JSONDecoder().decode(Answer.self, from: Data(first.body)) == Answer(
                    workouts: 2, meals: 2, weightEntries: 2, stepsReports: 6, stepsSamples: 72, unchanged: 0,
                    skipped: skipped, refused: [:], refusals: []))
                let hcAgain = try hc.phone.request("POST", "/ingest/health-connect", contentType: "application/json; charset=utf-8", body: hcBody)
                #expect(try JSONDecoder().decode(Answer.self, from: Data(hcAgain.body)) == Answer(
                    workouts: 0, meals: 0, weightEntries: 0, stepsReports: 0, stepsSamples: 0, unchanged: 78,
                    skipped: skipped, refused: [:], refusals: []))

                // Life Dashboard Companion, signed: a wrong signature, or none, is refused and stores nothing.
                let revisionBefore = try ldc.member.call(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).revision
                let ldcBody = Self.push(hcWebhook: false)
                // A 401 to a request with a bearer token closes its connection (PROTOCOL.md 25.3):
                // each refused post is on a connection of its own, as the app's retries are.
                func fresh() throws -> HTTPTestClient {
                    let client = try HTTPTestClient(port: port)
                    client.token = ldc.phone.token
                    return client
                }
                let forged = try fresh().request("POST", "/ingest/health-connect", body: ldcBody,
                                                   headers: [("X-Signature", Self.signature(ldcBody, secret: "not the secret"))])
                #expect(forged.status == 401 && forged.text.contains("X-Signature"), "\(forged.text)")
                let unsigned = try fresh().request("POST", "/ingest/health-connect", body: ldcBody)
                #expect(unsigned.status == 401 && unsigned.text.contains("no X-Signature"), "\(unsigned.text)")
                let malformed = try fresh().request("POST", "/ingest/health-connect", body: ldcBody, headers: [("X-Signature", "sha256=xyz")])
                #expect(malformed.status == 401, "\(malformed.text)")
                #expect(try ldc.member.call(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).revision == revisionBefore)
                // Signed right: stored, once.
                let signature = Self.signature(ldcBody, secret: ldc.secret)
                let signedPost = try ldc.phone.request("POST", "/ingest/health-connect", body: ldcBody, headers: [("X-Signature", signature)])
                #expect(signedPost.status == 200, "\(signedPost.text)")
                #expect(try JSONDecoder().decode(Answer.self, from: Data(signedPost.body)) == Answer(
                    workouts: 2, meals: 2, weightEntries: 2, stepsReports: 3, stepsSamples: 36, unchanged: 0,
                    skipped: skipped, refused: [:], refusals: []))
                let signedAgain = try ldc.phone.request("POST", "/ingest/health-connect", body: ldcBody, headers: [("X-Signature", signature)])
                #expect(try JSONDecoder().decode(Answer.self, from: Data(signedAgain.body)).unchanged == 42)
                // A signed token speaks only to the ingest endpoints: not to the catalog, on either face.
                let catalogCall = try ldc.phone.request("POST", MethodCatalog.getProfile.descriptor.httpPath, body: Array("{}".utf8))
                #expect(catalogCall.status == 403 && catalogCall.text.contains("signs its posts"), "\(catalogCall.text)")
                // Nor on the binary face, where Resume would answer the member's profile.
                let binary = try TestConnection(port: port)
                try binary.handshake()
                var resume = Workout_V1_ResumeRequest()
                resume.sessionToken = try #require(ldc.phone.token)
                #expect(try binary.status(MethodCatalog.resume, resume).0 == .permissionDenied)
                // …and the unsigned token's X-Signature is not read.
                #expect(try hc.phone.request("POST", "/ingest/health-connect", body: hcBody, headers: [("X-Signature", "sha256=00")]).status == 200)

                // The same records logged live, by a fourth member in the same zone.
                let (live, _) = try TestConnection.member(port: port, invitedBy: owner, email: "live@example.com")
                _ = try live.call(MethodCatalog.updateProfile, zone)
                try Self.logLive(live)
                let logged = try HealthAutoExportTests.summaries(live)
                #expect(logged.map(\.steps) == [4_800, 4_920, 5_040])
                for android in [hc.member, ldc.member] {
                    let imported = try HealthAutoExportTests.summaries(android)
                    #expect(imported.map(\.steps) == logged.map(\.steps))
                    #expect(imported.map(\.caloriesEaten) == logged.map(\.caloriesEaten))
                    #expect(imported.map(\.workouts) == logged.map(\.workouts))
                    #expect(imported.map(\.activeSeconds) == logged.map(\.activeSeconds))
                    let totals = try android.call(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).totals
                    #expect(totals.totalWorkouts == 2)
                    let weights = try android.call(MethodCatalog.weightProgress, Workout_V1_WeightProgressRequest()).entries.map(\.weightKg)
                    #expect(weights == [72.0, 71.5])
                    let workouts = try android.call(MethodCatalog.workoutHistory, Workout_V1_WorkoutHistoryRequest()).workouts
                    #expect(Set(workouts.map(\.workoutType)) == ["running", "strength"])
                    let run = try #require(workouts.first { $0.workoutType == "running" })
                    #expect(run.distanceM == 5_633 && run.steps == 4_100 && run.location == .unspecified)
                }
                // The day's figure names the app it came from: Google Fit, the larger of two.
                var changes = Workout_V1_ChangesRequest()
                changes.pageSize = 500
                let counted = try hc.member.call(MethodCatalog.changes, changes).changes.compactMap { change -> String? in
                    if case .steps(let day) = change.item { return day.countedSource }
                    return nil
                }
                #expect(Set(counted) == ["Google Fit"], "\(counted)")
                // Each member's data is their own: the iPhone member's steps are not the Android members'.
                #expect(try HealthAutoExportTests.summaries(owner).map(\.steps) == [5_400, 5_520, 5_640])
            }
        }
    }

    @Test("One bad record of a push is counted and named, the rest stored; partial pushes add up; a body that is no push is refused")
    func badRecordsAndPartialPushes() async throws {
        try await withServer(tls: false) { _, _, port in
            try await blocking {
                let owner = try TestConnection.owner(port: port)
                let android = try Self.androidMember(port: port, owner: owner, email: "ola@example.com", signed: false)
                let day = Self.days[0]
                func post(_ text: String) throws -> (status: Int, answer: Answer?, text: String) {
                    let response = try android.phone.request("POST", "/ingest/health-connect", body: Array(text.utf8))
                    return (response.status, try? JSONDecoder().decode(Answer.self, from: Data(response.body)), response.text)
                }
                let mixed = try post("""
                {"weight": [{"kilograms": 5000, "time": "\(Self.instant(day, 7))"}, {"kilograms": 70.2, "time": "\(Self.instant(day, 8))"}, {"kilograms": "heavy"}],
                 "steps": [{"count": 500, "start_time": "\(Self.instant(day, 9))", "end_time": "\(Self.instant(day, 10))"}],
                 "exercise": [{"type": "9999", "start_time": "\(Self.instant(day, 11))", "duration_seconds": 600},
                              {"type": 57, "start_time": "\(Self.instant(day, 12))", "duration_seconds": 900}]}
                """)
                #expect(mixed.status == 200, "\(mixed.text)")
                let answer = try #require(mixed.answer, "\(mixed.text)")
                #expect(answer.weightEntries == 1 && answer.stepsSamples == 1 && answer.workouts == 1)
                // A treadmill (Health Connect's 57, as a JSON number) is a run done indoors.
                let treadmill = try #require(try android.member.call(MethodCatalog.workoutHistory, Workout_V1_WorkoutHistoryRequest()).workouts.first)
                #expect(treadmill.workoutType == "running" && treadmill.location == .indoor)
                #expect(answer.refused == ["weight": 1] && answer.skipped == ["weight": 1, "exercise": 1], "\(mixed.text)")
                #expect(answer.refusals.count == 1 && answer.refusals[0].hasPrefix("weight[0]: ") && answer.refusals[0].contains("5000"), "\(answer.refusals)")

                // "Since last sync" pushes: a later window adds, an overlapping one changes nothing.
                let later = #"{"steps": [{"count": 700, "start_time": "\#(Self.instant(day, 18))", "end_time": "\#(Self.instant(day, 19))"}]}"#
                #expect(try post(later).answer?.stepsSamples == 1)
                let overlap = #"{"steps": [{"count": 500, "start_time": "\#(Self.instant(day, 9))", "end_time": "\#(Self.instant(day, 10))"}, {"count": 700, "start_time": "\#(Self.instant(day, 18))", "end_time": "\#(Self.instant(day, 19))"}]}"#
                #expect(try post(overlap).answer?.unchanged == 2)
                #expect(try HealthAutoExportTests.summaries(android.member).first?.steps == 1_200)
                // A sample at 23:30 local is 22:30Z: it counts on the member's day, not UTC's.
                let lateEvening = #"{"steps": [{"count": 100, "start_time": "\#(Self.instant(day, 23, 30))", "end_time": "\#(Self.instant(day, 23, 45))"}]}"#
                #expect(try post(lateEvening).answer?.stepsSamples == 1)
                #expect(try HealthAutoExportTests.summaries(android.member).first?.steps == 1_300)

                for body in ["[1, 2]", "not json", #"{"steps": {"count": 1}}"#] {
                    let refused = try post(body)
                    #expect(refused.status == 400 && refused.text.contains("Health Connect push"), "\(body): \(refused.text)")
                }
                // Only the import scope reaches it.
                var create = Workout_V1_CreateDeviceTokenRequest()
                create.name = "reader"
                create.scopes = [.read]
                let reader = try HTTPTestClient(port: port)
                reader.token = try android.member.call(MethodCatalog.createDeviceToken, create).token
                #expect(try reader.request("POST", "/ingest/health-connect", body: Array("{}".utf8)).status == 403)
                // A signed token is for the ingest alone.
                create.signed = true
                #expect(throws: (any Error).self) { try android.member.call(MethodCatalog.createDeviceToken, create) }
            }
        }
    }
}
