import Foundation
import ProcessTestSupport
import Testing
import TestSupport

/// The example app (`Examples/QuickStart`), built with the package, run as a process against a
/// real `workoutd`: the documented way works end to end.
@Suite("The QuickStart example app", .serialized)
struct QuickStartTests {
    static let binary = BuiltProduct.path(named: "workout-quickstart", override: "WORKOUT_QUICKSTART_BINARY")

    @Test("signs in, logs, reads today's meals and history, watches until caught up, and shows a typed error")
    func runsAgainstWorkoutd() async throws {
        try await CLIHousehold.with { household in
            let binary = try #require(Self.binary, "workout-quickstart was not built")
            let result = try await blocking {
                try ProcessRunner.run(
                    binary, ["--server", household.address, "--email", CLIHousehold.ownerEmail, "--plain"],
                    input: CLIHousehold.ownerPassword + "\n", removing: ["WORKOUT_"], timeout: 60)
            }
            #expect(result.status == 0 && !result.killed, "\(result)")
            for expected in [
                "Signed in as Ada", "Logged a run: 1 workouts, ", "Logged lunch: 470 kcal", ": 1 meals, 470 kcal",
                "Recent workouts: running", "Watch: ", "Refused as expected: INVALID_ARGUMENT on workout.durationSeconds",
            ] {
                #expect(result.output.contains(expected), "missing \(expected) in:\n\(result.output)")
            }
            // What the example logged is on the server, for the member's other devices.
            try await household.login()
            let history = try await household.json(["history"])
            #expect((history["workouts"] as? [[String: Any]])?.map { $0["type"] as? String } == ["running"])

            let wrong = try await blocking {
                try ProcessRunner.run(
                    binary, ["--server", household.address, "--email", CLIHousehold.ownerEmail, "--plain"],
                    input: "not the password\n", removing: ["WORKOUT_"], timeout: 60)
            }
            #expect(wrong.status == 1, "\(wrong)")
            #expect(wrong.error.contains("UNAUTHENTICATED"), "\(wrong)")
        }
    }
}
