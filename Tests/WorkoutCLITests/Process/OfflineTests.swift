import Foundation
import ProcessTestSupport
import TestSupport
import Testing
import WorkoutOffline
#if canImport(Glibc)
import Glibc
#endif

/// `workout log` while the server is down, `workout status` and `workout sync`, as processes
/// against a `workoutd` process that is stopped and started again on the same port.
@Suite("workout logs offline, shows its status and syncs", .serialized)
struct OfflineTests {
    /// Stops the household's server; returns a function that starts it again on the same port
    /// (the caller stops that one).
    static func stopServer(_ household: CLIHousehold) async throws {
        _ = try await blocking { household.server.stop(SIGTERM).status }
    }

    /// Starts `workoutd` again over the household's data, on its port.
    static func restartServer(_ household: CLIHousehold) async throws -> ServeProcess {
        try await blocking { try ServeProcess(dataDirectory: household.dataDirectory, port: household.server.port) }
    }

    @Test("log queues each kind offline and says so; status shows the server, the session and what waits; sync sends it, replays are reported")
    func offlineThenSync() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            try await Self.stopServer(household)

            let workout = try await household.succeed(["log", "workout", "running", "--minutes", "30", "--calories", "280"])
            #expect(workout.contains("Queued offline (cannot reach the Workout server at \(household.address)"), "\(workout)")
            #expect(workout.contains("The workout (running, 30 min) is kept on this machine as #1; `workout sync` sends it. 1 write waits in the outbox."), "\(workout)")
            let meal = try await household.json(["log", "meal", "--type", "lunch", "--name", "Soup", "--item", "soup:300"])
            #expect(meal["queued"] as? Bool == true)
            #expect(meal["outcome"] as? String == "queued")
            #expect(meal["pending"] as? Int == 2)
            #expect((meal["reason"] as? [String: Any])?["status"] as? String == "UNAVAILABLE")
            let entry = try #require(meal["entry"] as? [String: Any])
            #expect(entry["id"] as? Int == 2)
            #expect(entry["kind"] as? String == "meal")
            #expect((entry["record"] as? [String: Any])?["name"] as? String == "Soup")
            #expect(try await household.succeed(["log", "weight", "72.4"]).contains("The weigh-in (72.4 kg) is kept on this machine as #3"))
            #expect(try await household.succeed(["log", "steps", "4000"]).contains("as #4"))
            let folded = try await household.succeed(["log", "steps", "8500"])
            #expect(folded.contains("replaces what waited as #4"), "a later report of the same day and source: \(folded)")

            let status = try await household.succeed(["status"])
            for expected in [
                "Server:   \(household.address) (cannot be reached", "Session:  \(CLIHousehold.ownerEmail)",
                "not checked (the server cannot be reached)", "Outbox:   4 writes wait to be sent",
                "#1  log workout running, 30 min", "#2  log meal lunch \"Soup\" (1 item)", "#3  log weight 72.4 kg", "#4  report steps",
            ] {
                #expect(status.contains(expected), "missing \(expected) in:\n\(status)")
            }
            let statusJSON = try await household.json(["status"])
            #expect(statusJSON["reachable"] as? Bool == false)
            #expect(statusJSON["session"] as? String == "unknown")
            #expect(statusJSON["email"] as? String == CLIHousehold.ownerEmail)
            #expect((statusJSON["pending"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["workout", "meal", "weight", "steps"])

            let down = try await household.workout(["sync"])
            #expect(down.status == 69, "\(down)")
            #expect(down.error.contains("cannot reach the Workout server"), "\(down)")
            #expect(down.error.contains("4 writes still wait in the outbox"), "\(down)")

            let server = try await Self.restartServer(household)
            defer { _ = server.stop(SIGTERM) }
            // Keep a copy of the outbox as it is before the sync: restored afterwards, it is what a
            // crash before the sync's removals reached the disk would leave.
            let outboxFile = household.configDirectory + "/outbox.log"
            let beforeSync = try Data(contentsOf: URL(fileURLWithPath: outboxFile))
            let sync = try await household.succeed(["sync"])
            for expected in ["#1 sent: log workout running, 30 min", "#2 sent: log meal lunch", "#3 sent: log weight 72.4 kg", "#4 sent: report steps", "Sent 4; the outbox is empty."] {
                #expect(sync.contains(expected), "missing \(expected) in:\n\(sync)")
            }
            let today = try await household.json(["today"])
            #expect((today["workouts"] as? [Any])?.count == 1)
            #expect((today["meals"] as? [Any])?.count == 1)
            #expect(today["steps"] as? Int == 8500)

            try beforeSync.write(to: URL(fileURLWithPath: outboxFile))
            let replay = try await household.json(["sync"])
            #expect(replay["complete"] as? Bool == true)
            let outcomes = (replay["results"] as? [[String: Any]])?.map { $0["outcome"] as? String }
            #expect(outcomes == ["replayed", "replayed", "replayed", "sent"], "logs say they were replayed; steps are idempotent: \(replay)")
            let again = try await household.json(["today"])
            #expect((again["workouts"] as? [Any])?.count == 1, "applied once")
            #expect((again["meals"] as? [Any])?.count == 1, "applied once")

