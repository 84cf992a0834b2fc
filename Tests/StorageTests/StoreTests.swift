import Foundation
import LMDB
import Storage
import Synchronization
import Testing
import TestSupport

@Suite("Opening, migrating and backing up a store")
struct StoreTests {
    @Test("A new store records its schema version, and migrations run once, in order")
    func migrations() throws {
        try withTemporaryDirectory { path in
            let runs = Mutex<[UInt32]>([])
            func schema(_ version: UInt32) -> Schema {
                Schema(version: version, tables: ["notes"], migrations: [
                    Migration(version: 2, summary: "second") { txn, context in
                        runs.withLock { $0.append(2) }
                        let notes: Table<String, [UInt8]> = try context.table("notes")
                        try txn.put([2], forKey: "migrated", in: notes)
                    },
                    Migration(version: 1, summary: "first") { _, _ in runs.withLock { $0.append(1) } },
                ])
            }
            let first = try Store(directory: path, schema: schema(1))
            #expect(first.versionAtOpen == 0)
            #expect(try first.storedSchemaVersion() == 1)
            first.close()
            let second = try Store(directory: path, schema: schema(2))
            #expect(second.versionAtOpen == 1)
            #expect(try second.storedSchemaVersion() == 2)
            let notes: Table<String, [UInt8]> = try second.table("notes")
            #expect(try second.read { txn throws in try txn.get("migrated", from: notes) } == [2])
            second.close()
            let third = try Store(directory: path, schema: schema(2))
            third.close()
            #expect(runs.withLock { $0 } == [1, 2])

            let error = #expect(throws: StorageError.self) { _ = try Store(directory: path, schema: schema(1)) }
            #expect(error?.code == .schemaTooNew)
        }
    }

    @Test("A failing migration leaves the store at its old version")
    func failingMigration() throws {
        try withTemporaryDirectory { path in
            try Store(directory: path, schema: Schema(version: 1, tables: ["notes"])).close()
            struct Broken: Error {}
            let broken = Schema(version: 2, tables: ["notes", "more"], migrations: [
                Migration(version: 2, summary: "broken") { _, _ in throw Broken() },
            ])
            let error = #expect(throws: StorageError.self) { _ = try Store(directory: path, schema: broken) }
            #expect(error?.code == .migrationFailed)
            let store = try Store(directory: path, schema: Schema(version: 1, tables: ["notes"]))
            #expect(try store.storedSchemaVersion() == 1)
            store.close()
        }
    }

    @Test("A directory that cannot hold a store gets a clear error", arguments: ["file", "under-file", "proc"])
    func unusableDirectory(kind: String) throws {
        try withTemporaryDirectory { path in
            let file = path + "/plain-file"
            try Data("hello".utf8).write(to: URL(fileURLWithPath: file))
            let directory = switch kind {
            case "file": file
            case "under-file": file + "/data"
            default: "/proc/self/workout-data"
            }
            let error = #expect(throws: StorageError.self) { _ = try Store(directory: directory, schema: testSchema) }
            #expect(error?.code == .dataDirectory, "\(String(describing: error))")
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data("hello".utf8))
        }
    }

    @Test("A data file that is not LMDB, or an LMDB file of someone else's, is refused and left alone")
    func notAStore() throws {
        try withTemporaryDirectory { path in
            let garbage = Data(repeating: 0x5A, count: 40_000)
            try FileManager.default.createDirectory(atPath: path + "/garbage", withIntermediateDirectories: true)
            try garbage.write(to: URL(fileURLWithPath: path + "/garbage/data.mdb"))
            let error = #expect(throws: StorageError.self) { _ = try Store(directory: path + "/garbage", schema: testSchema) }
            #expect(error?.code == .notAStore)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path + "/garbage/data.mdb")) == garbage)

            try FileManager.default.createDirectory(atPath: path + "/foreign", withIntermediateDirectories: true)
            let foreign = try Environment(path: path + "/foreign")
            let db = try foreign.openDatabase(named: "theirs")
            try foreign.write { txn throws in try txn.put([1], forKey: [1], in: db) }
            foreign.close()
            let refusal = #expect(throws: StorageError.self) { _ = try Store(directory: path + "/foreign", schema: testSchema) }
            #expect(refusal?.code == .notAStore)
        }
    }

    @Test("A stored value that does not decode is an error naming the table")
    func corruptValue() throws {
        try withStore { store, _ in
            let raw: Table<UUID, [UInt8]> = try store.table("notes")
            let notes: Table<UUID, Note> = try store.table("notes")
            let id = UUID()
            try store.writeAndWait { txn in try txn.put([1, 2, 3], forKey: id, in: raw) }
            let error = #expect(throws: StorageError.self) { try store.read { txn throws in try txn.get(id, from: notes) } }
            #expect(error?.code == .corruptValue)
            #expect(error?.message.contains("notes") == true)
        }
    }

    @Test("A backup taken while writes go on opens and holds exactly a committed state")
    func liveBackup() throws {
        try withStore { store, path in
            let tables = try NoteTables(store)
            // Each write adds note n and sets the counter to n + 1, in one transaction.
            @Sendable func addNote(_ n: Int) throws {
                try store.writeAndWait { txn in
                    try txn.put(Note(user: UInt32(n % 3), time: Int64(n), text: "note \(n)"), forKey: UUID(number: n), in: tables.notes)
                    try txn.put(Int64(n + 1).orderedKey.bytes, forKey: "count", in: tables.counters)
                }
            }
            for n in 0..<200 { try addNote(n) }
            let writing = Mutex(true)
            let writer = Thread {
                var n = 200
                while writing.withLock({ $0 }) && n < 5000 {
                    try? addNote(n)
                    n += 1
                }
            }
            writer.start()
            usleep(20_000)
            let summary = try store.backup(to: path + "/backup")
            writing.withLock { $0 = false }
            #expect(summary.bytes > 0)
            // The copy is its owner's alone, as the store is (mdb_env_copy2 would leave it 0644).
            let mode = try FileManager.default.attributesOfItem(atPath: path + "/backup/data.mdb")[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(String(mode ?? 0, radix: 8))")

            let copy = try Store(directory: path + "/backup", schema: testSchema)
            defer { copy.close() }
            let copied = try NoteTables(copy)
            try copy.read { txn throws in
                let count = try Int64(decodingKey: txn.get("count", from: copied.counters)!)
                #expect(count >= 200)
                #expect(try txn.count(of: copied.notes.table) == Int(count))
                for n in 0..<Int(count) {
                    #expect(try txn.get(UUID(number: n), from: copied.notes.table)?.text == "note \(n)")
                }
                #expect(try txn.verifyIndexes(of: copied.notes).isEmpty)
            }
            let again = #expect(throws: StorageError.self) { try store.backup(to: path + "/backup") }
            #expect(again?.code == .dataDirectory)
        }
    }
}

extension UUID {
    /// A UUID whose last eight bytes are `number`, for tests that count records.
    init(number: Int) {
        let n = UInt64(number)
        self.init(uuid: (0, 0, 0, 0, 0, 0, 0, 0,
                         UInt8(n >> 56 & 0xFF), UInt8(n >> 48 & 0xFF), UInt8(n >> 40 & 0xFF), UInt8(n >> 32 & 0xFF),
                         UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)))
    }
}
