import Foundation
import Testing

/// Refusals said in the words the person typed: the option's or argument's own name and unit,
/// dates rather than milliseconds, never a wire field; checked before anything is sent.
@Suite("workout answers in the words typed", .serialized)
struct MessageTests {
    @Test("A value out of bounds names the option and its unit, exit 65 as the server's refusal, before any server is asked", arguments: [
        (["log", "workout", "running", "--minutes", "5400"], "--minutes must be at most 1,440 (24 hours); got 5400"),
        (["log", "workout", "running", "--minutes", "30", "--calories", "-200"], "--calories must be between 0 and 20,000 kcal (got -200)"),
        (["log", "workout", "running", "--minutes", "-5"], "--minutes must be a number above 0 (got -5)"),
        (["log", "steps", "-5"], "the number of steps must be between 0 and 200,000 (got -5)"),
        (["log", "steps", "-5", "--day", "yesterday"], "the number of steps must be between 0 and 200,000 (got -5)"),
        (["log", "steps", "--json", "-5"], "the number of steps must be between 0 and 200,000 (got -5)"),
        (["log", "weight", "720"], "the weight must be between 10 and 500 kg (got 720)"),
        (["log", "weight", "-3"], "the weight must be between 10 and 500 kg (got -3)"),
        (["log", "workout", "running", "--minutes", "30", "--at", "2099-01-01T07:00"], "--at must be no more than a day ahead (got 2099-01-01 07:00)"),
        (["log", "weight", "70", "--at", "1999-12-31T07:00"], "--at must be on or after 2000-01-01 (got 1999-12-31 07:00)"),
        (["log", "meal", "--type", "lunch", "--item", "cake:99999"], "--item #1's calories must be between 0 and 10,000 kcal (got 99999)"),
        (["edit", "workout", "0190a5b2", "--calories", "-1"], "--calories must be between 0 and 20,000 kcal (got -1)"),
        (["edit", "weight", "0190a5b2", "--weight", "-70"], "--weight must be between 10 and 500 kg (got -70)"),
    ])
    func outOfBounds(arguments: [String], message: String) async throws {
        let result = try await CLIHousehold.workout(arguments, environment: ["WORKOUT_CONFIG_DIR": "/nonexistent/workout-config"])
        #expect(result.status == 65, "\(result)")
        #expect(result.error == "workout: invalid input: \(message)\n", "\(result)")
        for wire in ["durationSeconds", "weightKg", "Ms ", "entry.", "report.", "workout.", "WEIGHT", "Missing value"] {
            #expect(!result.error.contains(wire), "\(wire): \(result)")
        }
    }

    @Test("An unknown command is blamed, with the name meant; `log run` blames run, not --minutes", arguments: [
        (["lgo"], "workout: unknown command 'lgo'; did you mean `workout log`?"),
        (["log", "run", "--minutes", "30"], "workout: unknown kind 'run': `workout log` takes workout, meal, weight, steps or template; to log a workout of that kind: workout log workout run --minutes 30"),
    ])
    func unknownCommand(arguments: [String], message: String) async throws {
        let result = try await CLIHousehold.workout(arguments, environment: ["WORKOUT_CONFIG_DIR": "/nonexistent/workout-config"])
        #expect(result.status == 64, "\(result)")
        #expect(result.error.hasPrefix(message), "\(result)")
        #expect(!result.error.contains("--minutes'"), "\(result)")
    }

    @Test("register checks its invite before asking for a password, and the password's length before connecting")
    func registerChecksFirst() async throws {
        let join = ["register", "--server", "127.0.0.1:1", "--email", "bob@example.com", "--first-name", "Bob"]
        let environment = ["WORKOUT_CONFIG_DIR": "/nonexistent/workout-config"]
        // No terminal and no --password-stdin: a prompt would fail with its own message first.
        for invite in ["bob@example.com", "7KQ2-M9XD@not-a-fingerprint", "7KQ2-M9XD-4HPA-W3R?"] {
            let result = try await CLIHousehold.workout(join + ["--invite", invite], environment: environment)
            #expect(result.status == 64, "\(invite): \(result)")
            #expect(result.error.hasPrefix("workout: --invite"), "\(invite): \(result)")
        }
        let mistyped = try await CLIHousehold.workout(
            ["register", "--server", "127.0.0.1:1", "--email", "bob.example.com", "--first-name", "Bob", "--invite", "7KQ2-M9XD-4HPA-W3RT"],
            environment: environment)
        #expect(mistyped.status == 65, "\(mistyped)")
        #expect(mistyped.error == "workout: invalid input: --email must contain exactly one '@' (got 0)\n", "\(mistyped)")
        let short = try await CLIHousehold.workout(
            join + ["--invite", "7KQ2-M9XD-4HPA-W3RT", "--password-stdin"], input: "short\n", environment: environment)
        #expect(short.status == 65, "\(short)")
        #expect(short.error == "workout: invalid input: the new password must be 8 to 256 bytes long; nothing was changed\n", "\(short)")
    }

    @Test("The password rule is said the same in every help that asks for a new password", arguments: [
        ["help", "register"], ["help", "password"], ["help", "admin", "reset-password"],
    ])
    func passwordRule(arguments: [String]) async throws {
        let result = try await CLIHousehold.workout(arguments, environment: [:])
        #expect(result.status == 0, "\(result)")
        let help = result.output.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        #expect(help.contains("8 to 256 bytes long"), "\(result)")
        #expect(!help.contains("10 characters"), "\(result)")
    }
}
