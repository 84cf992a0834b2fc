import Foundation
import LMDB

/// What ``Store/inspect(directory:schema:)`` found in a data directory, without changing it.
package struct StoreInspection: Sendable, Hashable {
    /// The schema version the store was last written with (0: created, never migrated).
    package var schemaVersion: UInt32
    /// The number of entries of each table of the schema that the store has, by name.
    package var entries: [String: Int]
}

extension Store {
    /// Looks at the store in `directory` read-only: its schema version and the entries of each
    /// of `schema`'s tables. Runs no migration and writes nothing but liblmdb's lock file.
    ///
    /// The environment is opened on the directory (`MDB_RDONLY`), so it shares `lock.mdb` and
    /// the reader table with any other process using the store: lmdb.h, "MDB_RDONLY: Open the
    /// environment in read-only mode. No write operations will be allowed. LMDB will still
    /// modify the lock file".
    ///
    /// - Parameters:
    ///   - directory: a data directory.
    ///   - schema: the tables to count (missing ones are left out of ``StoreInspection/entries``).
    /// - Returns: `nil` when the directory holds no store (no `data.mdb`).
    /// - Throws: ``StorageError``: `notAStore` for a foreign or damaged file, `database` when
    ///   liblmdb fails otherwise.
    package static func inspect(directory: String, schema: Schema) throws -> StoreInspection? {
        let dataFile = (directory as NSString).appendingPathComponent(dataFileName)
        guard FileManager.default.fileExists(atPath: dataFile) else { return nil }
        var configuration = Environment.Configuration()
        configuration.flags = [.readOnly]
        let environment: Environment
        do {
            environment = try Environment(path: directory, configuration: configuration)
        } catch let error where error.code == .invalid || error.code == .versionMismatch {
            throw StorageError(.notAStore, "\(dataFile) is not an LMDB data file of this version", underlying: error)
        } catch {
            throw StorageError(.database, "cannot open the store in \(directory)", underlying: error)
        }
        defer { environment.close() }
        return try environment.read { txn in
            guard let meta = try txn.existingDatabase(named: Schema.metaTableName),
                  try txn.value(in: meta, forKey: identityKey) == identity
            else {
                throw StorageError(.notAStore, "\(directory) holds an LMDB environment that is not a Workout store")
            }
            let version = try txn.value(in: meta, forKey: schemaVersionKey).map(decode) ?? 0
            var entries: [String: Int] = [:]
            for name in schema.tables {
                if let database = try txn.existingDatabase(named: name) {
                    entries[name] = try txn.statistics(of: database).entries
                }
            }
            return StoreInspection(schemaVersion: version, entries: entries)
        }
    }
}
