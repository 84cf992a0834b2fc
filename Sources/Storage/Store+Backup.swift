import Foundation

/// What ``Store/backup(to:)`` wrote.
public struct BackupSummary: Sendable, Hashable {
    /// The backup's directory.
    public var directory: String
    /// The size of the copied data file in bytes.
    public var bytes: Int
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
    public func backup(to directory: String) throws -> BackupSummary {
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
