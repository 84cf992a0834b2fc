import Foundation
import Testing
import WorkoutClient
import WorkoutOffline

extension HouseholdAppTests {
    /// Values out of bounds are refused with the field named, never clamped: on the device
    /// (`validate()`), by the server, and by the outbox before anything is queued.
    @Suite struct BoundsTests {
        @Test func validateOnTheDevice() {
            let today = LocalDate.today(in: .gmt)
            let steps = #expect(throws: WorkoutError.self) {
                try StepsReport(day: today, source: "phone", steps: -1).validate()
            }
            #expect(steps?.code == .invalidArgument)
            #expect(steps?.field == "steps")
            #expect(steps.map(wordingProblems) == [])
            let duration = #expect(throws: WorkoutError.self) {
                try Workout(type: "running", durationSeconds: -5).validate()
            }
            #expect(duration?.code == .invalidArgument)
            #expect(duration?.field == "durationSeconds")
        }

        @Test func refusedOnlineAndOffline() async throws {
            let server = try await TestServer("bounds")
            defer { server.shutDown() }
            try await server.start()
            let app = try TemporaryDirectory("bounds-app")
            defer { app.remove() }
            let today = LocalDate.today(in: .gmt)
            let client = WorkoutClient(
                configuration: appConfiguration(server.address), trust: appTrust(pinFile: app.file("known_servers"), confirming: true))
            defer { client.close() }
            _ = try await client.login(email: Owner.email, password: Owner.password)

            // Online: the field in Swift terms, and as the wire names it.
            let steps = await #expect(throws: WorkoutError.self) {
                try await client.reportSteps(StepsReport(day: today, source: "phone", steps: -1))
            }
            #expect(steps?.code == .invalidArgument)
            #expect(steps?.field == "report.steps")
            let duration = await #expect(throws: WorkoutError.self) {
                try await client.logWorkout(Workout(type: "running", durationSeconds: -60))
            }
            #expect(duration?.code == .invalidArgument)
            #expect(duration?.field == "workout.durationSeconds")
            #expect(duration?.wireField == "workout.duration_seconds")
            #expect(duration.map(wordingProblems) == [])
            // Nothing was stored, nor clamped to a bound.
            #expect(try await client.summaries(from: today, to: today).first?.steps ?? 0 == 0)
            #expect(try await client.workoutHistory().items.isEmpty)

            // Offline: the outbox refuses before queueing; a good write is queued as unavailable.
            let outbox = try Outbox(path: app.file("outbox.log"), account: Owner.email)
            defer { outbox.close() }
            server.stop()
            let queuedSteps = await #expect(throws: WorkoutError.self) {
                try await client.perform(.reportSteps(StepsReport(day: today, source: "phone", steps: -1)), queueingIn: outbox)
            }
            #expect(queuedSteps?.code == .invalidArgument)
            #expect(queuedSteps?.field == "report.steps")
            #expect(outbox.isEmpty)
            let delivery = try await client.perform(.logWorkout(Workout(type: "running", durationSeconds: 600)), queueingIn: outbox)
            guard case .queued(_, let reason) = delivery else {
                Issue.record("a good write was not queued while the server is down: \(delivery)")
                return
            }
            #expect(reason?.code == .unavailable)
            #expect(reason.map(wordingProblems) == [])
            #expect(outbox.count == 1)
        }
    }
}
