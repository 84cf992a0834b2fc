import Foundation
import LMDB
import Storage
import Testing
import TestSupport

@Suite("Restoring a backup into a data directory")
struct RestoreTests {
    /// Writes notes 0..<count into `store`.
    func addNotes(_ store: Store, _ range: Range<Int>) throws {
        let tables = try NoteTables(store)
        for n in range {
            _ = try store.writeAndWait { txn in
                try txn.put(Note(user: 1, time: Int64(n), text: "note \(n)"), forKey: UUID(number: n), in: tables.notes)
            }
        }
    }

    /// The texts of every note in the store at `directory`.
    func noteTexts(in directory: String, schema: Schema = testSchema) throws -> Set<String> {
        let store = try Store(directory: directory, schema: schema)
        defer { store.close() }
        let tables = try NoteTables(store)
        return try store.read { txn throws in
            Set(try txn.scan(tables.notes.table, ScanRequest()).elements.map(\.value.text))
        }
    }

    /// The names in a directory.
    func entries(_ directory: String) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: directory))
    }

    @Test("A backup restored into a new directory opens with the same data, and the backup is left as it was")
    func roundTrip() throws {
        try withStore { store, path in
            try addNotes(store, 0..<50)
            let backup = try store.backup(to: path + "/backup")
            let summary = try Store.restore(backup: path + "/backup", into: path + "/restored", schema: testSchema, replacing: false)
            #expect(summary.bytes == backup.bytes)
            #expect(summary.schemaVersion == testSchema.version)
            #expect(summary.replacedExisting == false)
            #expect(try entries(path + "/restored") == ["data.mdb"])
            #expect(try entries(path + "/backup") == ["data.mdb"])
            #expect(try noteTexts(in: path + "/restored") == Set((0..<50).map { "note \($0)" }))
        }
    }

    @Test("An existing store is replaced only when asked, and its stale lock file and log go with it")
    func replacing() throws {
        try withTemporaryDirectory { path in
            let old = try Store(directory: path + "/old", schema: testSchema)
            try addNotes(old, 0..<3)
            try old.backup(to: path + "/backup")
            old.close()
            let current = try Store(directory: path + "/data", schema: testSchema)
            try addNotes(current, 100..<105)
            current.close()
            #expect(try entries(path + "/data").contains("lock.mdb"))

            let refusal = #expect(throws: StorageError.self) {
                try Store.restore(backup: path + "/backup", into: path + "/data", schema: testSchema, replacing: false)
            }
            #expect(refusal?.code == .storeExists)
            #expect(try noteTexts(in: path + "/data") == Set((100..<105).map { "note \($0)" }))
            #expect(try entries(path + "/data") == ["checkpoint", "data.mdb", "lock.mdb", "wal-0", "wal-1"])

            let summary = try Store.restore(backup: path + "/backup", into: path + "/data", schema: testSchema, replacing: true)
            #expect(summary.replacedExisting)
            #expect(try entries(path + "/data") == ["data.mdb"])
            #expect(try noteTexts(in: path + "/data") == ["note 0", "note 1", "note 2"])
        }
    }

    @Test("What is not a Workout store of a known version is refused, and the data directory is left alone",
          arguments: ["missing", "empty", "garbage", "foreign", "newer"])
    func refused(kind: String) throws {
        try withTemporaryDirectory { path in
            let backup = path + "/backup"
            let files = FileManager.default
            var expected = StorageError.Code.notAStore
            switch kind {
            case "missing":
                expected = .dataDirectory
            case "empty":
                try files.createDirectory(atPath: backup, withIntermediateDirectories: true)
                expected = .dataDirectory
            case "garbage":
                try files.createDirectory(atPath: backup, withIntermediateDirectories: true)
                try Data(repeating: 0x5A, count: 40_000).write(to: URL(fileURLWithPath: backup + "/data.mdb"))
            case "foreign":
                try files.createDirectory(atPath: backup, withIntermediateDirectories: true)
                let foreign = try Environment(path: backup)
                let db = try foreign.openDatabase(named: "theirs")
                try foreign.write { txn throws in try txn.put([1], forKey: [1], in: db) }
                foreign.close()
                try files.removeItem(atPath: backup + "/lock.mdb")
            default:
                let newer = Schema(version: testSchema.version + 1, tables: testSchema.tables)
                try Store(directory: backup, schema: newer).close()
                try files.removeItem(atPath: backup + "/lock.mdb")
                expected = .schemaTooNew
            }
            let current = try Store(directory: path + "/data", schema: testSchema)
            try addNotes(current, 0..<2)
            current.close()
            let before = try entries(path + "/data")

            for replacing in [false, true] {
                let error = #expect(throws: StorageError.self) {
                    try Store.restore(backup: backup, into: path + "/data", schema: testSchema, replacing: replacing)
                }
                #expect(error?.code == expected, "\(String(describing: error))")
            }
            #expect(try entries(path + "/data") == before)
            #expect(try noteTexts(in: path + "/data") == ["note 0", "note 1"])
            if kind != "missing" && kind != "empty" {
                #expect(!(try entries(backup).contains("lock.mdb")))
            }
        }
    }

    @Test("A backup of an older schema version is restored, and migrated when next opened")
    func olderVersion() throws {
        try withTemporaryDirectory { path in
            let old = Schema(version: 1, tables: testSchema.tables)
            let store = try Store(directory: path + "/old", schema: old)
            try addNotes(store, 0..<1)
            try store.backup(to: path + "/backup")
            store.close()
            let newer = Schema(version: 2, tables: testSchema.tables, migrations: [
                Migration(version: 2, summary: "nothing") { _, _ in },
            ])
            let summary = try Store.restore(backup: path + "/backup", into: path + "/data", schema: newer, replacing: false)
            #expect(summary.schemaVersion == 1)
            let reopened = try Store(directory: path + "/data", schema: newer)
            #expect(reopened.versionAtOpen == 1)
            #expect(try reopened.storedSchemaVersion() == 2)
            reopened.close()
        }
    }

    @Test("Restoring into a path that is a file is a data directory error")
    func targetIsAFile() throws {
        try withStore { store, path in
            try store.backup(to: path + "/backup")
            try Data("x".utf8).write(to: URL(fileURLWithPath: path + "/file"))
            let error = #expect(throws: StorageError.self) {
                try Store.restore(backup: path + "/backup", into: path + "/file", schema: testSchema, replacing: true)
            }
            #expect(error?.code == .dataDirectory)
            #expect(error?.message.contains("not a directory") == true)
        }
    }
}
