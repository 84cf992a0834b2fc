import Foundation
import LMDB
import Testing
import TestSupport

/// The write-ahead log, tried by building on disk what a power cut leaves: the data file as
/// the last checkpoint synced it, with the newest meta pages written over it (the kernel may
/// write those before the pages they point at), and the log as it was synced.
@Suite("The write-ahead log brings back what a power cut drops")
struct WriteAheadLogTests {
    static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    static func configuration(mapSize: Int = 64 << 20, directIO: Bool = true) -> Environment.Configuration {
        var configuration = Environment.Configuration()
        configuration.writeAheadLog = true
        configuration.writeAheadLogDirectIO = directIO
        configuration.mapSize = mapSize
        return configuration
    }

    /// Whether the file system holding `directory` takes an aligned `O_DIRECT` write: there the
    /// log must append directly when asked to.
    static func takesDirectWrites(_ directory: String) -> Bool {
        #if os(Linux)
        let path = directory + "/direct-probe"
        defer { unlink(path) }
        let descriptor = open(path, O_RDWR | O_CREAT | __O_DIRECT, 0o600)  // O_DIRECT (see DirectAppender)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, 4_096, 4_096) == 0, let memory else { return false }
        defer { free(memory) }
        memory.initializeMemory(as: UInt8.self, repeating: 7, count: 4_096)
        return pwrite(descriptor, memory, 4_096, 0) == 4_096
        #else
        return false
        #endif
    }

