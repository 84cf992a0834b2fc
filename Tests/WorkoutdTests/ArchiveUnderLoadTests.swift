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

/// `workoutd backup --archive` while clients write through a running `workoutd serve`, then
/// `workoutd restore` into a new directory: the restored store holds exactly what was committed
/// when the copy was taken, and serves it.
@Suite("workoutd backup under a writing load, restored into a new directory")
struct ArchiveUnderLoadTests {
    static let writers = 3
    /// The most entries one writer logs (bounds the test's time).
    static let maxPerWriter = 1_500

    /// The id of writer `writer`'s `number`th entry.
    static func entryID(writer: Int, number: Int) -> UUID {
        var bytes = [UInt8](repeating: 0x5A, count: 16)
        bytes[0] = UInt8(writer)
        bytes[1] = UInt8(number >> 8)
        bytes[2] = UInt8(number & 0xFF)
        return UUID(bytes: bytes)
    }

    /// Per writer: the highest number acknowledged, and the highest sent.
    struct Progress: Sendable {
        var acknowledged = [Int](repeating: 0, count: ArchiveUnderLoadTests.writers)
        var sent = [Int](repeating: 0, count: ArchiveUnderLoadTests.writers)
    }

    @Test("The restored store holds, for every writer, exactly the entries up to one that was committed during the backup")
    func backupUnderLoad() async throws {
        try await withTemporaryDirectory { directory in
            let data = directory + "/data"
            try createOwner(data)
            let server = try ServeProcess(dataDirectory: data)
            defer { server.stop(SIGTERM) }
            let progress = Mutex(Progress())
            let stop = Atomic<Bool>(false)
            let started = Date()
            var user = UUID()
            let connections = try (0..<Self.writers).map { _ -> TestConnection in
                let signedIn = try signedInConnection(port: server.port)
                user = signedIn.user
                return signedIn.connection
            }
            let group = DispatchGroup()
            for (writer, connection) in connections.enumerated() {
                DispatchQueue.global().async(group: group) {
                    var number = 1
                    // Sequential on each connection: entry n is sent only after n-1 was acknowledged.
                    while number <= Self.maxPerWriter && !stop.load(ordering: .relaxed) && Date().timeIntervalSince(started) < 60 {
                        var request = Workout_V1_LogWeightRequest()
                        request.entry.id = Self.entryID(writer: writer, number: number).data
                        request.entry.weightKg = 70
                        request.entry.measuredAtMs = Int64(started.timeIntervalSince1970 * 1000) - 3_600_000 + Int64(number * 10 + writer)
                        progress.withLock { $0.sent[writer] = number }
                        guard let reply = try? connection.call(MethodCatalog.logWeight, request), reply.entry.id == request.entry.id else { return }
                        progress.withLock { $0.acknowledged[writer] = number }
                        number += 1
                    }
                }
            }
            // Let writes flow, then back up while they go on.
            let warmUp = Date().addingTimeInterval(20)
            while progress.withLock({ $0.acknowledged.min() ?? 0 }) < 30 && Date() < warmUp { usleep(5_000) }
            let before = progress.withLock { $0.acknowledged }
            let backup = try WorkoutdProcess.run(["backup", "--data-dir", data, "--archive", directory + "/load.tar.gz"])
            let after = progress.withLock { $0.sent }
            // Keep writing a little after the backup, then stop.
            let more = after.reduce(0, +) + 50
            let tail = Date().addingTimeInterval(10)
            while progress.withLock({ $0.acknowledged.reduce(0, +) }) < more && Date() < tail { usleep(5_000) }
            stop.store(true, ordering: .relaxed)
            _ = group.wait(timeout: .now() + 30)
            #expect(backup.status == 0, "\(backup)")
            #expect(before.allSatisfy { $0 >= 30 }, "the load did not get going: \(before)")
            #expect(after.reduce(0, +) < Self.writers * Self.maxPerWriter, "writers ran out before the backup ended: \(after)")

            let restore = try WorkoutdProcess.run(["restore", "--data-dir", directory + "/restored", directory + "/load.tar.gz"])
            #expect(restore.status == 0, "\(restore)")
            #expect(restore.output.contains("Checked: SHA-256 "), "\(restore)")

            // Per writer, a prefix 1...k with k between what was acknowledged before the backup
            // began and what had been sent when it ended: no hole, nothing from after the copy.
            var total = 0
            try await withHousehold(directory + "/restored") { household in
                let counts = try household.store.read { txn throws in
                    (try txn.count(of: household.tables.weights.table), try txn.statistics(of: household.tables.weightsByTime.database).entries)
                }
                #expect(counts.0 == counts.1, "records and index entries disagree: \(counts)")
                for writer in 0..<Self.writers {
                    let present = try household.store.read { txn throws in
                        try (1...Self.maxPerWriter).filter { number in
                            try txn.get(UserRecordKey(user: user, id: Self.entryID(writer: writer, number: number)), from: household.tables.weights.table) != nil
                        }
                    }
                    let k = present.count
                    #expect(present == Array((0..<k).map { $0 + 1 }), "writer \(writer): entries with holes")
                    #expect(k >= before[writer] && k <= after[writer], "writer \(writer): \(k) restored, \(before[writer]) acknowledged before, \(after[writer]) sent by the end")
                    total += k
                }
                #expect(counts.0 == total)
            }
            let manifest = try BackupArchive.readManifest(directory + "/load.tar.gz", schema: HouseholdSchema.schema)
            #expect(manifest.records["weights"] == total)
            print("backup under load: \(total) of \(progress.withLock { $0.acknowledged.reduce(0, +) }) acknowledged entries were in the copy (\(before) before, \(after) by its end)")

            // The restored store serves: log in over the protocol and read every entry back.
            let restored = try ServeProcess(dataDirectory: directory + "/restored")
            defer { restored.stop(SIGTERM) }
            let client = try signedInConnection(port: restored.port).connection
            var served = 0
            var request = Workout_V1_WeightProgressRequest()
            request.pageSize = 1_000
            repeat {
                let page = try client.call(MethodCatalog.weightProgress, request)
                served += page.entries.count
                request.pageToken = page.nextPageToken
            } while !request.pageToken.isEmpty
            #expect(served == total)
        }
    }
}
