@testable import LMDB
import Testing
import TestSupport

/// The log's ceiling: when the data file cannot be synced, the log holds every acknowledged
/// write up to a bound, then refuses writes instead of growing without one.
@Suite("The write-ahead log's ceiling")
struct CeilingTests {
    @Test("After the data file's syncs fail, writes are refused at the ceiling, and reopening brings every acknowledged one back")
    func refusesAtTheCeiling() throws {
        let disk = MemoryDisk()
        let model = ModelStore(disk: disk)
        let held = HeldWork()
        var limits = LogPolicy.Limits()
        limits.checkpointCommits = 2
        limits.ceilingBytes = 20_000
        let log = try WriteAheadLog.open(on: disk, model: model, limits: limits, held: held)
        model.failSyncs = true
        var acknowledged: [UInt64: [UInt8]] = [:]
        var refusal: LMDBError?
        for index in 0..<200 {
            do {
                try log.admitWrite()
            } catch {
                refusal = error
                break
            }
            let payload = [UInt8](repeating: UInt8(index % 251), count: 500)
            let transactionID = model.commit(payload)
            try log.committed(transactionID, record: payload)
            acknowledged[transactionID] = payload
            held.runOne()
        }
        let error = try #require(refusal)
        #expect(error.code == .writeAheadLogFull)
        #expect(error.message.contains("the store cannot make its data file durable"))
        #expect(error.message.contains("opening the store again replays it"))
        #expect(acknowledged.count >= 20_000 / 532 && acknowledged.count < 200)
        #expect(log.status.refusingWrites && log.status.dataSyncFailed)

        // The process ends (a restart); the disk works again.
        var random = SeededGenerator(seed: 7)
        let image = disk.crashImage(using: &random)
        let reopened = model.afterCrash(on: image)
        let again = try WriteAheadLog.open(on: image, model: reopened, limits: limits, held: HeldWork())
        for (transactionID, payload) in acknowledged { #expect(reopened.transactions[Int(transactionID) - 1] == payload) }
        try again.admitWrite()
        #expect(!again.status.refusingWrites && again.status.uncoveredBytes == 0)
        again.close()
    }
}
