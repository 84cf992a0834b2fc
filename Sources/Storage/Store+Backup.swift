import Foundation
import LMDB

/// What ``Store/backup(to:)`` wrote.
package struct BackupSummary: Sendable, Hashable {
    /// The backup's directory.
    package var directory: String
    /// The size of the copied data file in bytes.
    package var bytes: Int
}

extension Store {
    /// Writes a consistent, compacted copy of the store into `directory` while the store keeps
    /// serving reads and writes. The copy is a snapshot of the last commit before it started,
    /// and is synced to disk before this returns.
    ///
    /// - Parameter directory: where to write `data.mdb`; created (mode 0700) if missing; must not
    ///   already hold a store.
    /// - Returns: where the copy is and how large it is.
    /// - Throws: ``StorageError`` `dataDirectory` when the target cannot be used, `database`
    ///   when the copy fails.
    @discardableResult
    package func backup(to directory: String) throws -> BackupSummary {
        try Store.backup(environment, to: directory)
    }

    /// Writes a consistent, compacted copy of the store in `source` without opening it as a
    /// ``Store`` (so no migration runs): the environment is opened read-only (`MDB_RDONLY`,
    /// sharing `lock.mdb` with any other process), copied as ``backup(to:)`` does, and closed.
    /// Used to keep a copy of a store before it is migrated.
    ///
    /// - Parameters:
    ///   - source: a data directory holding a store.
    ///   - directory: where to write `data.mdb`, as for ``backup(to:)``.
    /// - Returns: where the copy is and how large it is.
    /// - Throws: ``StorageError`` as ``backup(to:)`` does, and `database` when `source` cannot be opened.
    @discardableResult
    package static func backup(directory source: String, to directory: String) throws -> BackupSummary {
        var configuration = Environment.Configuration()
        configuration.flags = [.readOnly]
        let environment: Environment
        do {
            environment = try Environment(path: source, configuration: configuration)
        } catch {
            throw StorageError(.database, "cannot open the store in \(source) to back it up", underlying: error)
        }
        defer { environment.close() }
        return try backup(environment, to: directory)
    }

    private static func backup(_ environment: Environment, to directory: String) throws -> BackupSummary {
        let files = FileManager.default
        let dataFile = (directory as NSString).appendingPathComponent("data.mdb")
        if files.fileExists(atPath: dataFile) {
            throw StorageError(.dataDirectory, "\(directory) already holds a store; back up into a new directory")
        }
        do {
            try files.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StorageError(.dataDirectory, "cannot create the backup directory \(directory)", underlying: SendableError(error))
        }
        do {
            try environment.copy(to: directory, compact: true)
        } catch {
            try? files.removeItem(atPath: dataFile)
            throw StorageError(.database, "the backup into \(directory) failed", underlying: SendableError(error))
        }
        // mdb_env_copy2 creates the file 0666 less the umask (0644 as a rule): a household's health
        // data is the owner's alone, as the store's own file is (0600).
        do {
            try files.setAttributes([.posixPermissions: 0o600], ofItemAtPath: dataFile)
        } catch {
            try? files.removeItem(atPath: dataFile)
            throw StorageError(.dataDirectory, "cannot make the backup \(dataFile) private to its owner", underlying: SendableError(error))
        }
        // mdb_env_copy2 closes the file without fsync: make the copy durable ourselves.
        do {
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: dataFile))
            try handle.synchronize()
            try handle.close()
        } catch {
            throw StorageError(.dataDirectory, "cannot sync the backup \(dataFile)", underlying: SendableError(error))
        }
        let size = (try? files.attributesOfItem(atPath: dataFile)[.size] as? Int) ?? 0
        return BackupSummary(directory: directory, bytes: size)
    }
}
