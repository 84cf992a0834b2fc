import Foundation
import Testing
import TestSupport
@testable import workout

/// `workout servers` and `workout login --server NAME.local`, with stand-ins for Avahi's tools
/// (shell scripts on `PATH` that print what the real ones print), since a test machine has no
/// mDNS network.
@Suite("workout finds servers through Avahi", .serialized)
struct DiscoveryTests {
    /// A directory for `PATH` holding `avahi-browse` printing `browse` and, if given,
    /// `avahi-resolve-host-name` printing `resolve`.
    static func fakeAvahi(in directory: String, browse: String, resolve: String? = nil) throws -> String {
        let bin = directory + "/fake-avahi"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        var tools = ["avahi-browse": browse]
        if let resolve { tools["avahi-resolve-host-name"] = resolve }
        for (tool, output) in tools {
            let script = "#!/bin/sh\nPATH=/usr/bin:/bin\ncat <<'END'\n\(output)\nEND\n"
            try Data(script.utf8).write(to: URL(fileURLWithPath: bin + "/" + tool))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin + "/" + tool)
        }
        return bin
    }

    @Test("Without avahi-browse, servers says so, says what to install, and exits 69")
    func withoutAvahi() async throws {
        try await withTemporaryDirectory { directory in
            let result = try await CLIHousehold.workout(["servers"], environment: ["PATH": directory, "WORKOUT_CONFIG_DIR": directory])
            #expect(result.status == 69, "\(result)")
            #expect(result.error == "workout: cannot look for servers: avahi-browse is not installed; \(Avahi.installHint)\n", "\(result)")
        }
    }

    @Test("servers lists what avahi-browse finds, as a table and as JSON")
    func lists() async throws {
        try await withTemporaryDirectory { directory in
            let bin = try Self.fakeAvahi(in: directory, browse: DiscoveredServerTests.output)
            let table = try await CLIHousehold.workout(["servers"], environment: ["PATH": bin, "WORKOUT_CONFIG_DIR": directory])
            #expect(table.status == 0, "\(table)")
            #expect(table.output.contains("Workout on nas  nas.local:7420  192.168.1.10"), "\(table)")
            #expect(table.output.contains("Sign in with: workout login --server nas.local:7420 --email YOU"), "\(table)")
            let json = try await CLIHousehold.workout(["servers", "--json"], environment: ["PATH": bin, "WORKOUT_CONFIG_DIR": directory])
            let servers = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
            #expect(servers.count == 2 && servers[0]["host"] as? String == "nas.local" && servers[0]["port"] as? Int == 7420)

            let none = try Self.fakeAvahi(in: directory + "/none", browse: "")
            let empty = try await CLIHousehold.workout(["servers"], environment: ["PATH": none, "WORKOUT_CONFIG_DIR": directory])
            #expect(empty.status == 0 && empty.output.contains("No Workout server answered"), "\(empty)")
        }
    }

    @Test("login --server NAME.local works as HOST:PORT does: the advertised port, the address from Avahi, the name kept")
    func loginByName() async throws {
        try await CLIHousehold.with { household in
            let port = household.server.port
            let bin = try Self.fakeAvahi(
                in: household.directory,
                browse: "=;lo;IPv4;Workout\\032on\\032testbox;_workout._tcp;local;testbox-workout.local;127.0.0.1;\(port);\"txtvers=1\"",
                resolve: "testbox-workout.local\t127.0.0.1")
            let login = try await household.workout(
                ["login", "--server", "testbox-workout.local", "--email", CLIHousehold.ownerEmail, "--password-stdin"],
                input: CLIHousehold.ownerPassword + "\n", environment: ["PATH": bin])
            #expect(login.status == 0, "\(login)")
            #expect(login.output.contains("Signed in to testbox-workout.local:\(port) as Ada Lovelace"), "\(login)")
            let stored = try String(contentsOfFile: household.credentialsFile, encoding: .utf8)
            #expect(stored.contains("\"server\" : \"testbox-workout.local:\(port)\""), "\(stored)")
            // Later commands use the stored name, resolved again.
            let whoami = try await household.workout(["whoami"], environment: ["PATH": bin])
            #expect(whoami.status == 0 && whoami.output.contains("on testbox-workout.local:\(port)"), "\(whoami)")
        }
    }
}
