import ArgumentParser
import Foundation
import Storage
import WorkoutCore

/// `workoutd backup <dir>`: a consistent, compacted copy of the store, taken while it is in use
/// (liblmdb lets this process read the store beside a running server).
struct Backup: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a consistent copy of the store into a new directory; works while the server runs.",
        discussion: "Restore it with `workoutd restore <dir>`.")

    @OptionGroup var options: DataDirectoryOptions

    @Argument(help: ArgumentHelp("Where to write the backup: a new or empty directory.", valueName: "dir"))
    var directory: String

    func run() throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw CommandFailure(.store, "\(directory) exists and is not a directory")
        }
        if FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent("data.mdb")) {
            throw CommandFailure(.refused, "\(directory) holds a store or backup already; back up into a new directory")
        }
        try options.withHouseholdStore { store, dataDirectory in
            let summary = try store.store.backup(to: directory)
            let file = (URL(fileURLWithPath: summary.directory).standardizedFileURL.path as NSString).appendingPathComponent("data.mdb")
            print("Backed up \(dataDirectory) to \(file) (\(Display.size(bytes: summary.bytes))).")
        }
    }
}
