import Foundation
import Storage
import WorkoutCore
import WorkoutServer

/// What happens before a store is opened for writing, which migrates a store written by an
/// older version: a newer store is refused with a message saying what to do, and an older one
/// is archived first (into the backup directory), so an upgrade can always be undone.
enum StoreUpgrade {
    /// What ``prepare(dataDirectory:backupDirectory:)`` did.
    struct Outcome {
        /// The schema version found on disk.
        var fromVersion: UInt32
        /// The archive taken before the migration.
        var archive: BackupArchive.Written
    }

    /// Checks the store in `dataDirectory` (read-only) and, when it is older than this build's
    /// schema, writes an archive of it into `backupDirectory` named
    /// `workout-<UTC time>-before-schema-<version>.tar.gz` (never pruned by retention).
    ///
    /// - Returns: the archive taken, or `nil` when there is no store yet or it is up to date.
    /// - Throws: ``CommandFailure`` (store) for a store newer than this build; what the
    ///   inspection or the archive throws (then nothing is migrated: the caller stops).
    static func prepare(dataDirectory: String, backupDirectory: String) throws -> Outcome? {
        // After a crash, the log brings the data file back to what was acknowledged first.
        try Store.recover(directory: dataDirectory)
        guard let inspection = try Store.inspect(directory: dataDirectory, schema: HouseholdSchema.schema) else { return nil }
        let known = HouseholdSchema.version
        if inspection.schemaVersion > known {
            throw CommandFailure(
                .store,
                "the store in \(dataDirectory) was written by a newer workoutd (schema version \(inspection.schemaVersion)); this workoutd \(WorkoutServer.version) knows up to schema version \(known). Nothing was changed: install the newer workoutd again, or restore an archive this version wrote (`workoutd restore --force FILE`).")
        }
        guard inspection.schemaVersion < known else { return nil }
        try StoreArchiving.createBackupDirectory(backupDirectory)
        let stamp = BackupRetention.archiveName(at: Date()).dropLast(".tar.gz".count)
        let path = (backupDirectory as NSString).appendingPathComponent("\(stamp)-before-schema-\(known).tar.gz")
        let archive = try BackupArchive.write(
            storeIn: dataDirectory, schema: HouseholdSchema.schema, to: path,
            serverVersion: WorkoutServer.version, host: StoreArchiving.hostName(),
            files: StoreArchiving.identityFiles(in: dataDirectory))
        return Outcome(fromVersion: inspection.schemaVersion, archive: archive)
    }

    /// The line that says a store was archived before its migration.
    static func describe(_ outcome: Outcome) -> String {
        "the store is at schema version \(outcome.fromVersion); archived it to \(outcome.archive.path) before migrating it to version \(HouseholdSchema.version)"
    }
}
