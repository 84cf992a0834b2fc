import ArgumentParser
import Foundation
import Storage
import WorkoutCore
import WorkoutServer

/// `workoutd backup`: a consistent, compacted copy of the store, taken while it is in use
/// (liblmdb lets this process read the store beside a running server), in one of three forms:
///
/// - `workoutd backup DIR`: a plain copy (`DIR/data.mdb`);
/// - `workoutd backup --archive FILE`: one verified archive file (``BackupArchive``);
/// - `workoutd backup --scheduled`: an archive named by the time into the configured
///   `backup_dir`, then retention (what `workoutd-backup.service` runs nightly);
///
/// and `workoutd backup --prune` applies retention alone.
struct Backup: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Back up the store while the server runs: into a directory, or as one archive file.",
        discussion: """
            `workoutd backup DIR` writes a plain copy (DIR/data.mdb). `--archive FILE` writes one \
            compressed archive (a .tar.gz holding manifest.json, the server's key and certificate \
            from identity/ and data.mdb, each with its SHA-256 in the manifest; the key is a \
            secret: keep archives where only you can read them). `--scheduled` writes workout-YYYYMMDDTHHMMSSZ.tar.gz into backup_dir (default \
            <data_dir>/backups) and then keeps the newest archive of each of the last \
            backup_keep_daily days and backup_keep_weekly ISO weeks (UTC), deleting the other \
            scheduled archives there; `--prune` does only the second part. Restore any of them with \
            `workoutd restore`.
            """)

    @OptionGroup var options: DataDirectoryOptions

    @Argument(help: ArgumentHelp("Where to write a plain copy: a new or empty directory.", valueName: "dir"))
    var directory: String?

    @Option(help: ArgumentHelp("Write one archive file (refused if it exists); conventionally NAME.tar.gz.", valueName: "file"))
    var archive: String?

    @Flag(help: "Write a dated archive into backup_dir, then apply retention (the nightly timer's command).")
    var scheduled = false

    @Flag(help: "Only apply retention to backup_dir's scheduled archives.")
    var prune = false

    @Option(name: .customLong("keep-daily"), help: ArgumentHelp("Override backup_keep_daily (1 to 366).", valueName: "days"))
    var keepDaily: Int?

    @Option(name: .customLong("keep-weekly"), help: ArgumentHelp("Override backup_keep_weekly (0 to 520).", valueName: "weeks"))
    var keepWeekly: Int?

    func validate() throws {
        let modes = [directory != nil, archive != nil, scheduled, prune].filter { $0 }.count
        guard modes == 1 else {
            throw ValidationError("give one of: a directory, --archive FILE, --scheduled or --prune")
        }
        if let directory, directory.hasSuffix(".tar.gz") || directory.hasSuffix(".tgz") {
            throw ValidationError("\(directory) looks like an archive file's name; write one with --archive \(directory)")
        }
        if let keepDaily, !(1...366).contains(keepDaily) { throw ValidationError("--keep-daily must be from 1 to 366") }
        if let keepWeekly, !(0...520).contains(keepWeekly) { throw ValidationError("--keep-weekly must be from 0 to 520") }
        if (keepDaily != nil || keepWeekly != nil) && !(scheduled || prune) {
            throw ValidationError("--keep-daily and --keep-weekly go with --scheduled or --prune")
        }
    }

    func run() throws {
        if let directory {
            try backUpIntoDirectory(directory)
        } else if let archive {
            try options.withHouseholdStore { store, dataDirectory in
                let written = try StoreArchiving.write(store, dataDirectory: dataDirectory, to: archive)
                print("Backed up \(dataDirectory) to \(written.path) (\(StoreArchiving.describe(written))).")
            }
        } else {
            let settings = try options.settings()
            let backups = settings.backupDirectory
            if scheduled, try !options.inspectDataDirectory().holdsStore {
                // A fresh install before its owner exists: the nightly timer has nothing to do yet.
                print("There is no store in \(settings.dataDirectory) yet (create the owner first): nothing to back up.")
                return
            }
            if scheduled {
                try StoreArchiving.createBackupDirectory(backups)
                try options.withHouseholdStore { store, dataDirectory in
                    let path = (backups as NSString).appendingPathComponent(BackupRetention.archiveName(at: Date()))
                    let written = try StoreArchiving.write(store, dataDirectory: dataDirectory, to: path)
                    print("Backed up \(dataDirectory) to \(written.path) (\(StoreArchiving.describe(written))).")
                }
            }
            let retention = BackupRetention(daily: keepDaily ?? settings.backupKeepDaily, weekly: keepWeekly ?? settings.backupKeepWeekly)
            try StoreArchiving.prune(backups, retention: retention)
        }
    }

    private func backUpIntoDirectory(_ directory: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw CommandFailure(.store, "\(directory) exists and is not a directory (for an archive file, use --archive \(directory))")
        }
        if FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent("data.mdb")) {
            throw CommandFailure(.refused, "\(directory) holds a store or backup already; back up into a new directory")
        }
        try options.withHouseholdStore { store, dataDirectory in
            let summary = try store.store.backup(to: directory)
            let file = (URL(fileURLWithPath: summary.directory).standardizedFileURL.path as NSString).appendingPathComponent("data.mdb")
            print("Backed up \(dataDirectory) to \(file) (\(Display.size(bytes: summary.bytes))).")
            if let identity = StoreArchiving.identity(in: dataDirectory) {
                do {
                    try ServerIdentity.store(identity, in: summary.directory)
                } catch {
                    throw CommandFailure(.store, "cannot copy the server's key: \(error)")
                }
                print("Copied the server's key (fingerprint \(identity.fingerprint)) to \(summary.directory)/\(ServerIdentity.folderName).")
            }
        }
    }
}
