import SystemCalls
import Foundation
import LMDB
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What ``Store/restore(backup:into:schema:replacing:)`` did.
package struct RestoreSummary: Sendable, Hashable {
    /// The data directory that now holds the restored store.
    package var directory: String
    /// The size of the restored data file in bytes.
    package var bytes: Int
    /// The schema version the backup was written with (migrations run when it is next opened).
    package var schemaVersion: UInt32
    /// Whether a store was there before and has been replaced.
    package var replacedExisting: Bool
}

extension Store {
    /// The name of the data file in a data directory (liblmdb's, for an environment opened
    /// without `MDB_NOSUBDIR`).
    static let dataFileName = "data.mdb"
    /// The name of liblmdb's lock file in a data directory.
    static let lockFileName = "lock.mdb"

    /// Installs a backup made by ``backup(to:)`` as the store of `directory`.
    ///
    /// Steps, each durable before the next:
    /// 1. The backup's `data.mdb` is copied into `directory` under a temporary name, and fsynced.
    /// 2. The copy is opened read-only and must be a Workout store (its identity in the meta
    ///    table) of a schema version no newer than `schema`'s; an older one is migrated when the
    ///    store is next opened.
    /// 3. If `directory` holds a store already, it is replaced only when `replacing` is true.
    /// 4. The copy is renamed over `data.mdb` (atomic: a crash leaves the old store or the new
    ///    one, never a mix), the old `lock.mdb` is removed (liblmdb rebuilds it on the next
    ///    open), and so is the old store's write-ahead log (it names the old file's inode, so a
    ///    crash before its removal leaves it ignored), and the directory is fsynced so the
    ///    rename itself is durable.
    ///
    /// The caller must make sure no process has the store in `directory` open: liblmdb would go
    /// on reading the replaced file. `workoutd restore` holds the data directory's lock, which
    /// `workoutd serve` holds while serving. The backup itself is only read, never opened with
    /// liblmdb, so it gains no lock file and may sit on read-only media.
    ///
    /// - Parameters:
    ///   - backup: a directory holding `data.mdb`, as ``backup(to:)`` writes it.
    ///   - directory: the data directory to restore into; created (mode 0700) if missing.
    ///   - schema: the schema this build knows; the backup's version must not be newer.
    ///   - replacing: whether an existing store in `directory` may be overwritten.
    /// - Returns: where the store is, its size and schema version, and whether it replaced one.
    /// - Throws: ``StorageError``: `dataDirectory` when the backup is missing or a file cannot be
    ///   read, written or synced; `notAStore` when the backup is not a Workout store;
    ///   `schemaTooNew`; `storeExists` when `directory` holds a store and `replacing` is false.
    ///   On any error the existing store is left untouched and the temporary copy removed.
    @discardableResult
    package static func restore(backup: String, into directory: String, schema: Schema, replacing: Bool) throws -> RestoreSummary {
        let files = FileManager.default
        let source = (backup as NSString).appendingPathComponent(dataFileName)
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: backup, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw StorageError(.dataDirectory, "the backup \(backup) does not exist or is not a directory")
        }
        guard files.fileExists(atPath: source, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw StorageError(.dataDirectory, "\(backup) holds no backup (no \(dataFileName))")
        }
        if files.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw StorageError(.dataDirectory, "\(directory) exists and is not a directory")
            }
        } else {
            do {
                try files.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw StorageError(.dataDirectory, "cannot create the data directory \(directory)", underlying: SendableError(error))
            }
        }
        let temporary = restoringFileName(in: directory)
        let bytes: Int
        do {
            bytes = try copyDataFile(from: source, to: temporary)
        } catch {
            _ = try? SystemCall.retrying("unlink", subject: temporary) { unlink(temporary) }
            throw error
        }
        return try install(restoring: temporary, from: backup, into: directory, schema: schema, replacing: replacing, bytes: bytes)
    }

    /// A new temporary name in `directory` for a data file being restored (hidden, unique).
    ///
    /// - Parameter directory: the data directory the file will be installed in.
    /// - Returns: the path; nothing is created.
    package static func restoringFileName(in directory: String) -> String {
        (directory as NSString).appendingPathComponent(".\(dataFileName).restoring-\(UUID().uuidString)")
    }

    /// Steps 2 to 4 of ``restore(backup:into:schema:replacing:)`` for a data file already
    /// written (and fsynced) in `directory` under a temporary name, e.g. one extracted from an
    /// archive: it is checked read-only, then renamed over `data.mdb` when allowed.
    ///
    /// - Parameters:
    ///   - temporary: the data file, inside `directory` (same file system, so the rename is atomic);
    ///     removed on any error.
    ///   - backup: what the file came from, for messages.
    ///   - directory: the data directory.
    ///   - schema: the schema this build knows.
    ///   - replacing: whether an existing store may be overwritten.
    ///   - bytes: the file's size, for the summary.
    /// - Returns: the summary.
    /// - Throws: ``StorageError`` as ``restore(backup:into:schema:replacing:)`` does.
    package static func install(
        restoring temporary: String, from backup: String, into directory: String, schema: Schema, replacing: Bool, bytes: Int
    ) throws -> RestoreSummary {
        let target = (directory as NSString).appendingPathComponent(dataFileName)
        do {
            let version = try checkRestorable(temporary, backup: backup, schema: schema)
            let existed = FileManager.default.fileExists(atPath: target)
            if existed && !replacing {
                throw StorageError(.storeExists, "\(directory) holds a store already; it is replaced only when asked to")
            }
            try install(temporary, as: target, in: directory)
            return RestoreSummary(directory: directory, bytes: bytes, schemaVersion: version, replacedExisting: existed)
        } catch {
            _ = try? SystemCall.retrying("unlink", subject: temporary) { unlink(temporary) }
            throw error
        }
    }

    /// Opens the data file `path` read-only and checks that it is a Workout store of a schema
    /// version `schema` knows.
    ///
    /// - Returns: the stored schema version.
    private static func checkRestorable(_ path: String, backup: String, schema: Schema) throws -> UInt32 {
        // With MDB_NOSUBDIR liblmdb's lock file is `path` + "-lock", next to the copy (in the data
        // directory, which is writable), never in the backup.
        let lockFile = path + "-lock"
        defer { _ = try? SystemCall.retrying("unlink", subject: lockFile) { unlink(lockFile) } }
        var configuration = Environment.Configuration()
        configuration.flags = [.readOnly, .noSubdirectory]
        let environment: Environment
        do {
            environment = try Environment(path: path, configuration: configuration)
        } catch let error where error.code == .invalid || error.code == .versionMismatch {
            throw StorageError(.notAStore, "\(backup)/\(dataFileName) is not an LMDB data file of this version", underlying: error)
        } catch {
            throw StorageError(.database, "cannot open the backup \(backup)/\(dataFileName)", underlying: error)
        }
        defer { environment.close() }
        return try environment.read { txn in
            guard let meta = try txn.existingDatabase(named: Schema.metaTableName),
                  try txn.value(in: meta, forKey: Store.identityKey) == Store.identity
            else {
                throw StorageError(.notAStore, "\(backup) does not hold a Workout store")
            }
            let version = try txn.value(in: meta, forKey: Store.schemaVersionKey).map(Store.decode) ?? 0
            guard version <= schema.version else {
                throw StorageError(
                    .schemaTooNew, "\(backup) was written by schema version \(version); this build knows up to \(schema.version)")
            }
            return version
        }
    }

    /// Removes the stale lock file and write-ahead log, then renames `temporary` over `target`,
    /// fsyncing `directory` after each step: the old log is gone before the new data file is in
    /// place, since a log beside a data file it does not belong to refuses to open.
    private static func install(_ temporary: String, as target: String, in directory: String) throws {
        do {
            for name in [lockFileName] + Environment.writeAheadLogFileNames {
                let file = (directory as NSString).appendingPathComponent(name)
                do {
                    try SystemCall.retrying("unlink", subject: file) { unlink(file) }
                } catch where error.errno == ENOENT {
                    // No such file: nothing to remove.
                }
            }
            try SystemCall.syncDirectory(directory)
            try SystemCall.retrying("rename", subject: "\(temporary) → \(target)") { rename(temporary, target) }
            try SystemCall.syncDirectory(directory)
        } catch {
            throw StorageError(.dataDirectory, "cannot install the restored store in \(directory)", underlying: error)
        }
    }
}

