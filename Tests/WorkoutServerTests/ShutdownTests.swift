import ServerTestSupport
import Foundation
import SwiftProtobuf
import Synchronization
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol
import WorkoutServer

/// Graceful shutdown under load: GOAWAY naming the last call, calls in flight finish, later
/// calls are refused, Watches end UNAVAILABLE, and every acknowledged write survives a reopen.
@Suite("Graceful shutdown over real connections")
struct ShutdownTests {
    /// The weight entry ids the owner has in the store in `directory` (reopened).
    static func storedWeightIDs(in directory: String) async throws -> Set<Data> {
        let household = try openHousehold(at: directory, durable: true)
        defer { household.close() }
        var login = Workout_V1_LoginRequest()
        login.email = ownerEmail
        login.password = ownerPassword
        let caller = try await household.login(login, source: "127.0.0.1", agent: "tests").caller
        var request = Workout_V1_WeightProgressRequest()
        request.pageSize = 1_000
        var ids: Set<Data> = []
        for _ in 0..<100 {
            let page = try household.weightProgress(caller, request)
            ids.formUnion(page.entries.map(\.id))
            guard !page.nextPageToken.isEmpty else { break }
            request.pageToken = page.nextPageToken
        }
        return ids
    }

    @Test("shutdown during load: GOAWAY names the last call, calls in flight finish OK, later calls get UNAVAILABLE, a Watch ends UNAVAILABLE, and every OK write is in the reopened store")
    func gracefulShutdownWithCallsInFlight() async throws {
        try await withTemporaryDirectory { directory in
            let household = try openHousehold(at: directory, durable: true)
            _ = try household.createOwner(email: ownerEmail, password: ownerPassword, firstName: "Olga", timeZone: "Europe/Berlin")
            let server = makeServer(household: household)
            // A failed expectation that throws (a read timing out on a loaded machine) must not
            // leave the store open: its deinit would stop the whole test process.
            defer {
                server.stopNow()
                household.close()
            }
            let port = try server.start()[0].port

            // Eight connections, each with 20 writes held in flight by a busy writer, and one Watch.
            let (loaded, watcher, watch, sent) = try await blocking { () -> ([TestConnection], TestConnection, UInt32, [[UInt32: Data]]) in
                let loaded = try (0..<8).map { _ in try TestConnection.owner(port: port) }
                let watcher = try TestConnection.owner(port: port)
                let watch = try watcher.sendRequest(MethodCatalog.watch, Workout_V1_WatchRequest())
                for _ in 0..<10 {
                    let frame = try watcher.readFrame { $0.callID == watch }
                    if try Workout_V1_WatchEvent(serializedBytes: frame.decodedBody(maxDecompressedSize: 1 << 24)).caughtUp { break }
                }
                stallWriter(household, for: 1.0)
                var sent: [[UInt32: Data]] = []
                for connection in loaded {
                    var writes: [UInt32: Data] = [:]
                    for _ in 0..<20 {
                        let entry = weightEntry()
                        writes[try connection.sendRequest(MethodCatalog.logWeight, logWeight(entry))] = entry.id
                    }
                    sent.append(writes)
                }
                // An inline read answered proves the server has read every request before it.
                for connection in loaded {
                    let health = try connection.sendRequest(MethodCatalog.health, Workout_V1_HealthRequest())
                    #expect(try connection.finalFrame(of: health).status == .ok)
                }
                return (loaded, watcher, watch, sent)
            }

            // GOAWAY goes out at once, from this thread: a task would wait for a thread of the
            // cooperative pool, which the suite's long synchronous tests may hold for a minute.
            server.beginShutdown()
            let shutdown = Task { await server.shutdown(gracePeriod: .seconds(5)) }
            let acknowledged = try await blocking { () -> (ok: Set<Data>, refused: Set<Data>) in
                var ok: Set<Data> = []
                var refused: Set<Data> = []
                // Every connection gets GOAWAY naming its last call; a call sent after it
                // (while the writes are still held) is refused.
                var late: [(callID: UInt32, id: Data)] = []
                for connection in loaded {
                    let goAway = try connection.readFrame { $0.type == .goAway }
                    #expect(goAway.status == .ok && goAway.callID == connection.upcomingCallID - 1)
                    #expect(LimitsTests.details(goAway).message.contains("shutting down"))
                    let entry = weightEntry()
                    late.append((try connection.sendRequest(MethodCatalog.logWeight, logWeight(entry)), entry.id))
                }
                // The calls in flight then finish, and the server closes.
                for (index, connection) in loaded.enumerated() {
                    let frames = try connection.readUntilClosed()
                    var finals: [UInt32: StatusCode] = [:]
                    for frame in frames where frame.type == .response {
                        #expect(finals.updateValue(frame.status, forKey: frame.callID) == nil)
                    }
                    // Never processed: answered UNAVAILABLE while draining, or not at all once closed.
                    #expect(finals[late[index].callID] == .unavailable || finals[late[index].callID] == nil)
                    refused.insert(late[index].id)
                    for (callID, id) in sent[index] {
                        #expect(finals[callID] == .ok, "call \(callID) was not finished")
                        if finals[callID] == .ok { ok.insert(id) }
                    }
                }
                // Live events for the writes that committed before the GOAWAY may come first, and a
                // keepalive PING when the watcher was quiet long enough on a busy machine.
                let frames = try watcher.readUntilClosed().filter { $0.type != .streamMessage && $0.type != .ping }
                #expect(frames.map(\.type) == [.streamEnd, .goAway])
                #expect(frames.first?.callID == watch && frames.first?.status == .unavailable)
                #expect(frames.last?.callID == watch && frames.last?.status == .ok)
                return (ok, refused)
            }
            await shutdown.value
            #expect(server.openConnections == 0)
            let refused = (try? TestConnection(port: port)) == nil
            #expect(refused, "the server still accepts connections")
            household.close()

            let stored = try await Self.storedWeightIDs(in: directory)
            #expect(acknowledged.ok.count == 160)
            #expect(acknowledged.ok.isSubset(of: stored))
            #expect(stored.isDisjoint(with: acknowledged.refused))
        }
    }

