import Foundation
import SystemCalls
package import LMDB

/// The application's store: one LMDB environment in a data directory, the schema's tables,
/// and the group-commit writer.
///
/// Reads run on the caller's thread in a read transaction (``read(_:)``); writes go through
/// ``writer`` (``write(_:)``), which shares one synced commit among all waiting writes.
/// Opening a store creates the directory (mode 0700) if needed, opens every table and runs
/// the migrations the stored schema version calls for.
package final class Store: Sendable {
    /// The data directory.
    package let directory: String
    /// The LMDB environment.
    package let environment: Environment
    /// The single writer.
    package let writer: GroupCommitWriter
    /// The schema the store was opened with.
    package let schema: Schema
    /// The schema version found on disk before migrations ran (0 for a new store).
    package let versionAtOpen: UInt32
    private let databases: [String: Database]
    private let meta: Database

    /// The meta table's key for the schema version (a big-endian UInt32).
    static let schemaVersionKey = Array("schema_version".utf8)
    /// The meta table's key for the store's identity, so a foreign LMDB file is not taken for ours.
    static let identityKey = Array("identity".utf8)
    /// What the identity key holds.
    static let identity = Array("workout-store".utf8)

    /// Opens the store in `directory`, creating it if missing.
    ///
    /// - Parameters:
    ///   - directory: the data directory (created with mode 0700).
    ///   - schema: the tables and migrations.
    ///   - configuration: LMDB sizes and flags. Commits are durable unless the flags have
    ///     `.noSync`; the store then keeps a write-ahead log (`writeAheadLog`): a commit is
    ///     durable once its record is appended and synced, one barrier instead of liblmdb's two,
    ///     and opening the store after a crash replays the log.
    /// - Throws: ``StorageError``: `dataDirectory` when the directory cannot be created or
    ///   written, `notAStore` when it holds something else, `schemaTooNew`, `migrationFailed`.
    package init(directory: String, schema: Schema, configuration requested: Environment.Configuration = .init()) throws {
        var configuration = requested
        let readOnly = configuration.flags.contains(.readOnly)
        // One small synced append a commit (README rule 3).
        if !readOnly && !configuration.flags.contains(.noSync) { configuration.writeAheadLog = true }
        try Store.prepareDirectory(directory, readOnly: readOnly)
        let environment: Environment
        do {
            environment = try Environment(path: directory, configuration: configuration)
        } catch let error where error.code == .writeAheadLogDamaged || error.code == .writeAheadLogForeign {
            throw StorageError(.logRefused, error.message)
        } catch let error where error.code == .invalid || error.code == .versionMismatch {
            throw StorageError(.notAStore, "\(directory)/data.mdb is not an LMDB data file of this version", underlying: error)
        } catch let error where error.code == .permissionDenied || error.code == .noSuchFile {
            throw StorageError(.dataDirectory, "cannot open the store in \(directory)", underlying: error)
        } catch {
            throw StorageError(.database, "cannot open the store in \(directory)", underlying: error)
        }
        do {
            let opened = try Store.openTables(environment, schema: schema)
            self.meta = opened.meta
            self.databases = opened.databases
            self.versionAtOpen = opened.version
            // The opening transaction (tables, migrations) is durable before the store is used.
            if !readOnly { try environment.sync() }
        } catch {
            environment.close()
            throw error
        }
        self.directory = directory
        self.environment = environment
        self.schema = schema
        self.writer = GroupCommitWriter(environment: environment)
    }

    /// Brings the store in `directory` back to every write it acknowledged before a crash, by
    /// replaying its write-ahead log, without opening it as a store (no migration runs). After
    /// a power cut the data file's newest meta page may point at pages that never reached the
    /// disk: a read-only look at it (``inspect(directory:schema:)``) must come after this.
    ///
    /// Does nothing when `directory` holds no store, or a store without a log. The caller keeps
    /// other processes out of the store.
    ///
    /// - Parameter repairing: whether to keep what is provably good of a log that cannot be
    ///   replayed whole, and set the rest aside (``Environment/Configuration/repairWriteAheadLog``).
    /// - Returns: what the opening did with the log (`nil`: no store, or no log).
    /// - Throws: ``StorageError`` `logRefused` when the log cannot be replayed whole or does not
    ///   belong to the data file (its message says what to do), `database` for other failures.
    @discardableResult
    package static func recover(directory: String, repairing: Bool = false) throws -> WriteAheadLogRecovery? {
        let files = FileManager.default
        func exists(_ name: String) -> Bool { files.fileExists(atPath: (directory as NSString).appendingPathComponent(name)) }
        // A repair also opens a store whose checkpoint or data file is missing: the opening
        // sets aside what belongs to nothing.
        let present = repairing
            ? ([dataFileName] + Environment.writeAheadLogFileNames).contains(where: exists)
            : exists(Environment.writeAheadLogFileNames.last!) && exists(dataFileName)
        guard present else { return nil }
        var configuration = Environment.Configuration()
        configuration.writeAheadLog = true
        configuration.repairWriteAheadLog = repairing
        do {
            let environment = try Environment(path: directory, configuration: configuration)
            let recovery = environment.writeAheadLogRecovery
            environment.close()
            return recovery
        } catch where error.code == .writeAheadLogDamaged || error.code == .writeAheadLogForeign {
            throw StorageError(.logRefused, error.message)
        } catch {
            throw StorageError(.database, "cannot replay the write-ahead log of the store in \(directory)", underlying: error)
        }
    }

    /// Creates the directory if missing and checks that it can be used.
    private static func prepareDirectory(_ directory: String, readOnly: Bool) throws {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw StorageError(.dataDirectory, "\(directory) exists and is not a directory")
            }
        } else {
            guard !readOnly else { throw StorageError(.dataDirectory, "\(directory) does not exist") }
            do {
                try files.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                // The new directory's entry is durable in its parent before anything is stored
                // in it: a power cut right after must not lose the store.
                try SystemCall.syncDirectory(containing: directory)
            } catch {
                throw StorageError(.dataDirectory, "cannot create the data directory \(directory)", underlying: SendableError(error))
            }
        }
        if !readOnly && !files.isWritableFile(atPath: directory) {
            throw StorageError(.dataDirectory, "the data directory \(directory) is not writable")
        }
    }

    private static func openTables(_ environment: Environment, schema: Schema) throws -> (meta: Database, databases: [String: Database], version: UInt32) {
        let readOnly = environment.configuration.flags.contains(.readOnly)
        let names = Set(schema.tables)
        precondition(!names.contains(Schema.metaTableName), "\(Schema.metaTableName) is the store's own table")
        precondition(names.count == schema.tables.count, "the schema names a table twice")
        if readOnly {
            return try environment.read { txn in
                guard let meta = try txn.existingDatabase(named: Schema.metaTableName) else {
                    throw StorageError(.notAStore, "\(environment.path) holds no Workout store")
                }
                let version = try Store.checkIdentity(txn, meta: meta, path: environment.path, schema: schema)
                guard version == schema.version else {
                    throw StorageError(.schemaTooNew, "\(environment.path) is at schema version \(version); this build needs \(schema.version) and opens it read-only")
                }
                var databases: [String: Database] = [:]
                for name in schema.tables {
                    guard let database = try txn.existingDatabase(named: name) else {
                        throw StorageError(.notAStore, "\(environment.path) has no table \(name)")
                    }
                    databases[name] = database
                }
                return (meta, databases, version)
            }
        }
        return try environment.write { txn in
            let main = try txn.existingDatabase(named: nil)
            let isEmpty = try main.map { try txn.statistics(of: $0).entries } ?? 0 == 0
            let meta = try txn.createDatabase(named: Schema.metaTableName)
            let version: UInt32
            if isEmpty {
                try txn.put(Store.identity, forKey: Store.identityKey, in: meta)
                version = 0
            } else {
                version = try Store.checkIdentity(txn, meta: meta, path: environment.path, schema: schema)
            }
            var databases: [String: Database] = [:]
            for name in schema.tables { databases[name] = try txn.createDatabase(named: name) }
            let context = MigrationContext(databases: databases)
            for migration in schema.migrations.sorted(by: { $0.version < $1.version })
            where migration.version > version && migration.version <= schema.version {
                do {
                    try migration.apply(&txn, context)
                } catch {
                    throw StorageError(
                        .migrationFailed, "migration to schema version \(migration.version) (\(migration.summary)) failed",
                        underlying: SendableError(error))
                }
            }
            if version != schema.version {
                try txn.put(Store.encode(schema.version), forKey: Store.schemaVersionKey, in: meta)
            }
            return (meta, databases, version)
        }
    }

    /// Checks that the store is ours and not newer than `schema`; returns its version.
    private static func checkIdentity(_ txn: borrowing some TransactionReading & ~Copyable, meta: Database, path: String, schema: Schema) throws -> UInt32 {
        guard try txn.value(in: meta, forKey: Store.identityKey) == Store.identity else {
            throw StorageError(.notAStore, "\(path) holds an LMDB environment that is not a Workout store")
        }
        let stored = try txn.value(in: meta, forKey: Store.schemaVersionKey).map(Store.decode) ?? 0
        guard stored <= schema.version else {
            throw StorageError(.schemaTooNew, "\(path) was written by schema version \(stored); this build knows up to \(schema.version)")
        }
        return stored
    }

    static func encode(_ version: UInt32) -> [UInt8] {
        withUnsafeBytes(of: version.bigEndian) { Array($0) }
    }

    static func decode(_ bytes: [UInt8]) -> UInt32 {
        bytes.prefix(4).reduce(0) { ($0 << 8) | UInt32($1) }
    }

    /// The schema version stored in the meta table.
    package func storedSchemaVersion() throws -> UInt32 {
        try read { txn in try txn.value(in: meta, forKey: Store.schemaVersionKey).map(Store.decode) ?? 0 }
    }

    /// An application value kept in the meta table (e.g. a per-store secret), made by `make`
    /// and stored, durably, the first time it is asked for; the same bytes on every later
    /// open, in a backup and after a restore.
    ///
    /// - Parameters:
    ///   - key: The value's name; `schema_version` and `identity` are the store's own.
    ///   - make: Makes the value when the store has none yet. A read-only store that has none
    ///     returns a fresh one without keeping it.
    /// - Returns: The stored value.
    /// - Throws: ``StorageError`` or an LMDB error when the meta table cannot be read or written.
    package func metaValue(forKey key: String, creatingWith make: () -> [UInt8]) throws -> [UInt8] {
        let bytes = Array(key.utf8)
        precondition(bytes != Store.schemaVersionKey && bytes != Store.identityKey, "\(key) is one of the store's own meta keys")
        let meta = self.meta
        if let stored = try read({ txn in try txn.value(in: meta, forKey: bytes) }) { return stored }
        // Made before the write: a write closure may run again (map growth).
        let fresh = make()
        if environment.configuration.flags.contains(.readOnly) { return fresh }
        return try writeAndWait { txn in
            if let stored = try txn.value(in: meta, forKey: bytes) { return stored }
            try txn.put(fresh, forKey: bytes, in: meta)
            return fresh
        }
    }

    /// The table `name` with the given key and value types.
    ///
    /// - Throws: ``StorageError`` `unknownTable` when the schema does not declare it.
    package func table<K, V>(_ name: String, keyType: K.Type = K.self, valueType: V.Type = V.self) throws -> Table<K, V> {
        try MigrationContext(databases: databases).table(name)
    }

    /// The handle of a declared table or index, for ``SecondaryIndex``.
    package func database(_ name: String) throws -> Database {
        guard let database = databases[name] else {
            throw StorageError(.unknownTable, "the schema declares no table named \(name)")
        }
        return database
    }

    /// Runs `body` in a read transaction on the calling thread.
    package func read<R>(_ body: (borrowing ReadTransaction) throws -> R) throws -> R {
        try environment.read(body)
    }

    /// Applies `operation` in the next group commit; returns once it is durable.
    ///
    /// - Parameter mayCommitOnCaller: whether the calling thread may commit the batch itself
    ///   when the writer is idle (``GroupCommitWriter/submit(_:mayCommitOnCaller:completion:)``).
    package func write<R: Sendable>(
        mayCommitOnCaller: Bool = false, _ operation: @escaping @Sendable (inout WriteTransaction) throws -> R
    ) async throws -> R {
        try await writer.write(mayCommitOnCaller: mayCommitOnCaller, operation)
    }

    /// Applies `operation` in the next group commit, blocking until it is durable.
    package func writeAndWait<R: Sendable>(_ operation: @escaping @Sendable (inout WriteTransaction) throws -> R) throws -> R {
        try writer.writeAndWait(operation)
    }

    /// Flushes the writer and closes the environment. Call once, when nothing else uses the store.
    package func close() {
        writer.close()
        environment.close()
    }
}
