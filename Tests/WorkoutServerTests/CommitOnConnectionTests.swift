import Dispatch
import Foundation
import ServerTestSupport
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol

/// A write that finds the writer idle is committed on its connection's own thread: no wake-up
/// of the writer's thread, and none back (GroupCommitWriter's `mayCommitOnCaller`).
@Suite("A connection commits its own write when the writer is idle")
struct CommitOnConnectionTests {
    @Test("Lone LogWeight calls are committed on the connection's thread, durable, and answered", arguments: Face.allCases)
    func loneWritesCommitOnTheConnection(face: Face) async throws {
        try await withServer(durable: true) { _, household, port in
            let writer = household.store.writer
            // One thread makes the calls back to back, so the connection is never idle long.
            let (commits, callerCommits, entries, stored) = try await blocking { () -> (Int, Int, [Workout_V1_WeightEntry], Set<Data>) in
                let client = try FaceClient.owner(face, port: port)
                // The first HTTP call resumes its bearer token's session (a write of its own),
                // and a write committed on the writer's queue is answered just before the
                // writer marks itself idle.
                _ = try client.call(MethodCatalog.logWeight, logWeight(weightEntry(kilograms: 69)))
                let deadline = Date().addingTimeInterval(10)
                while !writer.isIdle && Date() < deadline { usleep(1_000) }
                let before = writer.statistics
                let entries = (0..<5).map { weightEntry(kilograms: 70 + Double($0)) }
                for entry in entries {
                    let response = try client.call(MethodCatalog.logWeight, logWeight(entry))
                    #expect(response.entry.id == entry.id && !response.replayed)
                }
                let after = writer.statistics
                // Answered only once durable, and readable by the next call.
                let progress = try client.call(MethodCatalog.weightProgress, Workout_V1_WeightProgressRequest())
                return (after.commits - before.commits, after.callerCommits - before.callerCommits, entries, Set(progress.entries.map(\.id)))
            }
            #expect(commits == 5)
            #expect(callerCommits == 5)
            #expect(stored.isSuperset(of: entries.map(\.id)))
        }
    }

    @Test("Writes sent together on one connection are batched on the writer's queue, not each committed on the connection")
    func pipelinedWritesAreBatched() async throws {
        try await withServer(durable: true) { _, household, port in
            let writer = household.store.writer
            let (commits, callerCommits, statuses, waited) = try await blocking { () -> (Int, Int, [StatusCode], Bool) in
                let connection = try TestConnection.owner(port: port)
                _ = try connection.call(MethodCatalog.logWeight, logWeight(weightEntry(kilograms: 69)))
                let deadline = Date().addingTimeInterval(10)
                while !writer.isIdle && Date() < deadline { usleep(1_000) }
                // The writer is held inside a batch of its own (a gate the test holds, not a
                // guess at the scheduler) while the eight writes arrive.
                let inside = DispatchSemaphore(value: 0)
                let released = DispatchSemaphore(value: 0)
                let held = DispatchSemaphore(value: 0)
                writer.submit({ _ in
                    inside.signal()
                    released.wait()
                }, completion: { _ in held.signal() })
                inside.wait()
                let before = writer.statistics
                // Eight requests in one write: the connection starts eight write tasks at once.
                let first = connection.upcomingCallID
                let ids = (0..<UInt32(8)).map { first + $0 }
                let frames = try ids.map { id in
                    Frame(type: .request, callID: id, code: MethodCatalog.logWeight.number,
                          body: try logWeight(weightEntry(kilograms: 60 + Double(id - first))).serializedBytes())
                }
                try connection.write(frames)
                let waitUntil = Date().addingTimeInterval(30)
                while writer.pendingOperations < 8 && Date() < waitUntil { usleep(1_000) }
                let waited = writer.pendingOperations == 8
                released.signal()
                let statuses = try ids.map { try TestConnection.status(of: connection.finalFrame(of: $0)).0 }
                held.wait()
                let after = writer.statistics
                return (after.commits - before.commits, after.callerCommits - before.callerCommits, statuses, waited)
            }
            #expect(waited, "the eight writes did not reach the writer")
            #expect(statuses == Array(repeating: .ok, count: 8))
            // None was committed on the connection: the writer was busy, and they joined its
            // next batch, all eight together (the held batch is the other commit).
            #expect(callerCommits == 0)
            #expect(commits == 2)
        }
    }
}
