import Foundation
import Testing

/// `workout sessions`: IDs shown by their shortest unique prefix, which `revoke` takes.
@Suite("workout sessions", .serialized)
struct SessionsTests {
    @Test("The list shows each session by the shortest prefix unique among them, and revoke takes it")
    func shortIDs() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let laptop = household.directory + "/laptop"
            let other = try await household.workout(
                ["login", "--server", household.address, "--email", CLIHousehold.ownerEmail, "--password-stdin"],
                input: CLIHousehold.ownerPassword + "\n", configDirectory: laptop)
            #expect(other.status == 0, "\(other)")
            let sessions = try await household.jsonArray(["sessions"])
            let otherID = try #require(sessions.first { $0["isCurrent"] as? Bool == false }?["id"] as? String)
            let hex = otherID.lowercased().filter { $0 != "-" }

            let table = try await household.succeed(["sessions"])
            let shown = try #require(
                table.split(separator: "\n").lazy.compactMap { line in
                    line.split(separator: " ").first { $0.count >= 4 && hex.hasPrefix($0) }
                }.first,
                "\(table)")
            #expect(shown.count < 32, "a prefix, not the whole ID: \(table)")

            let ended = try await household.succeed(["sessions", "revoke", String(shown)])
            #expect(ended.hasPrefix("Ended session \(otherID.lowercased())."), "\(ended)")
            #expect(try await household.jsonArray(["sessions"]).count == 1)
            let gone = try await household.workout(["sessions", "revoke", String(shown)])
            #expect(gone.status == 66 && gone.error.hasPrefix("workout: not found: no session of yours has an ID that starts or ends with"), "\(gone)")
        }
    }
}
