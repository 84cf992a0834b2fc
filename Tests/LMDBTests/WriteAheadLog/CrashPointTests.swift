@testable import LMDB
import Testing
import TestSupport

/// The write-ahead log on an in-memory disk, crashed at random points: thousands of runs of
/// commits, background and synchronous checkpoints and file switches, each cut at one write or
/// sync, with each unsynced sector kept or lost at random, reopened in place and as a copy.
@Suite("The write-ahead log keeps exactly the acknowledged commits across any crash")
struct CrashPointTests {
    /// One run: what was committed and acknowledged before the crash, and the disk it left.
    struct Run {
        var model: ModelStore
        var acknowledged: [UInt64: [UInt8]] = [:]
        var image: MemoryDisk
        var limits: LogPolicy.Limits
    }

    /// Commits, checkpoints and background steps chosen by `seed`, cut at a random operation
    /// (some runs also fail a few operations with `EIO` first), then a power cut's image.
    static func run(seed: UInt64, trace: (String) -> Void = { _ in }) throws -> Run {
        var random = SeededGenerator(seed: seed)
        let disk = MemoryDisk()
        let model = ModelStore(disk: disk)
        let held = HeldWork()
        var limits = LogPolicy.Limits()
        limits.checkpointCommits = Int.random(in: 1...12, using: &random)
        limits.checkpointBytes = Int.random(in: 1_000...8_000, using: &random)
        limits.switchBytes = Int.random(in: 5_000...20_000, using: &random)
        let steps = Int.random(in: 10...160, using: &random)
        disk.faults.crashAt = Int.random(in: 1...(steps * 3), using: &random)
        if seed % 3 == 0 {
            disk.faults.failing = Set((0..<3).map { _ in Int.random(in: 1...(steps * 3), using: &random) })
        }
        var acknowledged: [UInt64: [UInt8]] = [:]
        do {
            let log = try WriteAheadLog.open(on: disk, model: model, limits: limits, held: held)
            for _ in 0..<steps {
                switch Int.random(in: 0..<10, using: &random) {
                case 0, 1:
                    trace("background (op \(disk.operations))")
                    held.runOne()
                case 2:
                    trace("checkpoint (op \(disk.operations))")
                    do { try log.checkpoint(keepingPin: true) } catch { trace("  failed: \(error)") }
                default:
                    let length = Int.random(in: 0...700, using: &random)
                    let payload = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
                    let transactionID = model.commit(payload)
                    do {
                        trace("commit \(transactionID) of \(payload.count) (op \(disk.operations))")
                        try log.committed(transactionID, record: payload.isEmpty ? nil : payload)
                        acknowledged[transactionID] = payload
                    } catch {
                        trace("  failed: \(error)")
                        // Reported failed: committed and visible, not acknowledged.
                    }
                }
                if disk.crashed { break }
            }
        } catch {
            trace("open/loop failed: \(error)")
            // The opening failed (a failing operation or the crash): nothing was acknowledged.
        }
        return Run(model: model, acknowledged: acknowledged, image: disk.crashImage(using: &random), limits: limits)
    }

    /// Reopens what `run` left (on `disk`: its image or a copy) and checks that the store holds
    /// a prefix of what was committed that has every acknowledged commit.
    static func checkReopening(_ run: Run, on disk: MemoryDisk, seed: UInt64) throws {
        let recovered = run.model.afterCrash(on: disk)
        let held = HeldWork()
        let log: WriteAheadLog
        do {
            log = try WriteAheadLog.open(on: disk, model: recovered, limits: run.limits, held: held)
        } catch {
            Issue.record("seed \(seed): reopening failed: \(error)")
            return
        }
        let kept = recovered.transactions
        let newestAcknowledged = run.acknowledged.keys.max() ?? 0
        #expect(kept.count >= Int(newestAcknowledged), "seed \(seed): \(kept.count) transactions kept, \(newestAcknowledged) acknowledged")
        #expect(kept == Array(run.model.transactions.prefix(kept.count)), "seed \(seed): the store is not what was committed")
        for (transactionID, payload) in run.acknowledged where Int(transactionID) <= kept.count {
            #expect(kept[Int(transactionID) - 1] == payload, "seed \(seed): transaction \(transactionID) differs")
        }
        log.close()
        #expect(recovered.pins == 0, "seed \(seed): \(recovered.pins) pins left open")
    }

    @Test("Reopening after a crash at any point yields every acknowledged commit, in place", arguments: 0..<4)
    func inPlace(batch: Int) throws {
        for seed in UInt64(batch * 500)..<UInt64(batch * 500 + 500) {
            let run = try Self.run(seed: seed)
            try Self.checkReopening(run, on: run.image, seed: seed)
        }
    }

    @Test("Reopening after a crash at any point yields every acknowledged commit, on a copy of the directory", arguments: 0..<2)
    func onACopy(batch: Int) throws {
        for seed in UInt64(10_000 + batch * 500)..<UInt64(10_000 + batch * 500 + 500) {
            let run = try Self.run(seed: seed)
            try Self.checkReopening(run, on: run.image.copy(), seed: seed)
        }
    }