            let online = try await household.succeed(["status"])
            #expect(online.contains("Server:   \(household.address) (reachable)"), "\(online)")
            #expect(online.contains(": valid"), "\(online)")
            #expect(online.contains("Outbox:   empty"), "\(online)")
            let onlineJSON = try await household.json(["status"])
            #expect(onlineJSON["reachable"] as? Bool == true)
            #expect(onlineJSON["session"] as? String == "valid")
            #expect((onlineJSON["pending"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("A write the server refuses on sync keeps its reason in sync --json and status; --discard drops it")
    func refusedOnSync() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            // A day holds steps from at most 16 sources: a 17th is what only the server can refuse
            // (every bound of a record is checked on the device before queueing, offline too).
            for source in 1...16 {
                _ = try await household.succeed(["log", "steps", "100", "--source", "device-\(source)"])
            }
            try await Self.stopServer(household)
            let bell = try await household.workout(["log", "workout", "run\u{7}ning", "--minutes", "20"])
            #expect(bell.status == 65, "a control character in the kind is refused offline, not queued: \(bell)")
            #expect(bell.error.contains("control characters"), "\(bell)")
            _ = try await household.succeed(["log", "steps", "100", "--source", "device-17"])
            _ = try await household.succeed(["log", "workout", "yoga", "--minutes", "20"])
            let server = try await Self.restartServer(household)
            defer { _ = server.stop(SIGTERM) }

            let sync = try await household.workout(["sync", "--json"])
            #expect(sync.status == 65, "invalid input: \(sync)")
            #expect(sync.error.contains("the server refused 1 write"), "\(sync)")
            let report = try sync.output.jsonObject()
            let results = try #require(report["results"] as? [[String: Any]])
            #expect(results.map { $0["outcome"] as? String } == ["refused", "sent"])
            let refusal = try #require(results.first?["refusal"] as? [String: Any])
            #expect(refusal["status"] as? String == "INVALID_ARGUMENT")
            #expect(refusal["code"] as? Int == 3)
            #expect((refusal["message"] as? String)?.isEmpty == false)
            #expect(((results.last?["answer"] as? [String: Any])?["workout"] as? [String: Any])?["type"] as? String == "yoga")
            #expect(report["complete"] as? Bool == false)
            #expect((report["remaining"] as? [Any])?.count == 1)

            let status = try await household.json(["status"])
            #expect(status["refused"] as? Int == 1)
            let waiting = try #require((status["pending"] as? [[String: Any]])?.first)
            #expect((waiting["refusal"] as? [String: Any])?["status"] as? String == "INVALID_ARGUMENT")
            let text = try await household.succeed(["status"])
            #expect(text.contains("1 write waits to be sent (1 refused by the server)"), "\(text)")
            #expect(text.contains("refused: invalid input: "), "\(text)")
            #expect(text.contains("16 sources"), "\(text)")

            let again = try await household.workout(["sync"])
            #expect(again.status == 65, "a refused write is not sent again by itself: \(again)")
            #expect(again.output.contains("Nothing could be sent; 1 write waits"), "\(again)")

            let discard = try await household.succeed(["sync", "--discard", "1"])
            #expect(discard.contains("#1 discarded: "), "\(discard)")
            #expect(discard.contains("Nothing to sync: the outbox is empty."), "\(discard)")
            let history = try await household.json(["history"])
            #expect((history["workouts"] as? [[String: Any]])?.map { $0["type"] as? String } == ["yoga"])
        }
    }

    @Test("Signed in as another account, log goes straight to the server (never into that account's outbox), and sync and status say whose writes wait")
    func otherAccount() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            try await Self.stopServer(household)
            _ = try await household.succeed(["log", "workout", "running", "--minutes", "30"])
            let server = try await Self.restartServer(household)
            defer { _ = server.stop(SIGTERM) }
            // The same session under another email: to `workout`, another account.
            let file = URL(fileURLWithPath: household.credentialsFile)
            let credentials = try String(contentsOf: file, encoding: .utf8)
            try credentials.replacingOccurrences(of: CLIHousehold.ownerEmail, with: "someone.else@example.com").write(to: file, atomically: true, encoding: .utf8)

            let log = try await household.workout(["log", "workout", "yoga", "--minutes", "20"])
            #expect(log.status == 0, "\(log)")
            #expect(log.output.contains("Logged yoga"), "\(log)")
            #expect(log.error.contains("holds writes of \(CLIHousehold.ownerEmail) on \(household.address)"), "\(log)")
            let sync = try await household.workout(["sync"])
            #expect(sync.status == 1, "\(sync)")
            #expect(sync.error.contains("holds writes of \(CLIHousehold.ownerEmail)"), "\(sync)")
            let status = try await household.json(["status"])
            #expect((status["outboxError"] as? String)?.contains("holds writes of \(CLIHousehold.ownerEmail)") == true, "\(status)")

            try credentials.write(to: file, atomically: true, encoding: .utf8)
            let logout = try await household.workout(["logout"])
            #expect(logout.status == 0, "\(logout)")
            #expect(logout.error.contains("1 write queued offline still waits in the outbox; sign in again as \(CLIHousehold.ownerEmail)"), "\(logout)")
        }
    }

    @Test("Without a session from an earlier login, log says to sign in (nothing is queued) and status says so")
    func withoutSession() async throws {
        try await CLIHousehold.with { household in
            let log = try await household.workout(["log", "workout", "running", "--minutes", "30"])
            #expect(log.status == 77, "\(log)")
            #expect(log.error == "workout: not signed in; run `workout login` first\n")
            #expect(!FileManager.default.fileExists(atPath: household.configDirectory + "/outbox.log"))
            let status = try await household.succeed(["status"])
            #expect(status.contains("Not signed in. Run `workout login`; logging offline needs a session from an earlier login."), "\(status)")
            let json = try await household.json(["status"])
            #expect(json["signedIn"] as? Bool == false)
            #expect((json["pending"] as? [Any])?.isEmpty == true)
        }
    }
}
