import Foundation
import ProcessTestSupport
import Testing
import TestSupport

/// `workout login` against a TLS server it has not trusted yet: without a terminal it refuses
/// and says how to give the fingerprint; `--fingerprint` pins it; a wrong one sends nothing;
/// a `$WORKOUT_SERVER_FINGERPRINT` that is not a fingerprint is named, not silently dropped.
@Suite("workout trusts a server's key", .serialized)
struct TrustTests {
    @Test("login --fingerprint pins the key workoutd printed; without it, or with another key, nothing is sent and nothing stored")
    func loginWithFingerprint() async throws {
        try await CLIHousehold.with(transport: "tls") { household in
            let workoutd = try #require(BuiltProduct.path(named: "workoutd", override: "WORKOUTD_BINARY"), "workoutd was not built")
            let shown = try await blocking {
                try ProcessRunner.run(workoutd, ["fingerprint", "--data-dir", household.dataDirectory], removing: ["WORKOUTD_"], timeout: 30)
            }
            try #require(shown.status == 0, "\(shown)")
            let fingerprint = shown.output.trimmingCharacters(in: .whitespacesAndNewlines)
            let tls = ["WORKOUT_TRANSPORT": "tls"]
            let login = ["login", "--server", household.address, "--email", CLIHousehold.ownerEmail, "--password-stdin"]
            let password = CLIHousehold.ownerPassword + "\n"
            let knownServers = household.configDirectory + "/known_servers"

            // Not trusted yet, no terminal to ask on: refused, with the way to give the key.
            let unknown = try await household.workout(login, input: password, environment: tls)
            #expect(unknown.status != 0, "\(unknown)")
            #expect(unknown.error.contains("not trusted yet") && unknown.error.contains("--fingerprint \(fingerprint)"), "\(unknown)")
            #expect(!FileManager.default.fileExists(atPath: household.credentialsFile))

            // Not a fingerprint at all: a usage error.
            let malformed = try await household.workout(login + ["--fingerprint", "not-a-key"], input: password, environment: tls)
            #expect(malformed.status == 64, "\(malformed)")
            #expect(malformed.error.contains("--fingerprint"), "\(malformed)")

            // Not a fingerprint in the environment: said so, not used (still not trusted).
            let badEnvironment = try await household.workout(
                login, input: password, environment: tls.merging(["WORKOUT_SERVER_FINGERPRINT": "not-a-key"]) { $1 })
            #expect(badEnvironment.status != 0, "\(badEnvironment)")
            #expect(badEnvironment.error.contains("WORKOUT_SERVER_FINGERPRINT=\"not-a-key\" is not a key fingerprint"), "\(badEnvironment)")
            #expect(badEnvironment.error.contains("not trusted yet"), "\(badEnvironment)")
            #expect(!FileManager.default.fileExists(atPath: household.credentialsFile))

            // Another key than the server's: refused before anything is sent, nothing pinned.
            let other = Array(repeating: "AAAA", count: 13).joined(separator: "-")
            let wrong = try await household.workout(login + ["--fingerprint", other], input: password, environment: tls)
            #expect(wrong.status != 0 && wrong.error.contains("not the expected"), "\(wrong)")
            #expect(!FileManager.default.fileExists(atPath: household.credentialsFile))
            #expect((try? String(contentsOfFile: knownServers, encoding: .utf8))?.contains(fingerprint) != true)

            // The key the server printed: signed in, and pinned for the next runs.
            let trusted = try await household.workout(login + ["--fingerprint", fingerprint.lowercased()], input: password, environment: tls)
            #expect(trusted.status == 0, "\(trusted)")
            #expect(try String(contentsOfFile: knownServers, encoding: .utf8).contains("\(household.address) \(fingerprint)"))
            let whoami = try await household.workout(["whoami"], environment: tls)
            #expect(whoami.status == 0 && whoami.output.contains("ada@example.com"), "\(whoami)")
        }
    }
}
