@testable import LMDB
import Testing

/// Reading one log file back: how its records end.
@Suite("The log scanner tells a torn tail from damage")
struct LogScannerTests {
    static let salt: UInt32 = 0xC0FF_EE00
    static let header = LogFormat.FileHeader(generation: 2, store: StoreIdentity(high: 1, low: 2), salt: salt)

    /// A file of generation 2 holding records of transactions 1...count, each `size` bytes of
    /// payload, after `stale` records of generation 1 were written past them.
    static func file(records count: Int, size: Int = 50) throws -> (MemoryDisk.File, [Int]) {
        let disk = MemoryDisk()
        let file = try #require(try disk.open("wal-0") as? MemoryDisk.File)
        var offsets: [Int] = []
        var offset = LogFormat.headerBlockSize
        // Older records, longer, left after the new ones.
        for index in 0..<(count + 3) {
            let old = LogFormat.encodeRecord(transactionID: UInt64(100 + index), generation: 1, salt: Self.salt, payload: [UInt8](repeating: 9, count: size + 13))
            try file.write(old, at: offset)
            offset += old.count
        }
        try file.write([UInt8](repeating: 0, count: 4_096), at: offset)
        offset = LogFormat.headerBlockSize
        for index in 0..<count {
            offsets.append(offset)
            let record = LogFormat.encodeRecord(transactionID: UInt64(index + 1), generation: 2, salt: Self.salt, payload: [UInt8](repeating: UInt8(index), count: size))
            try file.write(record, at: offset)
            offset += record.count
        }
        offsets.append(offset)
        return (file, offsets)
    }

    static func read(_ file: MemoryDisk.File) throws -> ([UInt64], LogScanner.End) {
        let scanner = try LogScanner(file, header: Self.header)
        var ids: [UInt64] = []
        while true {
            switch try scanner.next() {
            case .record(let id, _, _): ids.append(id)
            case .end(let end): return (ids, end)
            }
        }
    }

    @Test("Records end at the older generation's leftovers as at a torn tail, not as damage")
    func endAtLeftovers() throws {
        let (file, offsets) = try Self.file(records: 5)
        let (ids, end) = try Self.read(file)
        #expect(ids == [1, 2, 3, 4, 5])
        #expect(end == .torn(offset: offsets[5]))
    }

    @Test("Records end cleanly at zeros, and at a whole record of an older generation")
    func cleanEnds() throws {
        let disk = MemoryDisk()
        let file = try disk.open("wal-0")
        let first = LogFormat.encodeRecord(transactionID: 1, generation: 2, salt: Self.salt, payload: [1, 2, 3])
        try file.write(first + [UInt8](repeating: 0, count: 200), at: LogFormat.headerBlockSize)
        let memory = try #require(file as? MemoryDisk.File)
        let atZeros = try Self.read(memory)
        #expect(atZeros.0 == [1])
        #expect(atZeros.1 == .clean(offset: LogFormat.headerBlockSize + first.count))
        try file.write(LogFormat.encodeRecord(transactionID: 9, generation: 1, salt: Self.salt, payload: [4]), at: LogFormat.headerBlockSize + first.count)
        let atOlder = try Self.read(memory)
        #expect(atOlder.0 == [1])
        #expect(atOlder.1 == .clean(offset: LogFormat.headerBlockSize + first.count))
    }

    @Test("A torn last record is a torn tail: the records before it are read")
    func tornTail() throws {
        let (file, offsets) = try Self.file(records: 5)
        file.damage(at: offsets[4] + 40)
        let (ids, end) = try Self.read(file)
        #expect(ids == [1, 2, 3, 4])
        #expect(end == .torn(offset: offsets[4]))
    }

    @Test("A damaged record with records of its generation after it is corruption, at its offset", arguments: [0, 1, 3])
    func damageInTheMiddle(victim: Int) throws {
        let (file, offsets) = try Self.file(records: 5)
        file.damage(at: offsets[victim] + 3)
        let (ids, end) = try Self.read(file)
        #expect(ids == Array(1...UInt64(victim + 1)).dropLast())
        guard case .corrupt(let offset, let detail, let later) = end else {
            Issue.record("not corrupt: \(end)")
            return
        }
        #expect(offset == offsets[victim])
        #expect(detail.contains("transaction \(victim + 2) at offset \(offsets[victim + 1])"))
        #expect(later == LogScanner.LaterRecord(transactionID: UInt64(victim + 2), offset: offsets[victim + 1]))
    }

    @Test("Resumed after damage, the scanner reads the records that follow it")
    func resume() throws {
        let (file, offsets) = try Self.file(records: 6)
        file.damage(at: offsets[1] + 3)
        let scanner = try LogScanner(file, header: Self.header)
        guard case .record = try scanner.next(), case .end(.corrupt(_, _, let later)) = try scanner.next() else {
            Issue.record("no damage after the first record")
            return
        }
        scanner.resume(at: later.offset)
        var ids: [UInt64] = []
        while case .record(let id, _, _) = try scanner.next() { ids.append(id) }
        #expect(ids == [3, 4, 5, 6])
    }

    @Test("Bytes of a record's payload that mimic a header of the file's generation do not pass without its salt")
    func saltedHeaders() throws {
        let forged = LogFormat.encodeRecord(transactionID: 99, generation: 2, salt: 0x1234_5678, payload: [])
        #expect(forged.withUnsafeBytes { LogFormat.decodeRecordHeader($0, salt: Self.salt) } == .invalid)
        let disk = MemoryDisk()
        let file = try disk.open("wal-0")
        let first = LogFormat.encodeRecord(transactionID: 1, generation: 2, salt: Self.salt, payload: [1])
        try file.write(first + [UInt8](repeating: 7, count: 100) + forged, at: LogFormat.headerBlockSize)
        let (ids, end) = try Self.read(try #require(file as? MemoryDisk.File))
        #expect(ids == [1])
        #expect(end == .torn(offset: LogFormat.headerBlockSize + first.count))
    }

    @Test("The census counts the records of the generation after damage")
    func census() throws {
        let (file, offsets) = try Self.file(records: 6)
        file.damage(at: offsets[2] + 3)
        let scanner = try LogScanner(file, header: Self.header)
        let counted = try scanner.census(from: offsets[2])
        #expect(counted.count == 3)
        #expect(counted.last == 6)
    }
}
