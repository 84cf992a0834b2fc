import ClientTestSupport
import Foundation
import ServerTestSupport
import TestSupport
import Testing
import WorkoutClient
import WorkoutOffline

/// A value out of bounds is refused on the device with its field, online and offline, and
/// never clamped into range: a steps report of -1 once went out as 0 and replaced the phone's
/// 9,100 steps of that day.
@Suite("Records out of bounds are refused, online and offline, never clamped")
struct RecordRefusalTests {
    /// The refusal every path gives a report of -1 steps: the server's message, in Swift terms.
    static func expectStepsRefusal(_ error: WorkoutError?, field: String = "report.steps", _ path: String) {
        #expect(error?.code == .invalidArgument, "\(path)")
        #expect(error?.field == field, "\(path)")
        #expect(error?.message == "\(field) must be between 0 and 200000 (got -1)", "\(path)")
    }

    @Test("A steps report of -1 is refused sent, queued and offline with report.steps, and the stored 9,100 stays")
    func negativeSteps() async throws {
        try await LiveServer.run { live in
            let client = live.client()
            _ = try await client.login(email: ownerEmail, password: ownerPassword)
            let day = LocalDate.today(in: TimeZone(identifier: "UTC")!)
            let phone = StepsReport(day: day, source: "phone", steps: 9_100, reportedAt: Date().addingTimeInterval(-60))
            #expect(try await client.reportSteps(phone).applied)
            let bad = StepsReport(day: day, source: "phone", steps: -1)

            Self.expectStepsRefusal(await failure { _ = try await client.reportSteps(bad) }, "online")
            Self.expectStepsRefusal(await failure { _ = try await client.send(.reportSteps(bad)) }, "send")
            Self.expectStepsRefusal(await failure { try bad.validate() }, field: "steps", "a form")
            try await withTemporaryDirectory { directory in
                let outbox = try Outbox(path: directory + "/outbox.log", account: "olga@example.com on loopback")
                Self.expectStepsRefusal(await failure { try outbox.enqueue(.reportSteps(bad)) }, "queued")
                Self.expectStepsRefusal(await failure { _ = try await client.perform(.reportSteps(bad), queueingIn: outbox) }, "perform")
                let offline = WorkoutClient(configuration: .init(
                    address: ServerAddress(host: "127.0.0.1", port: try unusedLoopbackPort()), connectTimeout: .seconds(2),
                    reconnect: .interactive, transportSecurity: .plainTCP()))
                Self.expectStepsRefusal(await failure { _ = try await offline.perform(.reportSteps(bad), queueingIn: outbox) }, "offline")
                #expect(outbox.isEmpty)
                outbox.close()
            }

            // The phone's figure is still the day's: sending it again changes nothing.
            let again = try await client.reportSteps(phone)
            #expect(!again.applied)
            #expect(again.day.steps == 9_100)
        }
    }

    @Test("A negative duration or count is refused with its Swift field, not sent as 0")
    func negativeDurationsAndCounts() async throws {
        let running = Workout(type: "running", durationSeconds: 1_800, performedAt: Date().addingTimeInterval(-600))
        var negative = running
        negative.durationSeconds = -60
        var error = await failure { try negative.validate() }
        #expect(error?.field == "durationSeconds")
        #expect(error?.wireField == "duration_seconds")
        #expect(error?.message == "durationSeconds must be between 1 and 86400 (got -60)")
        negative = running
        negative.exercisesCompleted = -1
        error = await failure { try negative.validate() }
        #expect(error?.field == "exercisesCompleted")
        let offline = WorkoutClient(configuration: .init(
            address: ServerAddress(host: "127.0.0.1", port: try unusedLoopbackPort()), connectTimeout: .seconds(2),
            reconnect: .interactive, transportSecurity: .plainTCP()))
        error = await failure { _ = try await offline.logWorkout(negative) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.field == "workout.exercisesCompleted")
        #expect(error?.message == "workout.exercisesCompleted must be between 0 and 1000 (got -1)")
    }

    @Test("A control character in a workout type is refused on the device, as the server refuses it")
    func controlCharacterInType() async throws {
        let bell = Workout(type: "run\u{7}", durationSeconds: 1_800, performedAt: Date().addingTimeInterval(-600))
        let error = await failure { try bell.validate() }
        #expect(error?.field == "type")
        #expect(error?.message == "type must not contain control characters (found U+0007)")
    }
}
