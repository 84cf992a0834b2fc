@testable import LMDB
import Testing

/// Reading one log file back: how its records end.
@Suite("The log scanner tells a torn tail from damage")
struct LogScannerTests {
    /// A file of generation 2 holding records of transactions 1...count, each `size` bytes of
    /// payload, after `stale` records of generation 1 were written past them.
    static func file(records count: Int, size: Int = 50) throws -> (MemoryDisk.File, [Int]) {
        let disk = MemoryDisk()
        let file = try #require(try disk.open("wal-0") as? MemoryDisk.File)
        var offsets: [Int] = []
        var offset = LogFormat.headerBlockSize
        // Older records, longer, left after the new ones.
        for index in 0..<(count + 3) {
            let old = LogFormat.encodeRecord(transactionID: UInt64(100 + index), generation: 1, payload: [UInt8](repeating: 9, count: size + 13))
            try file.write(old, at: offset)
            offset += old.count
        }
        try file.write([UInt8](repeating: 0, count: 4_096), at: offset)
        offset = LogFormat.headerBlockSize
        for index in 0..<count {
            offsets.append(offset)
            let record = LogFormat.encodeRecord(transactionID: UInt64(index + 1), generation: 2, payload: [UInt8](repeating: UInt8(index), count: size))
            try file.write(record, at: offset)
            offset += record.count
        }
        offsets.append(offset)
        return (file, offsets)
    }

    static func read(_ file: MemoryDisk.File) throws -> ([UInt64], LogScanner.End) {
        let scanner = try LogScanner(file, generation: 2)
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
        let first = LogFormat.encodeRecord(transactionID: 1, generation: 2, payload: [1, 2, 3])
        try file.write(first + [UInt8](repeating: 0, count: 200), at: LogFormat.headerBlockSize)
        let memory = try #require(file as? MemoryDisk.File)
        let atZeros = try Self.read(memory)
        #expect(atZeros.0 == [1])
        #expect(atZeros.1 == .clean(offset: LogFormat.headerBlockSize + first.count))
        try file.write(LogFormat.encodeRecord(transactionID: 9, generation: 1, payload: [4]), at: LogFormat.headerBlockSize + first.count)
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
        guard case .corrupt(let offset, let detail) = end else {
            Issue.record("not corrupt: \(end)")
            return
        }
        #expect(offset == offsets[victim])
        #expect(detail.contains("transaction \(victim + 2) at offset \(offsets[victim + 1])"))
    }

    @Test("The census counts the records of the generation after damage")
    func census() throws {
        let (file, offsets) = try Self.file(records: 6)
        file.damage(at: offsets[2] + 3)
        let scanner = try LogScanner(file, generation: 2)
        let counted = try scanner.census(from: offsets[2])
        #expect(counted.count == 3)
        #expect(counted.last == 6)
    }
}