/// Copies `source` to a new file `destination` (mode 0600) and fsyncs it. (A free function:
/// inside `Store`, `read` and `write` would name the store's transactions, not the syscalls.)
///
/// - Returns: the number of bytes copied.
private func copyDataFile(from source: String, to destination: String) throws -> Int {
    do {
        let input = try SystemCall.retrying("open", subject: source) { open(source, O_RDONLY | O_CLOEXEC) }
        defer { try? SystemCall.close(input, subject: source) }
        let output = try SystemCall.retrying("open", subject: destination) {
            open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        }
        var closed = false
        defer { if !closed { try? SystemCall.close(output, subject: destination) } }
        let bufferSize = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        var total = 0
        while true {
            let count = try SystemCall.retrying("read", subject: source) { read(input, buffer, bufferSize) }
            if count == 0 { break }
            var written = 0
            while written < count {
                written += try SystemCall.retrying("write", subject: destination) {
                    write(output, buffer + written, count - written)
                }
            }
            total += count
        }
        try SystemCall.retrying("fsync", subject: destination) { fsync(output) }
        closed = true
        try SystemCall.close(output, subject: destination)
        return total
    } catch {
        throw StorageError(.dataDirectory, "cannot copy the backup \(source) to \(destination)", underlying: error)
    }
}
