import Foundation
import Testing
@testable import workout

/// A Berlin member on a machine set to UTC sees and types Berlin's times.
@Suite("workout in the member's zone on a machine in another", .serialized)
struct MemberZoneTests {
    static let onUTC = ["TZ": "UTC"]
    static let note = "Times are in Europe/Berlin, the profile's zone (this machine: UTC)."

    @Test("Her 08:00 breakfast is logged and shown at 08:00, and the last line says whose zone it is")
    func breakfastAtEight() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let logged = try await household.succeed(
                ["log", "meal", "--type", "breakfast", "--item", "oats:380", "--at", "08:00"], environment: Self.onUTC)
            #expect(logged.contains(" 08:00:"), "\(logged)")
            #expect(logged.split(separator: "\n").last.map(String.init) == Self.note, "\(logged)")

            let today = try await household.succeed(["today"], environment: Self.onUTC)
            #expect(today.contains("08:00"), "\(today)")
            #expect(!today.contains("07:00"), "\(today)")
            #expect(today.split(separator: "\n").last.map(String.init) == Self.note, "\(today)")

            // On a machine in the profile's zone, no note.
            let atHome = try await household.succeed(["today"])
            #expect(!atHome.contains("Times are in"), "\(atHome)")
        }
    }

    @Test("A date and time typed as an option is read in the profile's zone")
    func typedDate() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let output = try await household.succeed(
                ["log", "meal", "--type", "breakfast", "--item", "oats:380", "--at", "2026-01-01T07:00", "--json"], environment: Self.onUTC)
            let logged = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
            let meal = try #require(logged?["meal"] as? [String: Any], "\(output)")
            #expect(meal["eatenAt"] as? String == "2026-01-01T06:00:00Z", "\(meal)")
            let day = try await household.succeed(["today", "--day", "2026-01-01"], environment: Self.onUTC)
            #expect(day.contains("07:00"), "\(day)")
        }
    }

    @Test("Credentials from before the zone was kept learn it once; offline, the machine's zone is used and said")
    func oldCredentials() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let stored = try Data(contentsOf: URL(fileURLWithPath: household.credentialsFile))
            var object = try #require(try JSONSerialization.jsonObject(with: stored) as? [String: Any])
            #expect(object["timeZone"] as? String == "Europe/Berlin", "login keeps the profile's zone")
            object["timeZone"] = nil
            try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: household.credentialsFile))

            let today = try await household.succeed(["today"], environment: Self.onUTC)
            #expect(today.split(separator: "\n").last.map(String.init) == Self.note, "\(today)")
            let learned = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: household.credentialsFile))) as? [String: Any]
            #expect(learned?["timeZone"] as? String == "Europe/Berlin")

            // Another machine's copy without the zone, and a server that cannot be reached.
            let offline = household.directory + "/offline"
            try FileManager.default.createDirectory(atPath: offline, withIntermediateDirectories: true)
            object["server"] = "127.0.0.1:1"
            try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: offline + "/credentials.json"))
            let queued = try await household.workout(
                ["log", "meal", "--type", "snack", "--item", "apple:80"], environment: Self.onUTC, configDirectory: offline)
            #expect(queued.status == 0, "\(queued)")
            #expect(queued.output.contains("Queued offline"), "\(queued)")
            #expect(queued.output.split(separator: "\n").last?.hasPrefix("Times are in UTC, this machine's zone") == true, "\(queued)")
        }
    }
}