    /// A record of a live log file, as a test sees it.
    struct LiveRecord {
        var name: String
        var transactionID: UInt64
        var offset: Int
        var length: Int
    }

    /// The records of the log's live files (of the recorded checkpoint's oldest generation or
    /// later), file by file in the order recovery reads them, and the checkpoint's transaction.
    static func liveFiles(on disk: MemoryDisk) throws -> (checkpointed: UInt64, files: [[LiveRecord]]) {
        guard let checkpoint = try CheckpointFile(WriteAheadLog.checkpointFileName, in: disk).latest() else { return (0, []) }
        var files: [(generation: UInt64, records: [LiveRecord])] = []
        for name in WriteAheadLog.logFileNames {
            let file = try disk.open(name)
            guard let header = try file.read(count: LogFormat.fileHeaderSize, at: 0).withUnsafeBytes({ LogFormat.decodeFileHeader($0) }),
                  header.generation >= checkpoint.oldestGeneration
            else { continue }
            let scanner = try LogScanner(file, header: header)
            var records: [LiveRecord] = []
            while case .record(let transactionID, let payload, let offset) = try scanner.next() {
                records.append(LiveRecord(name: name, transactionID: transactionID, offset: offset, length: LogFormat.recordHeaderSize + payload.count))
            }
            files.append((header.generation, records))
        }
        return (checkpoint.transactionID, files.sorted { $0.generation < $1.generation }.map(\.records))
    }

    /// The records the log holds after its recorded checkpoint, in the order recovery reads them.
    static func liveRecords(on disk: MemoryDisk) throws -> [LiveRecord] {
        let (checkpointed, files) = try liveFiles(on: disk)
        return files.joined().filter { $0.transactionID > checkpointed }
    }

    @Test("A synced byte damaged in a record with acknowledged records after it refuses the opening; a repair keeps the prefix")
    func damageRefuses() throws {
        var damaged = 0
        for seed in UInt64(20_000)..<UInt64(20_400) {
            var run = try Self.run(seed: seed)
            let records = try Self.liveRecords(on: run.image)
            // Damage any record but the last one the log holds (that one reads as torn).
            guard records.count >= 2 else { continue }
            var random = SeededGenerator(seed: seed)
            let victim = records[Int.random(in: 0..<(records.count - 1), using: &random)]
            let file = try #require(run.image.files[victim.name])
            file.damage(at: victim.offset + Int.random(in: 0..<victim.length, using: &random))
            damaged += 1

            let refused = run.model.afterCrash(on: run.image)
            let error = #expect(throws: LMDBError.self, "seed \(seed)") {
                _ = try WriteAheadLog.open(on: run.image, model: refused, limits: run.limits, held: HeldWork())
            }
            #expect(error?.code == .writeAheadLogDamaged, "seed \(seed): \(String(describing: error))")
            #expect(error?.message.contains("memory/wal-") == true, "seed \(seed): \(String(describing: error))")

            let repaired = run.model.afterCrash(on: run.image)
            let log = try WriteAheadLog.open(on: run.image, model: repaired, limits: run.limits, held: HeldWork(), mode: .repair)
            #expect(repaired.transactions.count == Int(victim.transactionID) - 1, "seed \(seed)")
            #expect(repaired.transactions == Array(run.model.transactions.prefix(repaired.transactions.count)), "seed \(seed)")
            #expect(log.recovery.droppedTransactions >= 1, "seed \(seed)")
            #expect(log.recovery.damage != nil, "seed \(seed)")
            log.close()
            // The repaired store opens again without a word, with what the repair kept.
            run.model = repaired
            let again = run.model.afterCrash(on: run.image)
            let reopened = try WriteAheadLog.open(on: run.image, model: again, limits: run.limits, held: HeldWork())
            #expect(again.transactions == repaired.transactions, "seed \(seed)")
            reopened.close()
        }
        #expect(damaged > 100)
    }

    /// The records of the log's live files that its checkpoint covers, but each file's last.
    static func coveredRecords(on disk: MemoryDisk) throws -> [LiveRecord] {
        let (checkpointed, files) = try liveFiles(on: disk)
        return files.flatMap { $0.filter { $0.transactionID <= checkpointed }.dropLast() }
    }

    @Test("Damage among records the checkpoint covers, with records after it, opens as if none were there")
    func damageInCoveredRecords() throws {
        var damaged = 0
        for seed in UInt64(30_000)..<UInt64(30_400) {
            let run = try Self.run(seed: seed)
            let covered = try Self.coveredRecords(on: run.image)
            guard !covered.isEmpty else { continue }
            var random = SeededGenerator(seed: seed)
            let victim = covered[Int.random(in: 0..<covered.count, using: &random)]
            try #require(run.image.files[victim.name]).damage(at: victim.offset + Int.random(in: 0..<victim.length, using: &random))
            damaged += 1
            try Self.checkReopening(run, on: run.image, seed: seed)
        }
        #expect(damaged > 50)
    }
}
