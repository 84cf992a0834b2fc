import Foundation
@testable import LMDB
import Testing
import TestSupport

/// Recovery on real files: a copy of a crashed directory, damage in the middle of the log, a
/// repair, and a store whose log the first format wrote.
@Suite("Recovery of a store's write-ahead log on disk")
struct RecoveryOnDiskTests {
    typealias Cut = WriteAheadLogTests

    /// Copies every file of `source` into the new directory `target` (new inodes, same bytes:
    /// `cp -a` or `rsync` to a new card).
    static func copyDirectory(_ source: String, to target: String) throws {
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: source) {
            try Data(contentsOf: URL(fileURLWithPath: source + "/" + name)).write(to: URL(fileURLWithPath: target + "/" + name))
        }
    }

    /// Writes 40 values after the opening checkpoint, then cuts the power (see
    /// ``WriteAheadLogTests/writeThenCutPower(in:configuration:damage:setUp:_:)``).
    static func fortyWritesCut(in path: String, damage: (inout [UInt8]) -> Void = { _ in }) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Cut.writeThenCutPower(in: path, damage: damage) { environment throws in
            let things = try environment.openDatabase(named: "things")
            for index in 0..<40 {
                try environment.write { txn throws in try txn.put(Array(repeating: UInt8(index), count: 300), forKey: [UInt8(index)], in: things) }
            }
        }
    }

    /// The offsets of the records of `log`'s current generation, in order.
    static func recordOffsets(_ log: [UInt8]) -> [Int] {
        guard let header = log.withUnsafeBytes({ LogFormat.decodeFileHeader($0) }) else { return [] }
        var offsets: [Int] = []
        var offset = LogFormat.headerBlockSize
        while offset + LogFormat.recordHeaderSize <= log.count {
            guard case .header(let record) = log[offset...].withUnsafeBytes({ LogFormat.decodeRecordHeader($0, salt: header.salt) }),
                  record.generation == header.generation
            else { break }
            offsets.append(offset)
            offset += LogFormat.recordHeaderSize + record.payloadLength
        }
        return offsets
    }

    static func count(in path: String, configuration: Environment.Configuration = Cut.configuration()) throws -> (Environment, Int) {
        let environment = try Environment(path: path, configuration: configuration)
        let things = try environment.openDatabase(named: "things", flags: [])
        let entries = try environment.read { txn throws in try txn.statistics(of: things).entries }
        return (environment, entries)
    }

    @Test("A copy of a crashed directory recovers exactly as the directory in place")
    func copyAfterCrash() throws {
        try withTemporaryDirectory { path in
            try Self.fortyWritesCut(in: path + "/store")
            try Self.copyDirectory(path + "/store", to: path + "/copy")
            for directory in ["copy", "store"] {
                let (environment, entries) = try Self.count(in: path + "/" + directory)
                defer { environment.close() }
                #expect(environment.replayedTransactions == 41, "\(directory)")
                #expect(entries == 40, "\(directory)")
            }
        }
    }

    @Test("A byte damaged halfway through the log refuses the opening, naming the file and offset; a repair keeps the prefix")
    func damagedMiddle() throws {
        try withTemporaryDirectory { path in
            var victim = 0
            try Self.fortyWritesCut(in: path) { log in
                let offsets = Self.recordOffsets(log)
                victim = offsets[offsets.count / 2]
                log[victim + LogFormat.recordHeaderSize + 10] ^= 0x01
            }
            let error = #expect(throws: LMDBError.self) { try Environment(path: path, configuration: Cut.configuration()) }
            #expect(error?.code == .writeAheadLogDamaged)
            #expect(error?.message.contains("\(path)/wal-0 is damaged at offset \(victim)") == true, "\(String(describing: error))")
            #expect(error?.message.contains("workoutd repair") == true)
            // Refusing changed nothing: a second opening refuses the same way.
            #expect(throws: LMDBError.self) { try Environment(path: path, configuration: Cut.configuration()) }

            var repair = Cut.configuration()
            repair.repairWriteAheadLog = true
            let (repaired, entries) = try Self.count(in: path, configuration: repair)
            // The 41 records: the table's creation, then the 40 writes; the 21st is damaged.
            let kept = 41 / 2
            #expect(repaired.replayedTransactions == kept)
            #expect(entries == kept - 1)
            #expect(repaired.writeAheadLogRecovery?.droppedTransactions == 41 - kept)
            let setAside = repaired.writeAheadLogRecovery?.setAside ?? []
            #expect(setAside.count == 1 && setAside[0].hasPrefix("\(path)/wal-0.set-aside-"), "\(setAside)")
            #expect(try Cut.contents(setAside[0]).count == 1 << 20)
            repaired.close()
            let (again, entriesAgain) = try Self.count(in: path)
            #expect(again.replayedTransactions == 0)
            #expect(entriesAgain == kept - 1)
            again.close()
        }
    }

    @Test("A log file whose header was damaged after records followed it refuses the opening")
    func damagedHeader() throws {
        try withTemporaryDirectory { path in
            try Self.fortyWritesCut(in: path) { log in log[20] ^= 0x01 }
            let error = #expect(throws: LMDBError.self) { try Environment(path: path, configuration: Cut.configuration()) }
            #expect(error?.code == .writeAheadLogDamaged)
            #expect(error?.message.contains("\(path)/wal-0 is damaged at offset 0 (its header)") == true, "\(String(describing: error))")
        }
    }

    @Test("Log records without the checkpoint they follow are refused, even by a repair")
    func missingCheckpoint() throws {
        try withTemporaryDirectory { path in
            try Self.fortyWritesCut(in: path)
            try FileManager.default.removeItem(atPath: path + "/checkpoint")
            var repair = Cut.configuration()
            repair.repairWriteAheadLog = true
            for configuration in [Cut.configuration(), repair] {
                let error = #expect(throws: LMDBError.self) { try Environment(path: path, configuration: configuration) }
                #expect(error?.code == .writeAheadLogForeign)
                #expect(error?.message.contains("\(path)/wal-0 holds write-ahead log records, but \(path)/checkpoint holds no checkpoint") == true,
                        "\(String(describing: error))")
                #expect(error?.message.contains("Restore the last backup") == true)
            }
        }
    }

    @Test("A log of another store beside the data file is refused, never applied")
    func foreignLog() throws {
        try withTemporaryDirectory { path in
            try Self.fortyWritesCut(in: path + "/one")
            try Self.fortyWritesCut(in: path + "/two")
            try FileManager.default.removeItem(atPath: path + "/two/wal-0")
            try FileManager.default.copyItem(atPath: path + "/one/wal-0", toPath: path + "/two/wal-0")
            let error = #expect(throws: LMDBError.self) { try Environment(path: path + "/two", configuration: Cut.configuration()) }
            #expect(error?.code == .writeAheadLogForeign)
            #expect(error?.message.contains("\(path)/two/wal-0 is the write-ahead log of another store") == true, "\(String(describing: error))")
        }
    }

    // MARK: The first format

    /// A store as the log's first format left it after a crash: the data file synced at its
    /// checkpoint (a `CKP1` slot naming its inode), and `WAL1` records of three transactions
    /// after it that never reached the data file.
    static func firstFormatStore(in path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        var plain = Environment.Configuration()
        plain.mapSize = 1 << 20
        let environment = try Environment(path: path, configuration: plain)
        let things = try environment.openDatabase(named: "things")
        for index in 0..<5 { try environment.write { txn throws in try txn.put([UInt8(index)], forKey: [UInt8(index)], in: things) } }
        let last = UInt64(try environment.info().lastTransactionID)
        let pageSize = try environment.info().pageSize
        environment.close()

        let metaPages = Array(try Cut.contents(path + "/data.mdb").prefix(2 * pageSize))
        var inode = stat()
        #expect(stat(path + "/data.mdb", &inode) == 0)
        var slot = [UInt8](repeating: 0, count: CheckpointFormat.firstFormatHeaderSize)
        slot.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: CheckpointFormat.firstFormatMagic.littleEndian, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: UInt32(pageSize).littleEndian, toByteOffset: 4, as: UInt32.self)
            raw.storeBytes(of: last.littleEndian, toByteOffset: 8, as: UInt64.self)
            raw.storeBytes(of: UInt64(inode.st_ino).littleEndian, toByteOffset: 16, as: UInt64.self)
        }
        slot += metaPages
        let crc = (Array(slot[0..<32]) + Array(slot[36...])).withUnsafeBytes { LogFormat.checksum($0) }
        slot.withUnsafeMutableBytes { $0.storeBytes(of: crc.littleEndian, toByteOffset: 32, as: UInt32.self) }
        try Data(slot).write(to: URL(fileURLWithPath: path + "/checkpoint"))

        var log: [UInt8] = []
        for index in 0..<3 {
            let redo = RedoLog()
            let key: [UInt8] = [10 + UInt8(index)]
            let value = [UInt8](repeating: 0xEE, count: 50)
            key.withUnsafeBytes { keyBytes in
                value.withUnsafeBytes { valueBytes in redo.recordPut(in: things, key: keyBytes, value: valueBytes) }
            }
            var header = [UInt8](repeating: 0, count: LogFormat.FirstFormat.headerSize)
            header.withUnsafeMutableBytes { raw in
                raw.storeBytes(of: LogFormat.FirstFormat.magic.littleEndian, toByteOffset: 0, as: UInt32.self)
                raw.storeBytes(of: UInt32(redo.bytes.count).littleEndian, toByteOffset: 4, as: UInt32.self)
                raw.storeBytes(of: (last + 1 + UInt64(index)).littleEndian, toByteOffset: 8, as: UInt64.self)
            }
            let recordCRC = (Array(header[0..<16]) + redo.bytes).withUnsafeBytes { LogFormat.checksum($0) }
            header.withUnsafeMutableBytes { $0.storeBytes(of: recordCRC.littleEndian, toByteOffset: 16, as: UInt32.self) }
            log += header + redo.bytes
        }
        try Data(log + [UInt8](repeating: 0, count: 1_000)).write(to: URL(fileURLWithPath: path + "/wal-0"))
    }

    @Test("A store whose log the first format wrote opens, replays it, and goes on in the second")
    func upgradesFirstFormat() throws {
        try withTemporaryDirectory { path in
            try Self.firstFormatStore(in: path)
            let (environment, entries) = try Self.count(in: path)
            #expect(environment.replayedTransactions == 3)
            #expect(entries == 8)
            environment.close()
            let checkpoint = try CheckpointFile(WriteAheadLog.checkpointFileName, in: FileLogStorage(directory: path, directIO: false)).latest()
            #expect(checkpoint?.firstFormatInode == nil)
            #expect(checkpoint?.rootPage != nil)
            let (again, entriesAgain) = try Self.count(in: path)
            #expect(again.replayedTransactions == 0)
            #expect(entriesAgain == 8)
            again.close()
        }
    }

    @Test("A copy of a first-format store with records pending is refused, and a repair applies them")
    func firstFormatCopy() throws {
        try withTemporaryDirectory { path in
            try Self.firstFormatStore(in: path + "/store")
            try Self.copyDirectory(path + "/store", to: path + "/copy")
            let error = #expect(throws: LMDBError.self) { try Environment(path: path + "/copy", configuration: Cut.configuration()) }
            #expect(error?.code == .writeAheadLogForeign)
            #expect(error?.message.contains("holds 3 transactions not yet in it") == true, "\(String(describing: error))")
            var repair = Cut.configuration()
            repair.repairWriteAheadLog = true
            let (repaired, entries) = try Self.count(in: path + "/copy", configuration: repair)
            #expect(repaired.replayedTransactions == 3)
            #expect(entries == 8)
            repaired.close()
        }
    }
}
