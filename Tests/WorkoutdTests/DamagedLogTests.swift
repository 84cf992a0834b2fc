import Foundation
import ProcessTestSupport
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol
#if canImport(Glibc)
import Glibc
#endif

/// A store whose write-ahead log was damaged after a crash, as a household meets it: the
/// server refuses to start and says where and what to do, and `workoutd repair` keeps every
/// write up to the damage.
@Suite("workoutd with a damaged write-ahead log")
struct DamagedLogTests {
    @Test("A byte flipped in the log after SIGKILL: serve refuses naming the file, repair keeps the writes before it")
    func refusesThenRepairs() async throws {
        try await withTemporaryDirectory { directory in
            let data = directory + "/data"
            try createOwner(data)
            let server = try ServeProcess(dataDirectory: data)
            let (connection, user) = try signedInConnection(port: server.port)
            var ids: [Data] = []
            for index in 0..<120 {
                var request = Workout_V1_LogWeightRequest()
                request.entry.id = UUID().data
                request.entry.weightKg = 60 + Double(index) / 10
                request.entry.measuredAtMs = Int64(Date().timeIntervalSince1970 * 1000) - 60_000 - Int64(index)
                let frame = try connection.finalFrame(of: connection.sendRequest(MethodCatalog.logWeight, request))
                #expect(frame.code == 0)
                ids.append(request.entry.id)
            }
            // Killed before a checkpoint: the 120 weigh-ins are in the log alone.
            _ = server.stop(SIGKILL)

            // One byte flipped halfway through wal-0's records.
            let log = data + "/wal-0"
            var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: log)))
            let end = (bytes.lastIndex { $0 != 0 } ?? 0) + 1
            let middle = 4_096 + (end - 4_096) / 2
            bytes[middle] ^= 0x20
            try Data(bytes).write(to: URL(fileURLWithPath: log))

            let refused = try WorkoutdProcess.run(["serve", "--data-dir", data, "--port", "0", "--transport", "plain"], timeout: 60)
            #expect(refused.status == 2, "\(refused.output)\(refused.error)")
            #expect(refused.error.contains("\(data)/wal-0 is damaged at offset"), "\(refused.error)")
            #expect(refused.error.contains("workoutd repair"), "\(refused.error)")

            let repaired = try WorkoutdProcess.run(["repair", "--data-dir", data], timeout: 60)
            #expect(repaired.status == 0, "\(repaired.output)\(repaired.error)")
            #expect(repaired.output.contains("kept every transaction up to"), "\(repaired.output)")
            #expect(repaired.output.contains("set aside: \(data)/wal-0.set-aside"), "\(repaired.output)")

            // The weigh-ins before the damage are all there, in order, and the server starts.
            let stored = try await withHousehold(data) { household in
                try household.store.read { txn in
                    try ids.map { try txn.get(UserRecordKey(user: user, id: UUID(bytes: $0)), from: household.tables.weights.table) != nil }
                }
            }
            let kept = stored.prefix { $0 }.count
            #expect(kept > 0 && kept < 120, "\(kept) of 120 kept")
            #expect(!stored[kept...].contains(true), "a weigh-in after the damage came back")
            let restarted = try ServeProcess(dataDirectory: data)
            let (reason, status) = restarted.stop(SIGTERM)
            #expect(reason == .exit && status == 0)
        }
    }
}
