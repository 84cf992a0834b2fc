import Foundation
import Testing

/// Exit codes and messages when things go wrong, as scripts see them.
@Suite("workout fails clearly", .serialized)
struct FailureTests {
    @Test("Without stored credentials every command says so and exits 77", arguments: [["today"], ["history"], ["log", "weight", "70"], ["admin", "members"]])
    func notSignedIn(arguments: [String]) async throws {
        try await withTemporaryConfig { config in
            let result = try await CLIHousehold.workout(arguments, environment: ["WORKOUT_CONFIG_DIR": config])
            #expect(result.status == 77, "\(result)")
            #expect(result.error == "workout: not signed in; run `workout login` first\n")
        }
    }

    @Test("An unknown option alone is named as unknown, not read as nothing to change", arguments: [
        ["profile", "set", "--time-zon", "Europe/Paris"], ["edit", "weight", "0190a5b2", "--kilos", "70"],
        ["edit", "workout", "0190a5b2", "--duration", "45"], ["edit", "meal", "0190a5b2", "--kind", "lunch"],
    ])
    func unknownOption(arguments: [String]) async throws {
        try await withTemporaryConfig { config in
            let result = try await CLIHousehold.workout(arguments, environment: ["WORKOUT_CONFIG_DIR": config])
            #expect(result.status == 64, "\(result)")
            #expect(result.error.contains("Unknown option '\(arguments[arguments.count - 2])'"), "\(result.error)")
            #expect(!result.error.contains("nothing to change"), "\(result.error)")
        }
    }

    @Test("A server that is not there exits 69 at once, naming it")
    func unreachable() async throws {
        try await withTemporaryConfig { config in
            let started = Date()
            let result = try await CLIHousehold.workout(
                ["login", "--server", "127.0.0.1:1", "--email", "ada@example.com", "--password-stdin"], input: "whatever\n",
                environment: ["WORKOUT_CONFIG_DIR": config], timeout: 20)
            #expect(result.status == 69, "\(result)")
            #expect(result.error.hasPrefix("workout: cannot reach the Workout server at 127.0.0.1:1 — is workoutd running?"), "\(result)")
            #expect(Date().timeIntervalSince(started) < 5)
        }
    }

    @Test("Input out of the server's bounds exits 65 naming the option; malformed arguments exit 64; unknown ids 66")
    func badInput() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let heavy = try await household.workout(["log", "weight", "5000"])
            #expect(heavy.status == 65, "\(heavy)")
            #expect(heavy.error == "workout: invalid input: the weight must be between 10 and 500 kg (got 5000)\n", "\(heavy)")

            let items = try await household.workout(["log", "meal", "--type", "lunch", "--item", "cake:99999"])
            #expect(items.status == 65, "\(items)")
            #expect(items.error.contains("--item #1's calories must be between 0 and 10,000 kcal"), "\(items)")

            for arguments in [
                ["log", "meal", "--type", "brunch"], ["log", "workout", "running", "--minutes", "30", "--at", "25:00"],
                ["log", "workout", "running"], ["log", "meal", "--type", "lunch", "--item", "cake"], ["history", "--limit", "0"],
                ["log", "steps", "8500", "--day", "someday"], ["sessions", "revoke", "not-an-id"],
            ] {
                let result = try await household.workout(arguments)
                #expect(result.status == 64, "\(arguments): \(result)")
                #expect(result.error.contains("Error:"), "\(arguments): \(result)")
            }

            // A day far ahead is refused by the option the person typed, in their words.
            let future = try await household.workout(["today", "--day", "2099-01-01"])
            #expect(future.status == 65, "\(future)")
            #expect(future.error.hasPrefix("workout: invalid input: --day must be from 2000-01-01 to tomorrow, ") && future.error.hasSuffix(" (got 2099-01-01)\n"), "\(future)")
            #expect(!future.error.contains("--days") && !future.error.contains("T00:"), "\(future)")
            let ancient = try await household.workout(["today", "--day", "1999-12-31"])
            #expect(ancient.status == 65 && ancient.error.contains("(got 1999-12-31)"), "\(ancient)")

            let missing = try await household.workout(["sessions", "revoke", UUID().uuidString])
            #expect(missing.status == 66, "\(missing)")
            #expect(missing.error.hasPrefix("workout: not found: "))
        }
    }

    @Test("A mistyped or used invite code is refused in the server's words, not as an ended session")
    func badInvite() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let invite = try await household.json(["admin", "invite"])
            let code = try #require(invite["code"] as? String)
            let attempts: [(what: String, code: String, joins: Bool)] = [
                ("mistyped", "WRONG" + code.dropFirst(5), false), ("first used", code, true), ("used again", code, false),
            ]
            for (index, attempt) in attempts.enumerated() {
                let result = try await household.workout(
                    ["register", "--server", household.address, "--invite", attempt.code, "--email", "bob\(index)@example.com",
                     "--first-name", "Bob", "--password-stdin"],
                    input: "bobs long password\n", configDirectory: household.directory + "/bob\(index)")
                guard !attempt.joins else {
                    #expect(result.status == 0, "\(attempt.what): \(result)")
                    continue
                }
                #expect(result.status == 77, "\(attempt.what): \(result)")
                #expect(result.error.contains("the invite was not accepted: this invite code is not valid"), "\(attempt.what): \(result.error)")
                #expect(!result.error.contains("session has ended"), "\(attempt.what): \(result.error)")
            }
        }
    }

    @Test("A member who is not an admin is told so, exit 77; the admin sees both members")
    func adminOnly() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let invite = try await household.json(["admin", "invite", "--note", "for Bob"])
            let code = try #require(invite["code"] as? String)
            let bob = household.directory + "/bob"
            let joined = try await household.workout(
                ["register", "--server", household.address, "--invite", code, "--email", "bob@example.com", "--first-name", "Bob",
                 "--password-stdin"],
                input: "bobs long password\n", configDirectory: bob)
            #expect(joined.status == 0, "\(joined)")
            #expect(joined.output.contains("Welcome, Bob!"))

            let refused = try await household.workout(["admin", "invite"], configDirectory: bob)
            #expect(refused.status == 77, "\(refused)")
            #expect(refused.error == "workout: only household admins can create invites\n")

            let members = try await household.jsonArray(["admin", "members"])
            #expect(Set(members.compactMap { $0["email"] as? String }) == ["ada@example.com", "bob@example.com"])
        }
    }

    /// A fresh, empty configuration directory.
    private func withTemporaryConfig(_ body: (String) async throws -> Void) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("workout-cli-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await body(path)
    }
}
