import Foundation
import Testing
@testable import workout

/// `login`, `whoami`, `logout` as processes against `workoutd`.
@Suite("workout signs in and out", .serialized)
struct SignInTests {
    @Test("login reads the password from standard input and keeps only the token, in a 0600 file; whoami shows the member")
    func loginAndWhoami() async throws {
        try await CLIHousehold.with { household in
            let login = try await household.login()
            #expect(login.output.contains("Signed in to \(household.address) as Ada Lovelace <ada@example.com> (owner)."), "\(login)")

            let attributes = try FileManager.default.attributesOfItem(atPath: household.credentialsFile)
            #expect(attributes[.posixPermissions] as? Int == 0o600)
            let stored = try String(contentsOfFile: household.credentialsFile, encoding: .utf8)
            #expect(!stored.contains(CLIHousehold.ownerPassword))
            #expect(stored.contains("\"server\" : \"\(household.address)\""))

            let whoami = try await household.json(["whoami"])
            #expect(whoami["server"] as? String == household.address)
            let profile = try #require(whoami["profile"] as? [String: Any])
            #expect(profile["email"] as? String == "ada@example.com")
            #expect(profile["role"] as? String == "owner")
            #expect(try await household.succeed(["whoami"]).contains("Ada Lovelace <ada@example.com>, owner, on \(household.address)"))
        }
    }

    @Test("A wrong password exits 77 with a clear message and stores nothing")
    func wrongPassword() async throws {
        try await CLIHousehold.with { household in
            let result = try await household.workout(
                ["login", "--server", household.address, "--email", CLIHousehold.ownerEmail, "--password-stdin"],
                input: "not the password\n")
            #expect(result.status == 77, "\(result)")
            #expect(result.error == "workout: wrong email or password\n")
            #expect(result.output.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: household.credentialsFile))
        }
    }

    @Test("logout ends the session on the server and deletes the file; the old token is refused afterwards")
    func logout() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let saved = try Data(contentsOf: URL(fileURLWithPath: household.credentialsFile))
            #expect(try await household.succeed(["logout"]) == "Signed out of \(household.address).\n")
            #expect(!FileManager.default.fileExists(atPath: household.credentialsFile))

            let signedOut = try await household.workout(["whoami"])
            #expect(signedOut.status == 77)
            #expect(signedOut.error == "workout: not signed in; run `workout login` first\n")

            // The token the file held is dead on the server.
            try saved.write(to: URL(fileURLWithPath: household.credentialsFile))
            let ended = try await household.workout(["today"])
            #expect(ended.status == 77, "\(ended)")
            #expect(ended.error == "workout: your session has ended; run `workout login`\n")
        }
    }
}
