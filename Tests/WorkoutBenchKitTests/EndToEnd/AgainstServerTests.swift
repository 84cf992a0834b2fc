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
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("bench-server-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let data = scratch + "/data"
        try FileManager.default.createDirectory(atPath: scratch + "/work", withIntermediateDirectories: true)
        let preload = try BenchProcess.run(["--data-dir", data, "--preload-only", "--users", "\(Self.members)", "--preload", "10"])
        #expect(preload.status == 0, "\(preload)")

        let server = try EmbeddedServer(
            workoutd: try BenchProcess.product("workoutd"), dataDirectory: data, workDirectory: scratch + "/work", connections: 32)
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

        var configuration = HouseholdStore.Configuration()
        configuration.passwordParameters = .fastForTests
        let store = try HouseholdStore(directory: data, configuration: configuration)
        defer { store.close() }
        let plan = DataPlan(members: Self.members, recordsPerMember: 10, mealsPerDay: 10, nowMilliseconds: 0)
        var login = Workout_V1_LoginRequest()
        login.email = plan.ownerEmail
        login.password = plan.password
        let owner = try await store.login(login, source: "127.0.0.1", agent: "tests").caller
        let sessions = try store.listMembers(owner).map { ($0.email, $0.activeSessions) }
        for (email, count) in sessions {
            // The owner's one session is the login just made here.
            #expect(count == (email == plan.ownerEmail.lowercased() ? 1 : 0), "\(email) holds \(count) sessions: \(sessions)")
        }
    }
}
