import ArgumentParser
import Foundation
import Storage
import WorkoutCore

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
            the restored one).
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
        let summary = try DataDirectoryLock.withLock(dataDirectory: directory) { _ in
            do {
                return try Store.restore(backup: backup, into: directory, schema: HouseholdSchema.schema, replacing: force)
            } catch let error as StorageError where error.code == .storeExists {
                throw CommandFailure(.refused, "\(directory) holds a store already; pass --force to replace it with the backup")
            }
        }
        let replaced = summary.replacedExisting ? ", replacing the store that was there" : ""
        print("Restored \(backup) into \(directory) (\(Display.size(bytes: summary.bytes)), schema version \(summary.schemaVersion)\(replaced)).")
    }

    private func restoreArchive(into directory: String) throws {
        // Read the manifest before taking the lock: a wrong archive is refused with its own
        // message even while a server runs, and nothing is created.
        let manifest = try BackupArchive.readManifest(backup, schema: HouseholdSchema.schema)
        let (summary, _) = try DataDirectoryLock.withLock(dataDirectory: directory) { _ in
            do {
                return try BackupArchive.restore(archive: backup, into: directory, schema: HouseholdSchema.schema, replacing: force)
            } catch let error as StorageError where error.code == .storeExists {
                throw CommandFailure(.refused, "\(directory) holds a store already; pass --force to replace it with the backup")
            }
        }
        let replaced = summary.replacedExisting ? ", replacing the store that was there" : ""
        let taken = Display.time(milliseconds: Int64(manifest.createdAt.timeIntervalSince1970 * 1000))
        print("Restored \(backup) (taken \(taken) on \(manifest.host) by workoutd \(manifest.serverVersion)) into \(directory)\(replaced).")
        print("Checked: SHA-256 \(manifest.storeSHA256); \(StoreArchiving.describe(manifest)).")
    }
}
