import ArgumentParser
import Foundation
import Storage
import WorkoutCore
import WorkoutServer

/// `workoutd restore <backup>`: installs a backup (an archive file or a backup directory) as the
/// data directory's store.
///
/// An archive is checked first (format and schema version from its manifest), then extracted
/// beside the store while its SHA-256 is computed, and only a copy whose size, SHA-256 and gzip
/// CRC match replaces anything (``BackupArchive/restore(archive:into:schema:replacing:)``).
///
/// For a backup directory: the backup must exist; the data directory's lock must be free (no server running);
/// then ``Store/restore(backup:into:schema:replacing:)`` copies the backup in, checks that the
/// copy opens (read-only) as a Workout store of a schema version this build knows, refuses to
/// replace an existing store without `--force`, and renames the copy into place atomically.
struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replace the data directory's store with a backup; refused while a server runs.",
        discussion: """
            The backup is an archive file (from `backup --archive` or `--scheduled`) or a backup \
            directory. It is checked before anything changes: an archive's format, schema version, \
            size, SHA-256 and CRC; then that it opens as a Workout store. An existing store is \
            replaced only with --force; the replacement is atomic (a crash leaves the old store or \
            the restored one). The server's key in the backup (identity/) is put back too (key.pem \
            mode 0600), so devices keep trusting the server; a backup without one keeps the key \
            the data directory has, and a key there that the backup's key vouched for (rotate-key \
            after the backup) is kept as well.
            """)

    @OptionGroup var options: DataDirectoryOptions

    @Argument(help: ArgumentHelp("An archive file or a backup directory, as `workoutd backup` writes them.", valueName: "backup"))
    var backup: String

    @Flag(help: "Replace the store the data directory holds.")
    var force = false

    func run() throws {
        let directory = try options.resolvedDataDirectory()
        try DataDirectoryOwner.check(directory)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: backup, isDirectory: &isDirectory), !isDirectory.boolValue {
            return try restoreArchive(into: directory)
        }
        guard FileManager.default.fileExists(atPath: backup, isDirectory: &isDirectory), isDirectory.boolValue,
              FileManager.default.fileExists(atPath: (backup as NSString).appendingPathComponent("data.mdb"))
        else {
            throw CommandFailure(.store, "\(backup) holds no backup (no directory with a data.mdb)")
        }
        // Check the backup's key before anything changes.
        let identity: ServerIdentity?
        do {
            identity = try ServerIdentity.load(from: backup)
        } catch {
            throw CommandFailure(.store, "the server's key in \(backup) cannot be restored: \(error)")
        }
        let (summary, keyOutcome) = try DataDirectoryLock.withLock(dataDirectory: directory) { _ in
            let summary: RestoreSummary
            do {
                summary = try Store.restore(backup: backup, into: directory, schema: HouseholdSchema.schema, replacing: force)
            } catch let error as StorageError where error.code == .storeExists {
                throw CommandFailure(.refused, "\(directory) holds a store already; pass --force to replace it with the backup")
            }
            return (summary, try Self.restoreIdentity(identity, into: directory))
        }
        let replaced = summary.replacedExisting ? ", replacing the store that was there" : ""
        print("Restored \(backup) into \(directory) (\(Display.size(bytes: summary.bytes)), schema version \(summary.schemaVersion)\(replaced)).")
        print(keyOutcome)
    }

    private func restoreArchive(into directory: String) throws {
        // Read the manifest before taking the lock: a wrong archive is refused with its own
        // message even while a server runs, and nothing is created.
        let manifest = try BackupArchive.readManifest(backup, schema: HouseholdSchema.schema)
        let (summary, keyOutcome) = try DataDirectoryLock.withLock(dataDirectory: directory) { _ in
            let restored: (summary: RestoreSummary, manifest: BackupManifest, files: [BackupArchive.File])
            // The archive's key is checked before the store is touched.
            var identity: ServerIdentity?
            do {
                restored = try BackupArchive.restore(archive: backup, into: directory, schema: HouseholdSchema.schema, replacing: force) { files in
                    do {
                        identity = try ServerIdentity.fromBackup(files, archive: backup)
                    } catch {
                        throw CommandFailure(.store, "the server's key in \(backup) cannot be restored (nothing was changed): \(error)")
                    }
                }
            } catch let error as StorageError where error.code == .storeExists {
                throw CommandFailure(.refused, "\(directory) holds a store already; pass --force to replace it with the backup")
            }
            return (restored.summary, try Self.restoreIdentity(identity, into: directory))
        }
        let replaced = summary.replacedExisting ? ", replacing the store that was there" : ""
        let taken = Display.time(milliseconds: Int64(manifest.createdAt.timeIntervalSince1970 * 1000))
        print("Restored \(backup) (taken \(taken) on \(manifest.host) by workoutd \(manifest.serverVersion)) into \(directory)\(replaced).")
        print("Checked: SHA-256 \(manifest.storeSHA256); \(StoreArchiving.describe(manifest)).")
        print(keyOutcome)
    }

    /// Puts the backup's server identity into `directory`, unless the one there should stay.
    ///
    /// - The backup has none (an archive from before backups carried it): the one there stays.
    /// - The one there is the same key, or a later key the backup's vouched for (`rotate-key`
    ///   after the backup, which devices may have accepted already): it stays.
    /// - Otherwise the backup's is written (key.pem mode 0600): it is what devices pinned.
    ///
    /// - Returns: a line saying which key the server will present.
    static func restoreIdentity(_ restored: ServerIdentity?, into directory: String) throws -> String {
        let existing = try? ServerIdentity.load(from: directory)
        guard let restored else {
            if let existing {
                return "The backup holds no server key; kept the one in \(directory)/\(ServerIdentity.folderName) (fingerprint \(existing.fingerprint))."
            }
            return "The backup holds no server key: `workoutd serve` makes a new one, and devices that trusted the old one will refuse the new one until told to trust it."
        }
        if let existing, existing.fingerprint == restored.fingerprint {
            return "The server's key is the backup's (fingerprint \(restored.fingerprint))."
        }
        if let existing, existing.succeeds(restored) {
            return "Kept the server's key in \(directory) (fingerprint \(existing.fingerprint)): the backup's key (\(restored.fingerprint)) vouched for it."
        }
        do {
            try ServerIdentity.store(restored, in: directory)
        } catch {
            throw CommandFailure(.store, "the store was restored, but the server's key could not be: \(error)")
        }
        let replacing = existing.map { ", replacing the key \($0.fingerprint)" } ?? ""
        return "Restored the server's key (fingerprint \(restored.fingerprint))\(replacing)."
    }
}
