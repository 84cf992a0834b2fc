import Foundation
import Storage
import WorkoutCore
import WorkoutServer
#if canImport(Glibc)
import Glibc
#endif

/// What `backup`, `serve` (before a migration) and `restore` share about archive files: who
/// writes them, how they are described, and retention in a backup directory.
enum StoreArchiving {
    /// Writes an archive of `store` at `path`, naming this server's version and host, with the
    /// server identity of `dataDirectory` beside the store (``identityFiles(in:)``).
    ///
    /// - Throws: ``StorageError`` from ``BackupArchive/write(from:to:serverVersion:host:now:level:files:)``.
    static func write(_ store: HouseholdStore, dataDirectory: String, to path: String) throws -> BackupArchive.Written {
        try BackupArchive.write(
            from: store.store, to: path, serverVersion: WorkoutServer.version, host: hostName(),
            files: identityFiles(in: dataDirectory))
    }

    /// The files of the server identity in `dataDirectory` (its key mode 0600), for an archive;
    /// none when there is no identity yet (see ``identity(in:)``).
    static func identityFiles(in dataDirectory: String) -> [BackupArchive.File] {
        identity(in: dataDirectory)?.backupFiles ?? []
    }

    /// The server identity in `dataDirectory` for a backup, or `nil` when there is none yet.
    /// One that does not load (a key readable by others, a damaged file) is left out with a
    /// warning: the store's backup matters more, and `serve` refuses such an identity anyway.
    static func identity(in dataDirectory: String) -> ServerIdentity? {
        do {
            return try ServerIdentity.load(from: dataDirectory)
        } catch {
            StandardError.print("workoutd: warning: the backup does not carry the server's key: \(error)")
            return nil
        }
    }

    /// `1.2 MiB, 1234567 bytes; store 4.0 MiB, schema version 1, 14600 workouts, 43800 meals`,
    /// and the server key it carries.
    static func describe(_ written: BackupArchive.Written) -> String {
        "\(Display.size(bytes: written.archiveBytes)); " + describe(written.manifest) + "; " + describeIdentity(written.manifest)
    }

    /// Whether a manifest lists the server's key: "with the server's key" or "without …".
    static func describeIdentity(_ manifest: BackupManifest) -> String {
        (manifest.files ?? []).contains { $0.name == ServerIdentity.keyEntryName }
            ? "with the server's key (\(ServerIdentity.folderName)/)" : "without a server key"
    }

    /// A manifest in one line: store size, schema version, main record counts.
    static func describe(_ manifest: BackupManifest) -> String {
        var parts = ["store \(Display.size(bytes: manifest.storeBytes))", "schema version \(manifest.schemaVersion)"]
        for table in ["users", "workouts", "meals", "weights", "steps"] {
            if let count = manifest.records[table] {
                parts.append("\(count) \(table == "users" ? (count == 1 ? "member" : "members") : table == "weights" ? "weight entries" : table == "steps" ? "step reports" : table)")
            }
        }
        return parts.joined(separator: ", ")
    }

    /// Creates the backup directory (mode 0700) if missing.
    static func createBackupDirectory(_ directory: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw CommandFailure(.store, "the backup directory \(directory) is not a directory") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CommandFailure(.store, "cannot create the backup directory \(directory): \((error as NSError).localizedDescription)")
        }
    }

    /// Applies `retention` to the scheduled archives in `directory` and says what it did.
    static func prune(_ directory: String, retention: BackupRetention) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw CommandFailure(.store, "cannot list the backup directory \(directory): \((error as NSError).localizedDescription)")
        }
        let decision = retention.decide(BackupRetention.archives(among: names))
        for archive in decision.delete {
            let path = (directory as NSString).appendingPathComponent(archive.name)
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                throw CommandFailure(.store, "cannot delete the old archive \(path): \((error as NSError).localizedDescription)")
            }
            print("Deleted \(path) (retention: \(retention.daily) daily, \(retention.weekly) weekly).")
        }
        print("Keeping \(decision.keep.count) scheduled archive\(decision.keep.count == 1 ? "" : "s") in \(directory).")
    }

    /// This machine's name (`gethostname`), for manifests; never a network lookup (the backup
    /// service runs without a network).
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
