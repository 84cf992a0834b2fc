import Dispatch
import Foundation
import ProcessTestSupport
import Storage
import Synchronization
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol
#if canImport(Glibc)
import Glibc
#endif

@Suite("workoutd serve as a process: every acknowledged write survives a stop")
struct ServeProcessTests {
    /// Writers on four connections log weight entries until the connection ends; returns the
    /// ids the server answered OK, and the owner's id.
    static func writeUntilStopped(
        port: Int, acknowledging wanted: Int = 100, stop: @escaping @Sendable () -> Void
    ) throws -> (user: UUID, acknowledged: Set<Data>) {
        let acknowledged = Mutex<Set<Data>>([])
        var user = UUID()
        let connections = try (0..<4).map { _ -> TestConnection in
            let signedIn = try signedInConnection(port: port)
            user = signedIn.user
            return signedIn.connection
        }
        let group = DispatchGroup()
        for connection in connections {
            DispatchQueue.global().async(group: group) {
                for _ in 0..<20_000 {
                    var request = Workout_V1_LogWeightRequest()
                    request.entry.id = UUID().data
                    request.entry.weightKg = 70
                    request.entry.measuredAtMs = Int64(Date().timeIntervalSince1970 * 1000) - 60_000
                    let frame: Frame
                    do {
                        frame = try connection.finalFrame(of: connection.sendRequest(MethodCatalog.logWeight, request))
                    } catch {
                        return  // the server stopped: GOAWAY, close or reset
                    }
                    if frame.type == .goAway { return }
                    if frame.code == 0 { _ = acknowledged.withLock { $0.insert(request.entry.id) } }
                }
            }
        }
        // Let the writes run until `wanted` are acknowledged (bounded), then stop the server
        // while they go on.
        let deadline = Date().addingTimeInterval(15)
        while acknowledged.withLock({ $0.count }) < wanted && Date() < deadline { usleep(10_000) }
        stop()
        _ = group.wait(timeout: .now() + 30)
        return (user, acknowledged.withLock { $0 })
    }

    static func expectStored(_ ids: Set<Data>, user: UUID, in directory: String) async throws {
        try await withHousehold(directory) { household in
            let missing = try household.store.read { txn in
                try ids.filter { try txn.get(UserRecordKey(user: user, id: UUID(bytes: $0)), from: household.tables.weights.table) == nil }
            }
            #expect(missing.isEmpty, "\(missing.count) of \(ids.count) acknowledged writes are missing")
        }
    }

    @Test("SIGTERM during load: the server drains, exits 0, and every write that got OK is in the store")
    func sigterm() async throws {
        try await withTemporaryDirectory { directory in
            let data = directory + "/data"
            try createOwner(data)
            let server = try ServeProcess(dataDirectory: data)
            let stopped = Mutex<(Process.TerminationReason, Int32)?>(nil)
            let (user, acknowledged) = try Self.writeUntilStopped(port: server.port) {
                stopped.withLock { $0 = server.stop(SIGTERM) }
            }
            let (reason, status) = try #require(stopped.withLock { $0 })
            #expect(reason == .exit && status == 0)
            #expect(acknowledged.count >= 100, "only \(acknowledged.count) writes were acknowledged")
            print("workoutd process test: \(acknowledged.count) acknowledged writes, all checked after the stop")
            try await Self.expectStored(acknowledged, user: user, in: data)
        }
    }

    @Test("SIGKILL in the middle of writes: after a restart every write that got OK is there")
    func sigkill() async throws {
        try await withTemporaryDirectory { directory in
            let data = directory + "/data"
            try createOwner(data)
            let server = try ServeProcess(dataDirectory: data)
            let (user, acknowledged) = try Self.writeUntilStopped(port: server.port) {
                _ = server.stop(SIGKILL)
            }
            #expect(acknowledged.count >= 100, "only \(acknowledged.count) writes were acknowledged")
            print("workoutd process test: \(acknowledged.count) acknowledged writes, all checked after the stop")
            // The server starts again on the same data directory (its lock died with it).
            let restarted = try ServeProcess(dataDirectory: data)
            let health = try TestConnection(port: restarted.port)
            try health.handshake()
            #expect(try health.call(MethodCatalog.health, Workout_V1_HealthRequest()).serving)
            let (reason, status) = restarted.stop(SIGTERM)
            #expect(reason == .exit && status == 0)
            try await Self.expectStored(acknowledged, user: user, in: data)
        }
    }
}
