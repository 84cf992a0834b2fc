import Foundation
import Storage
import Testing
import TestSupport
import WorkoutCore

/// `backup --archive`, `--scheduled` and `--prune`, and `restore` of archives, run as processes.
@Suite("workoutd backup and restore of archive files")
struct ArchiveCommandTests {
    /// The members `workoutd members` lists in `data`.
    static func members(_ data: String) throws -> String {
        try WorkoutdProcess.run(["members", "--data-dir", data]).output
    }

    @Test("A damaged or newer archive is refused with a clear message and exit code 2, and the store stays", arguments: [
        ("truncated", "is truncated: the file ends before the archive does"),
        ("altered", "is damaged or was altered"),
        ("newer", "holds a store of schema version 99 (written by workoutd 99.0); this workoutd knows up to schema version"),
        ("not an archive", "is not a Workout backup archive"),
    ])
    func refused(kind: String, message: String) throws {
        try withTemporaryDirectory { path in
            let data = path + "/data"
            try createOwner(data, email: "kept@example.com")
            let archive = path + "/a.tar.gz"
            if kind == "newer" {
                let store = try Store(directory: path + "/newer", schema: Schema(version: 99, tables: ["users"]))
                store.close()
                _ = try BackupArchive.write(storeIn: path + "/newer", schema: Schema(version: 99, tables: ["users"]), to: archive, serverVersion: "99.0", host: "h")
            } else {
                try createOwner(path + "/other", email: "other@example.com")
                for index in 0..<30 {
                    let invite = try WorkoutdProcess.run(["invite", "--data-dir", path + "/other", "--note", "invite \(index)"])
                    #expect(invite.status == 0)
                }
                let written = try WorkoutdProcess.run(["backup", "--data-dir", path + "/other", "--archive", archive])
                #expect(written.status == 0, "\(written)")
                var bytes = try Data(contentsOf: URL(fileURLWithPath: archive))
                switch kind {
                case "truncated": bytes = bytes.prefix(bytes.count * 2 / 3)
                case "altered": bytes[bytes.count * 2 / 3] ^= 0xFF
                default: bytes = Data("{\"format\": \"something else\"}".utf8)
                }
                try bytes.write(to: URL(fileURLWithPath: archive))
            }
            let result = try WorkoutdProcess.run(["restore", "--data-dir", data, "--force", archive])
            #expect(result.status == 2, "\(result)")
            #expect(result.error.contains(message), "\(result)")
            #expect(result.error.hasPrefix("workoutd: error: "), "one line on standard error: \(result)")
            #expect(try Self.members(data).contains("kept@example.com"))
            let left = try FileManager.default.contentsOfDirectory(atPath: data).filter { $0.contains("restoring") }
            #expect(left.isEmpty, "\(left)")
        }
    }

    @Test("--scheduled writes a dated archive into backup_dir and prunes; --prune alone deletes only old scheduled archives")
    func scheduledAndPrune() throws {
        try withTemporaryDirectory { path in
            let data = path + "/data"
            try createOwner(data)
            let backups = path + "/usb/workout"
            try Data(#"{"data_dir": "data", "backup_dir": "usb/workout", "backup_keep_daily": 2, "backup_keep_weekly": 1}"#.utf8)
                .write(to: URL(fileURLWithPath: path + "/workoutd.json"))
            // Archives from earlier nights (empty files: retention reads only their names), a
            // pre-migration archive and someone's notes.
            try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: true)
            let old = ["workout-20260101T031500Z.tar.gz", "workout-20260102T031500Z.tar.gz", "workout-20260103T031500Z.tar.gz"]
            for name in old + ["workout-20250101T000000Z-before-schema-2.tar.gz", "notes.txt"] {
                try Data().write(to: URL(fileURLWithPath: backups + "/" + name))
            }
            let scheduled = try WorkoutdProcess.run(["backup", "--scheduled", "--config", path + "/workoutd.json"])
            #expect(scheduled.status == 0, "\(scheduled)")
            #expect(scheduled.output.contains("Backed up \(data) to \(backups)/workout-"), "\(scheduled)")
            #expect(scheduled.output.contains("Keeping 2 scheduled archives in \(backups)."), "\(scheduled)")
            let names = try FileManager.default.contentsOfDirectory(atPath: backups).sorted()
            // Kept: today's new archive and 2026-01-03 (2 days); the weekly slot is today's week.
            let fresh = try #require(names.first { BackupRetention.date(inName: $0) != nil && !old.contains($0) })
            #expect(names == [fresh, "notes.txt", "workout-20250101T000000Z-before-schema-2.tar.gz", "workout-20260103T031500Z.tar.gz"].sorted())
            let manifest = try BackupArchive.readManifest(backups + "/" + fresh, schema: HouseholdSchema.schema)
            #expect(manifest.records["users"] == 1)

            let pruned = try WorkoutdProcess.run(["backup", "--prune", "--keep-daily", "1", "--keep-weekly", "0", "--config", path + "/workoutd.json"])
            #expect(pruned.status == 0, "\(pruned)")
            #expect(pruned.output.contains("Deleted \(backups)/workout-20260103T031500Z.tar.gz"), "\(pruned)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: backups).sorted()
                    == [fresh, "notes.txt", "workout-20250101T000000Z-before-schema-2.tar.gz"].sorted())

            let restored = try WorkoutdProcess.run(["restore", "--data-dir", path + "/restored", backups + "/" + fresh])
            #expect(restored.status == 0, "\(restored)")
            #expect(try Self.members(path + "/restored").contains("ada@example.com"))
        }
    }

    @Test("--scheduled before the owner exists has nothing to back up, and succeeds (the timer does not fail)")
    func scheduledWithoutStore() throws {
        try withTemporaryDirectory { path in
            let result = try WorkoutdProcess.run(["backup", "--scheduled", "--data-dir", path + "/data"])
            #expect(result.status == 0, "\(result)")
            #expect(result.output.contains("There is no store in \(path)/data yet (create the owner first): nothing to back up."), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: path + "/data/data.mdb"))
        }
    }

    @Test("backup takes exactly one of a directory, --archive, --scheduled or --prune", arguments: [
        [String](), ["dir", "--archive", "x.tar.gz"], ["--scheduled", "--prune"], ["--archive", "x.tar.gz", "--keep-daily", "3"],
        ["--prune", "--keep-daily", "0"], ["nightly.tar.gz"],
    ])
    func usage(arguments: [String]) throws {
        let result = try WorkoutdProcess.run(["backup"] + arguments)
        #expect(result.status == 1, "\(result)")
    }
}
