import Foundation
import Testing
import TestSupport

/// `workout watch` as a process, seeing a change another process makes.
@Suite("workout watches changes live", .serialized)
struct WatchTests {
    @Test("watch --count 1 --json prints the weigh-in that a second process logs, as one JSON line, and exits 0")
    func watchSeesAnotherProcess() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            _ = try await household.succeed(["log", "weight", "73.0"])  // before the watch: not shown
            let binary = try #require(CLIHousehold.workoutBinary)
            var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("WORKOUT") }
            environment["WORKOUT_CONFIG_DIR"] = household.configDirectory
            environment["TZ"] = "Europe/Berlin"
            environment["WORKOUT_TRANSPORT"] = "plain"  // the fixture's workoutd listens in plain TCP on loopback
            let watch = try BackgroundProcess(binary, ["watch", "--count", "1", "--json"], environment: environment)
            let live = try await blocking { watch.waitForError(containing: "live", timeout: 20) }
            #expect(live, "the watch never went live: \(watch.error)")

            _ = try await household.succeed(["log", "weight", "71.5", "--note", "from another process"])
            let status = try await blocking { watch.waitForExit(timeout: 20) }
            #expect(status == 0, "watch: exit \(String(describing: status)), stderr \(watch.error)")
            let lines = watch.output.split(separator: "\n")
            #expect(lines.count == 1, "\(watch.output)")
            let change = try #require(try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
            let weight = try #require((change["item"] as? [String: Any])?["weight"] as? [String: Any], "\(change)")
            #expect(weight["weightKg"] as? Double == 71.5)
            #expect(weight["note"] as? String == "from another process")
            #expect(change["revision"] as? Int != nil)
        }
    }

    @Test("watch --since 0 --count N replays earlier changes, one line each")
    func since() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            _ = try await household.succeed(["log", "steps", "1234"])
            // The owner's creation is revision 1 (a profile change), the steps revision 2.
            let text = try await household.succeed(["watch", "--since", "0", "--count", "2"])
            let lines = text.split(separator: "\n")
            #expect(lines.count == 2, "\(text)")
            #expect(lines.allSatisfy { $0.hasPrefix("#") }, "\(text)")
            #expect(lines.last?.contains("steps        1,234 on ") == true, "\(text)")
        }
    }
}
