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
            let client = try await blocking { try FaceClient.owner(face, port: port) }
            // The first HTTP call resumes its bearer token's session (a write of its own).
            _ = try await blocking { try client.call(MethodCatalog.logWeight, logWeight(weightEntry(kilograms: 69))) }
            // Committed on the writer's queue, it may still be marking itself idle.
            for _ in 0..<5_000 where !household.store.writer.isIdle { try await Task.sleep(for: .milliseconds(1)) }
            let before = household.store.writer.statistics
            let entries = (0..<5).map { weightEntry(kilograms: 70 + Double($0)) }
            for entry in entries {
                let response = try await blocking { try client.call(MethodCatalog.logWeight, logWeight(entry)) }
                #expect(response.entry.id == entry.id && !response.replayed)
            }
            let after = household.store.writer.statistics
            #expect(after.commits - before.commits == 5)
            #expect(after.callerCommits - before.callerCommits == 5)
            // Answered only once durable, and readable by the next call.
            let progress = try await blocking { try client.call(MethodCatalog.weightProgress, Workout_V1_WeightProgressRequest()) }
            #expect(Set(progress.entries.map(\.id)).isSuperset(of: entries.map(\.id)))
        }
    }
}