    static func contents(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Writes `bytes` into the file at `path` in place (same inode), truncating it.
    static func overwrite(_ path: String, with bytes: [UInt8]) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(bytes))
        try handle.synchronize()
    }

    /// Opens an environment with a log in `path`, lets `setUp` and then `writes` run after its
    /// opening checkpoint, then closes it and puts back on disk what a power cut at that moment
    /// could leave. `damage` may change the log's first file before it is put back. `setUp` may
    /// end with a synchronous checkpoint (`sync()`, which starts the log again); `writes` must
    /// not make the log start again: what is put back is the data file and checkpoint as they
    /// were after `setUp`, and every record since.
    static func writeThenCutPower(
        in path: String, configuration: Environment.Configuration = configuration(), damage: (inout [UInt8]) -> Void = { _ in },
        setUp: (Environment) throws -> Void = { _ in }, _ writes: (Environment) throws -> Void
    ) throws {
        let environment = try Environment(path: path, configuration: configuration)
        try setUp(environment)
        // Just opened, or synced: the data file and the checkpoint are synced, and agree.
        let syncedData = try contents(path + "/data.mdb")
        let syncedCheckpoint = try contents(path + "/checkpoint")
        try writes(environment)
        // The newest meta pages, and the log as its appends synced it.
        let newestMetaPages = Array(try contents(path + "/data.mdb").prefix(2 * pageSize))
        var logs = try ["wal-0", "wal-1"].map { try contents(path + "/" + $0) }
        environment.close()
        damage(&logs[0])
        try overwrite(path + "/data.mdb", with: newestMetaPages + syncedData.dropFirst(2 * pageSize))
        try overwrite(path + "/checkpoint", with: syncedCheckpoint)
        for (name, bytes) in zip(["wal-0", "wal-1"], logs) { try overwrite(path + "/" + name, with: bytes) }
    }

    @Test("Every committed write is back after a power cut that kept only the log", arguments: [true, false])
    func replaysAfterPowerCut(directIO: Bool) throws {
        try withTemporaryDirectory { path in
            let direct = directIO && Self.takesDirectWrites(path)
            try Self.writeThenCutPower(in: path, configuration: Self.configuration(directIO: directIO)) { environment throws in
                let things = try environment.openDatabase(named: "things")
                for index in 0..<40 {
                    try environment.write { txn throws in try txn.put(Array(repeating: 0xAB, count: 100 + index), forKey: [UInt8(index)], in: things) }
                }
                #expect(environment.writeAheadLogDirectAppends == (direct ? 41 : 0))
            }
            let environment = try Environment(path: path, configuration: Self.configuration(directIO: directIO))
            defer { environment.close() }
            #expect(environment.replayedTransactions == 41)
            let things = try environment.openDatabase(named: "things", flags: [])
            try environment.read { txn throws in
                for index in 0..<40 {
                    #expect(try txn.value(in: things, forKey: [UInt8(index)]) == Array(repeating: 0xAB, count: 100 + index))
                }
            }
        }
    }

    @Test("Records of every length, across blocks and past the direct buffer, are back after a power cut", arguments: [true, false])
    func recordsOfEveryLength(directIO: Bool) throws {
        // Lengths that end a record inside a block, at its last byte, across one and across
        // many (the last outgrows the direct appender's first buffer of 64 KiB).
        let lengths = [1, 3_000, 4_000, 17, 4_096, 8_191, 2, 100_000, 5, 300_000, 9]
        try withTemporaryDirectory { path in
            let direct = directIO && Self.takesDirectWrites(path)
            try Self.writeThenCutPower(in: path, configuration: Self.configuration(directIO: directIO)) { environment throws in
                let things = try environment.openDatabase(named: "things")
                for (index, length) in lengths.enumerated() {
                    try environment.write { txn throws in
                        try txn.put(Array(repeating: UInt8(index + 1), count: length), forKey: [UInt8(index)], in: things)
                    }
                }
                #expect(environment.writeAheadLogDirectAppends == (direct ? lengths.count + 1 : 0))
            }
            let environment = try Environment(path: path, configuration: Self.configuration(directIO: directIO))
            defer { environment.close() }
            #expect(environment.replayedTransactions == lengths.count + 1)
            let things = try environment.openDatabase(named: "things", flags: [])
            try environment.read { txn throws in
                for (index, length) in lengths.enumerated() {
                    #expect(try txn.value(in: things, forKey: [UInt8(index)]) == Array(repeating: UInt8(index + 1), count: length))
                }
            }
        }
    }

    @Test("After a checkpoint starts the log again, records written over the old ones are back after a power cut", arguments: [true, false])
    func recordsAfterRewind(directIO: Bool) throws {
        // Before the checkpoint: records that fill the log's first blocks. After it: records
        // that start again at offset 0, some ending inside a block that held older records.
        let before = [5_000, 5_000, 3, 5_000, 700]
        let after = [1, 4_000, 3, 9_000, 2, 100, 4_096]
        try withTemporaryDirectory { path in
            let direct = directIO && Self.takesDirectWrites(path)
            var things: Database?
            try Self.writeThenCutPower(in: path, configuration: Self.configuration(directIO: directIO), setUp: { environment throws in
                let table = try environment.openDatabase(named: "things")
                things = table
                for (index, length) in before.enumerated() {
                    try environment.write { txn throws in try txn.put(Array(repeating: 0x10, count: length), forKey: [0, UInt8(index)], in: table) }
                }
                try environment.sync()
            }) { environment throws in
                let table = try #require(things)
                for (index, length) in after.enumerated() {
                    try environment.write { txn throws in try txn.put(Array(repeating: 0x20, count: length), forKey: [1, UInt8(index)], in: table) }
                }
                #expect(environment.writeAheadLogDirectAppends == (direct ? 1 + before.count + after.count : 0))
            }
            let environment = try Environment(path: path, configuration: Self.configuration(directIO: directIO))
            defer { environment.close() }
            #expect(environment.replayedTransactions == after.count)
            let table = try environment.openDatabase(named: "things", flags: [])
            try environment.read { txn throws in
                for (index, length) in before.enumerated() {
                    #expect(try txn.value(in: table, forKey: [0, UInt8(index)]) == Array(repeating: 0x10, count: length))
                }
                for (index, length) in after.enumerated() {
                    #expect(try txn.value(in: table, forKey: [1, UInt8(index)]) == Array(repeating: 0x20, count: length))
                }
            }
        }
    }

    @Test("Deletes, emptied and created tables replay; an abandoned nested transaction does not")
    func replaysEveryKindOfChange() throws {
        struct Refused: Error {}
        try withTemporaryDirectory { path in
            try Self.writeThenCutPower(in: path) { environment throws in
                let kept = try environment.openDatabase(named: "kept")
                let emptied = try environment.openDatabase(named: "emptied")
                try environment.write { txn throws in
                    try txn.put([1], forKey: [1], in: kept)
                    try? txn.withNestedTransaction { child throws in
                        try child.put([2], forKey: [2], in: kept)
                        throw Refused()
                    }
                    try txn.withNestedTransaction { child throws in try child.put([3], forKey: [3], in: kept) }
                    try txn.put([4], forKey: [4], in: kept)
                    try txn.put([9], forKey: [9], in: emptied)
                }
                try environment.write { txn throws in
                    try txn.delete([4], in: kept)
                    try txn.removeAll(in: emptied)
                    let later = try txn.createDatabase(named: "later")
                    try txn.put([5], forKey: [5], in: later)
                }
            }
            let environment = try Environment(path: path, configuration: Self.configuration())
            defer { environment.close() }
            #expect(environment.replayedTransactions == 4)
            let kept = try environment.openDatabase(named: "kept", flags: [])
            let emptied = try environment.openDatabase(named: "emptied", flags: [])
            let later = try environment.openDatabase(named: "later", flags: [])
            try environment.read { txn throws in
                #expect(try txn.value(in: kept, forKey: [1]) == [1])
                #expect(try txn.value(in: kept, forKey: [2]) == nil)
                #expect(try txn.value(in: kept, forKey: [3]) == [3])
                #expect(try txn.value(in: kept, forKey: [4]) == nil)
                #expect(try txn.statistics(of: emptied).entries == 0)
                #expect(try txn.value(in: later, forKey: [5]) == [5])
            }
        }
    }

    @Test("A record torn by the cut ends the replay: the writes before it are back, it is not")
    func tornRecordEndsReplay() throws {
        try withTemporaryDirectory { path in
            try Self.writeThenCutPower(in: path, damage: { log in
                // The last record ends where the zeros after it begin: tear its last bytes.
                let end = (log.lastIndex { $0 != 0 } ?? 0) + 1
                for index in (end - 8)..<end { log[index] = 0 }
            }) { environment throws in
                let things = try environment.openDatabase(named: "things")
                for index in 0..<10 {
                    try environment.write { txn throws in try txn.put(Array(repeating: 0xCD, count: 64), forKey: [UInt8(index)], in: things) }
                }
            }
            let environment = try Environment(path: path, configuration: Self.configuration())
            defer { environment.close() }
            #expect(environment.replayedTransactions == 10)
            let things = try environment.openDatabase(named: "things", flags: [])
            try environment.read { txn throws in
                for index in 0..<9 { #expect(try txn.value(in: things, forKey: [UInt8(index)]) != nil) }
                #expect(try txn.value(in: things, forKey: [9]) == nil)
            }
        }
    }

    @Test("A data file put in the store's place is refused beside the old log; a repair opens it and sets the log aside")
    func replacedDataFileIsRefused() throws {
        try withTemporaryDirectory { path in
            let other = path + "/other"
            try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
            let replacement = try Environment(path: other, configuration: Self.configuration())
            let table = try replacement.openDatabase(named: "things")
            try replacement.write { txn throws in try txn.put([7], forKey: [7], in: table) }
            replacement.close()

            let store = path + "/store"
            try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
            // The old store is many transactions ahead of the replacement, so that its
            // checkpoint's and records' ids would shadow the replacement's own.
            let old = try Environment(path: store, configuration: Self.configuration())
            let oldTable = try old.openDatabase(named: "things")
            for index in 0..<50 { try old.write { txn throws in try txn.put([3], forKey: [100, UInt8(index)], in: oldTable) } }
            old.close()
            try Self.writeThenCutPower(in: store) { environment throws in
                let things = try environment.openDatabase(named: "things")
                for index in 0..<5 { try environment.write { txn throws in try txn.put([1], forKey: [UInt8(index)], in: things) } }
            }
            #expect(rename(other + "/data.mdb", store + "/data.mdb") == 0)
            let before = try Self.contents(store + "/data.mdb")

            // Refused, loudly, naming the data file, and nothing is applied to it.
            let error = #expect(throws: LMDBError.self) { try Environment(path: store, configuration: Self.configuration()) }
            #expect(error?.code == .writeAheadLogForeign)
            #expect(error?.message.contains("\(store)/data.mdb is not the data file") == true, "\(String(describing: error))")
            #expect(try Self.contents(store + "/data.mdb") == before)

            // A repair opens the replacement as it is, with the old log set aside; its own
            // writes, cut off by a power cut in their turn, come back from its own log.
            var repair = Self.configuration()
            repair.repairWriteAheadLog = true
            let repaired = try Environment(path: store, configuration: repair)
            let setAside = repaired.writeAheadLogRecovery?.setAside.sorted() ?? []
            #expect(setAside.count == 3, "\(setAside)")
            for (file, name) in zip(setAside, ["checkpoint", "wal-0", "wal-1"]) { #expect(file.hasPrefix("\(store)/\(name).set-aside-")) }
            repaired.close()
            try Self.writeThenCutPower(in: store) { environment in
                #expect(environment.replayedTransactions == 0)
                let things = try environment.openDatabase(named: "things", flags: [])
                try environment.read { txn throws in
                    #expect(try txn.value(in: things, forKey: [7]) == [7])
                    #expect(try txn.value(in: things, forKey: [0]) == nil)
                }
                for index in 10..<15 { try environment.write { txn throws in try txn.put([2], forKey: [UInt8(index)], in: things) } }
            }
            let environment = try Environment(path: store, configuration: Self.configuration())
            defer { environment.close() }
            #expect(environment.replayedTransactions == 5)
            let things = try environment.openDatabase(named: "things", flags: [])
            try environment.read { txn throws in
                #expect(try txn.value(in: things, forKey: [7]) == [7])
                #expect(try txn.value(in: things, forKey: [0]) == nil)
                for index in 10..<15 { #expect(try txn.value(in: things, forKey: [UInt8(index)]) == [2]) }
            }
        }
    }

    @Test("A replay that outgrows the map the store was opened with grows it")
    func replayGrowsTheMap() throws {
        try withTemporaryDirectory { path in
            let value = [UInt8](repeating: 0x5A, count: 64 * 1_024)
            var configuration = Self.configuration(mapSize: 1 << 20)
            try Self.writeThenCutPower(in: path, configuration: configuration) { environment in
                let things = try environment.openDatabase(named: "things")
                for index in 0..<40 { try environment.write { txn throws in try txn.put(value, forKey: [UInt8(index)], in: things) } }
            }
            configuration.mapSize = 1 << 20
            let environment = try Environment(path: path, configuration: configuration)
            defer { environment.close() }
            #expect(environment.replayedTransactions > 0)
            let things = try environment.openDatabase(named: "things", flags: [])
            try environment.read { txn throws in
                #expect(try txn.statistics(of: things).entries == 40)
                #expect(try txn.value(in: things, forKey: [39]) == value)
            }
        }
    }

    @Test("Transactions that change nothing are not logged, and the log replays past them")
    func noChangeTransactions() throws {
        try withTemporaryDirectory { path in
            try Self.writeThenCutPower(in: path) { environment in
                let things = try environment.openDatabase(named: "things")
                let empty = try environment.openDatabase(named: "empty")
                try environment.write { txn throws in try txn.put([1], forKey: [1], in: things) }
                // Opening a table that exists, and emptying an empty one, change nothing.
                _ = try environment.openDatabase(named: "things")
                try environment.write { txn throws in try txn.removeAll(in: empty) }
                try environment.write { txn throws in _ = try txn.delete([9], in: things) }
                try environment.write { txn throws in try txn.put([2], forKey: [2], in: things) }
            }
            let environment = try Environment(path: path, configuration: Self.configuration())
            defer { environment.close() }
            let things = try environment.openDatabase(named: "things", flags: [])
            try environment.read { txn throws in
                #expect(try txn.value(in: things, forKey: [1]) == [1])
                #expect(try txn.value(in: things, forKey: [2]) == [2])
            }
        }
    }

    @Test("Checkpoints in the background and a growing map keep every write; a clean close leaves nothing to replay")
    func checkpointsAndGrowth() throws {
        try withTemporaryDirectory { path in
            let value = [UInt8](repeating: 0xEF, count: 8_192)
            do {
                let environment = try Environment(path: path, configuration: Self.configuration(mapSize: 1 << 20))
                defer { environment.close() }
                let things = try environment.openDatabase(named: "things")
                for index in 0..<700 {
                    try environment.write { txn throws in try txn.put(value, forKey: Array("key \(index)".utf8), in: things) }
                }
                #expect(environment.growthCount > 0)
                try environment.read { txn throws in #expect(try txn.statistics(of: things).entries == 700) }
            }
            let environment = try Environment(path: path, configuration: Self.configuration())
            defer { environment.close() }
            #expect(environment.replayedTransactions == 0)
            let things = try environment.openDatabase(named: "things", flags: [])
            try environment.read { txn throws in
                #expect(try txn.statistics(of: things).entries == 700)
                #expect(try txn.value(in: things, forKey: Array("key 699".utf8)) == value)
            }
        }
    }

    @Test("A write-ahead log is refused where it cannot be kept")
    func refusedWithoutDirectory() throws {
        try withTemporaryDirectory { path in
            var configuration = Self.configuration()
            configuration.flags = [.noSubdirectory]
            #expect(throws: LMDBError.self) { try Environment(path: path + "/file.mdb", configuration: configuration) }
        }
    }
}