    @Test("shutdown under continuous load from 8 connections: every call up to GOAWAY's id is answered, none after it is applied, and every OK write survives a reopen")
    func gracefulShutdownUnderContinuousLoad() async throws {
        try await withTemporaryDirectory { directory in
            let household = try openHousehold(at: directory, durable: true)
            _ = try household.createOwner(email: ownerEmail, password: ownerPassword, firstName: "Olga", timeZone: "Europe/Berlin")
            let server = makeServer(household: household)
            // A failed expectation that throws (a read timing out on a loaded machine) must not
            // leave the store open: its deinit would stop the whole test process.
            defer {
                server.stopNow()
                household.close()
            }
            let port = try server.start()[0].port
            let ready = ReadyCount()

            /// What one client saw: the writes answered OK, those answered otherwise, and
            /// whether the GOAWAY rules held.
            struct Outcome: Sendable {
                var ok: Set<Data> = []
                var notOK: Set<Data> = []
                var goAwaySeen = false
                var unansweredUpToLast: [UInt32] = []
                var okAfterLast: [UInt32] = []
            }

            let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await blocking {
                            var outcome = Outcome()
                            let connection = try TestConnection.owner(port: port)
                            ready.count.add(1, ordering: .relaxed)
                            var sent: [UInt32: Data] = [:]
                            var finals: [UInt32: StatusCode] = [:]
                            var last: UInt32?
                            // Until the server's GOAWAY and close end the loop; the bound only
                            // keeps a broken server from hanging the test. It must outlast the
                            // wait for the slowest client to log in (scrypt, on a loaded machine),
                            // which the first client spends sending already.
                            let started = Date()
                            loop: while Date().timeIntervalSince(started) < 120 {
                                var batch: [UInt32] = []
                                if last == nil {
                                    for _ in 0..<5 {
                                        let entry = weightEntry()
                                        guard let id = try? connection.sendRequest(MethodCatalog.logWeight, logWeight(entry)) else { break }
                                        sent[id] = entry.id
                                        batch.append(id)
                                    }
                                }
                                while batch.contains(where: { finals[$0] == nil }) || last != nil {
                                    let frame: Frame
                                    do {
                                        frame = try connection.readFrame()
                                    } catch is TestConnection.Closed {
                                        break loop
                                    }
                                    switch frame.type {
                                    case .goAway:
                                        #expect(frame.status == .ok)
                                        last = frame.callID
                                    case .response:
                                        #expect(finals.updateValue(frame.status, forKey: frame.callID) == nil)
                                    default:
                                        break
                                    }
                                }
                            }
                            guard let last else { return outcome }
                            outcome.goAwaySeen = true
                            for (callID, id) in sent {
                                if finals[callID] == .ok { outcome.ok.insert(id) } else { outcome.notOK.insert(id) }
                                if callID <= last && finals[callID] == nil { outcome.unansweredUpToLast.append(callID) }
                                if callID > last && finals[callID] == .ok { outcome.okAfterLast.append(callID) }
                                if callID > last, let status = finals[callID] { #expect(status == .unavailable) }
                            }
                            return outcome
                        }
                    }
                }
                // Let the load run a little, then shut down in the middle of it.
                for _ in 0..<3_000 where ready.count.load(ordering: .relaxed) < 8 { try await Task.sleep(for: .milliseconds(10)) }
                try await Task.sleep(for: .milliseconds(300))
                await server.shutdown(gracePeriod: .seconds(5))
                var outcomes: [Outcome] = []
                for try await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
            household.close()

            #expect(outcomes.count == 8)
            #expect(outcomes.allSatisfy { $0.goAwaySeen })
            #expect(outcomes.allSatisfy { $0.unansweredUpToLast.isEmpty })
            #expect(outcomes.allSatisfy { $0.okAfterLast.isEmpty })
            let ok = outcomes.reduce(into: Set<Data>()) { $0.formUnion($1.ok) }
            let notOK = outcomes.reduce(into: Set<Data>()) { $0.formUnion($1.notOK) }
            #expect(ok.count > 40, "the load did not get going before the shutdown")
            let stored = try await Self.storedWeightIDs(in: directory)
            #expect(ok.isSubset(of: stored), "\(ok.subtracting(stored).count) acknowledged writes are missing")
            #expect(stored.isDisjoint(with: notOK))
        }
    }
}

/// How many load clients are connected (shared between their threads).
private final class ReadyCount: Sendable {
    let count = Atomic<Int>(0)
}
