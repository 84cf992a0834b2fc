import Foundation
import ProcessTestSupport
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A power cut in the middle of writes, on a file system that loses every write not yet synced
/// (Tests/PowerCutFS): after it, every write the server answered OK is in the store. The
/// server answers a write once its record in the write-ahead log is synced; the data file is
/// synced only by checkpoints, so here the opening after the cut must put the last checkpoint
/// back and replay the log. The second round writes past several background checkpoints.
@Suite("workoutd on a disk whose unsynced writes a power cut drops", .serialized)
struct PowerCutTests {
    @Test(
        "Three power cuts under writes: every acknowledged write survives each",
        .enabled(if: PowerCutFileSystem.unavailableReason == nil, "\(PowerCutFileSystem.unavailableReason ?? "")"))
    func powerCuts() async throws {
        try await withTemporaryDirectory { directory in
            var droppedBytes: UInt64 = 0
            var acknowledgedInAll = Set<Data>()
            for round in 1...3 {
                let disk = try PowerCutFileSystem(in: directory)
                defer { disk.unmount() }
                let data = disk.mountPoint + "/data"
                if round == 1 { try createOwner(data) }
                let server = try ServeProcess(dataDirectory: data)
                let wanted = round == 2 ? 2_000 : 100
                let (user, acknowledged) = try ServeProcessTests.writeUntilStopped(port: server.port, acknowledging: wanted) {
                    // The power goes: the server dies, and what it did not sync is gone.
                    _ = server.stop(SIGKILL)
                    try? disk.cut()
                }
                let counters = try disk.counters()
                droppedBytes += counters["bytes_dropped"] ?? 0
                #expect(counters["cuts"] == 1)
                #expect(acknowledged.count >= wanted, "only \(acknowledged.count) writes were acknowledged")
                disk.unmount()
                acknowledgedInAll.formUnion(acknowledged)
                print("power cut \(round): \(acknowledged.count) writes acknowledged, \(counters["bytes_dropped"] ?? 0) unsynced bytes dropped")
                // What the disk kept, read without the file system (no page cache of its own).
                try await ServeProcessTests.expectStored(acknowledgedInAll, user: user, in: disk.backing + "/data")
            }
            // The cuts did drop writes, so the check above had something to catch.
            #expect(droppedBytes > 0, "no cut found an unsynced write to drop")
        }
    }
}
