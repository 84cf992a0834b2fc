import ArgumentParser
import Foundation
import Storage
import WorkoutCore

/// `workoutd restore <dir>`: installs a backup as the data directory's store.
///
/// Order: the backup must exist; the data directory's lock must be free (no server running);
/// then ``Store/restore(backup:into:schema:replacing:)`` copies the backup in, checks that the
/// copy opens (read-only) as a Workout store of a schema version this build knows, refuses to
/// replace an existing store without `--force`, and renames the copy into place atomically.
struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replace the data directory's store with a backup; refused while a server runs.",
        discussion: """
            The backup is checked before anything changes. An existing store is replaced only with \
            --force; the replacement is atomic (a crash leaves the old store or the restored one).
            """)

    @OptionGroup var options: DataDirectoryOptions

    @Argument(help: ArgumentHelp("A backup directory, as `workoutd backup` writes it.", valueName: "dir"))
    var backup: String

    @Flag(help: "Replace the store the data directory holds.")
    var force = false

    func run() throws {
        let directory = try options.resolvedDataDirectory()
        var isDirectory: ObjCBool = false
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
}
