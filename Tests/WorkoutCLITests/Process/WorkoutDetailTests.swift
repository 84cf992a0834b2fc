import Foundation
import Testing
import TestSupport

/// `workout log workout` with a workout's detail, against a real `workoutd`: the detail is
/// stored and shown, and a bound broken names the option.
@Suite("workout log workout with detail against workoutd", .serialized)
struct WorkoutDetailCLITests {
    @Test("--km, --climb, --avg-hr, --max-hr and --steps are stored and shown; a bound broken names the option")
    func detail() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let logged = try await household.succeed(["log", "workout", "running", "--minutes", "30", "--km", "5.2", "--climb", "42",
                                                       "--avg-hr", "150", "--max-hr", "171", "--steps", "5000"])
            #expect(logged.contains("30 min, 5.2 km, climbed 42 m, avg 150 bpm, max 171 bpm, 5,000 steps"), "\(logged)")
            let history = try await household.json(["history"])
            let first = (history["workouts"] as? [[String: Any]])?.first
            #expect(first?["distanceM"] as? Double == 5_200 && first?["maxHeartRate"] as? Int == 171, "\(history)")
            for (arguments, words) in [
                (["log", "workout", "running", "--minutes", "30", "--avg-hr", "150", "--max-hr", "140"], "--max-hr must not be below the average heart rate (got 140, average 150)"),
                (["log", "workout", "running", "--minutes", "30", "--avg-hr", "400"], "--avg-hr must be 0 (not stated) or between 25 and 250 (got 400)"),
                (["log", "workout", "running", "--minutes", "30", "--km", "-3"], "--km must be above 0 and at most 1,000 (got -3)"),
            ] {
                let result = try await household.workout(arguments)
                #expect(result.status == 65 && result.error.contains(words), "\(arguments): \(result)")
            }
        }
    }
}
