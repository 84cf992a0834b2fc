import Foundation
import Testing
import WorkoutBenchKit
import WorkoutCore
import WorkoutProtocol

/// `workout-bench --server` against a real `workoutd`: it says what it sets up, signs each
/// member in once, leaves none of its sessions behind, and shows no preload plan of its own.
@Suite("workout-bench against a server", .serialized)
struct AgainstServerTests {
    static let members = 2

    @Test("Sessions are ended afterwards, the setup is said, and no preload plan is shown", .timeLimit(.minutes(2)))
    func endsItsSessions() async throws {
        let (scratch, data) = try Self.preloadedStore(named: "bench-server")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let server = try Self.startServer(data: data, scratch: scratch)
        let result = try BenchProcess.run([
            "--server", server.address.description, "--users", "\(Self.members)", "--preload", "10", "--connections", "6",
            "--duration", "1", "--warmup", "0",
        ], timeout: 90)
        _ = server.stop()
        #expect(result.status == 0, "\(result)")
        #expect(result.error.contains("signing in \(Self.members) members and the owner (for Admin.Stats)…"), "\(result)")
        #expect(result.error.contains("opening 4 more connections on those sessions…"), "\(result)")
        #expect(result.error.contains("ending the \(Self.members + 1) sessions the run signed in…"), "\(result)")
        #expect(!result.error.contains("warning"), "\(result)")
        #expect(!result.error.contains("preload"), "\(result)")
        #expect(!result.output.contains(" × 10 meals"), "no preload plan against a server: \(result)")
        #expect(result.output.contains("\(Self.members) members"), "\(result)")

        let (ownerEmail, sessions) = try await Self.sessionsHeld(in: data)
        for (email, count) in sessions {
            // The owner's one session is the login just made to count them.
            #expect(count == (email == ownerEmail ? 1 : 0), "\(email) holds \(count) sessions: \(sessions)")
        }
    }
}

extension AgainstServerTests {
    @Test("Ctrl-C during the run still ends the run's sessions", .timeLimit(.minutes(2)))
    func interrupted() async throws {
        let (scratch, data) = try Self.preloadedStore(named: "bench-sigint")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let server = try Self.startServer(data: data, scratch: scratch)
        let errorFile = scratch + "/stderr"
        _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BenchProcess.product("workout-bench"))
        process.arguments = [
            "--server", server.address.description, "--users", "\(Self.members)", "--preload", "10", "--connections", "4",
            "--duration", "60", "--warmup", "0",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorFile))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Interrupt once the load runs (its progress lines have begun).
        let started = Date()
        var error = ""
        while Date().timeIntervalSince(started) < 60 {
            error = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
            if error.contains("calls/s") || !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        kill(process.processIdentifier, SIGINT)
        while process.isRunning && Date().timeIntervalSince(started) < 90 { try await Task.sleep(for: .milliseconds(100)) }
        if process.isRunning { process.terminate() }
        _ = server.stop()
        error = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus != 0, "\(error)")
        #expect(error.contains("interrupted (Ctrl-C)"), "\(error)")
        #expect(error.contains("ending the \(Self.members + 1) sessions the run signed in…"), "\(error)")

        let (ownerEmail, sessions) = try await Self.sessionsHeld(in: data)
        for (email, count) in sessions where email != ownerEmail {
            #expect(count == 0, "\(email) holds \(count) sessions")
        }
    }
}

extension AgainstServerTests {
    /// A new scratch folder holding a store that `workout-bench --preload-only` filled with
    /// ``members`` members: the folder and the store's data directory.
    static func preloadedStore(named name: String) throws -> (scratch: String, data: String) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
        let data = scratch + "/data"
        try FileManager.default.createDirectory(atPath: scratch + "/work", withIntermediateDirectories: true)
        let preload = try BenchProcess.run(["--data-dir", data, "--preload-only", "--users", "\(members)", "--preload", "10"])
        #expect(preload.status == 0, "\(preload)")
        return (scratch, data)
    }

    /// A `workoutd` child serving `data`.
    static func startServer(data: String, scratch: String) throws -> EmbeddedServer {
        try EmbeddedServer(
            workoutd: try BenchProcess.product("workoutd"), dataDirectory: data, workDirectory: scratch + "/work", connections: 32)
    }

    /// The sessions each member of the stopped server's store holds, counted by the owner
    /// (whose own count includes the login made to count them), with the owner's email.
    static func sessionsHeld(in data: String) async throws -> (owner: String, sessions: [(email: String, count: UInt32)]) {
        var configuration = HouseholdStore.Configuration()
        configuration.passwordParameters = .fastForTests
        let store = try HouseholdStore(directory: data, configuration: configuration)
        defer { store.close() }
        let plan = DataPlan(members: members, recordsPerMember: 10, mealsPerDay: 10, nowMilliseconds: 0)
        var login = Workout_V1_LoginRequest()
        login.email = plan.ownerEmail
        login.password = plan.password
        let owner = try await store.login(login, source: "127.0.0.1", agent: "tests").caller
        return (plan.ownerEmail.lowercased(), try store.listMembers(owner).map { (email: $0.email, count: $0.activeSessions) })
    }
}
