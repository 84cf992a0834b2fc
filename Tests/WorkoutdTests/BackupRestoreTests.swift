import Foundation
@testable import workoutd
import Testing
import TestSupport
import WorkoutCore

/// `backup` and `restore`, run as processes.
@Suite("workoutd backup and restore", .serialized)
struct BackupRestoreTests {
    @Test("A backup restored into a new data directory holds the same household")
    func roundTrip() async throws {
        try await withTemporaryDirectory { path in
            let data = path + "/data"
            try createOwner(data)
            let invite = try WorkoutdProcess.run(["invite", "--data-dir", data, "--note", "kept"])
            #expect(invite.status == 0, "\(invite)")

            let backup = try WorkoutdProcess.run(["backup", "--data-dir", data, path + "/backup"])
            #expect(backup.status == 0, "\(backup)")
            #expect(backup.output.contains("Backed up \(data) to "), "\(backup)")
            #expect(backup.output.contains("/backup/data.mdb ("), "\(backup)")
            #expect(backup.output.contains("bytes"))
            #expect(FileManager.default.fileExists(atPath: path + "/backup/data.mdb"))

            let again = try WorkoutdProcess.run(["backup", "--data-dir", data, path + "/backup"])
            #expect(again.status == 3, "\(again)")
            #expect(again.error.contains("back up into a new directory"), "\(again)")

            let restore = try WorkoutdProcess.run(["restore", "--data-dir", path + "/restored", path + "/backup"])
            #expect(restore.status == 0, "\(restore)")
            #expect(restore.output.contains("Restored \(path)/backup into \(path)/restored"), "\(restore)")

            let members = try WorkoutdProcess.run(["members", "--data-dir", path + "/restored"])
            #expect(members.output.contains("ada@example.com"), "\(members)")
            try await withHousehold(path + "/restored") { store in
                _ = try await login(store, email: "ada@example.com", password: "correct horse battery")
                let invites = try store.store.read { txn throws in try txn.count(of: store.tables.invites.table) }
                #expect(invites == 1)
            }
        }
    }

    @Test("backup works while another process has the store open and holds the data directory's lock, as a server does")
    func backupWhileServing() async throws {
        try await withTemporaryDirectory { path in
            let data = path + "/data"
            try createOwner(data)
            let lock = try DataDirectoryLock(dataDirectory: data)
            defer { lock.release() }
            try await withHousehold(data) { store in
                _ = try await login(store, email: "ada@example.com", password: "correct horse battery")
                let members = try WorkoutdProcess.run(["members", "--data-dir", data])
                #expect(members.status == 0, "\(members)")
                let invite = try WorkoutdProcess.run(["invite", "--data-dir", data])
                #expect(invite.status == 0, "\(invite)")
                let backup = try WorkoutdProcess.run(["backup", "--data-dir", data, path + "/backup"])
                #expect(backup.status == 0, "\(backup)")
                // The invite the other process wrote is visible to this one.
                let invites = try store.store.read { txn throws in try txn.count(of: store.tables.invites.table) }
                #expect(invites == 1)
            }
            let restore = try WorkoutdProcess.run(["restore", "--data-dir", path + "/copy", path + "/backup"])
            #expect(restore.status == 0, "\(restore)")
            try await withHousehold(path + "/copy") { store in
                let invites = try store.store.read { txn throws in try txn.count(of: store.tables.invites.table) }
                #expect(invites == 1)
            }
        }
    }

    @Test("restore replaces an existing store only with --force")
    func force() throws {
        try withTemporaryDirectory { path in
            let data = path + "/data"
            try createOwner(data, email: "old@example.com")
            #expect(try WorkoutdProcess.run(["backup", "--data-dir", data, path + "/backup"]).status == 0)
            try createOwner(path + "/other", email: "other@example.com")

            let refused = try WorkoutdProcess.run(["restore", "--data-dir", path + "/other", path + "/backup"])
            #expect(refused.status == 3, "\(refused)")
            #expect(refused.error.contains("holds a store already; pass --force"), "\(refused)")
            #expect(try WorkoutdProcess.run(["members", "--data-dir", path + "/other"]).output.contains("other@example.com"))

            let forced = try WorkoutdProcess.run(["restore", "--data-dir", path + "/other", "--force", path + "/backup"])
            #expect(forced.status == 0, "\(forced)")
            #expect(forced.output.contains("replacing the store that was there"), "\(forced)")
            let members = try WorkoutdProcess.run(["members", "--data-dir", path + "/other"])
            #expect(members.output.contains("old@example.com"), "\(members)")
            #expect(!members.output.contains("other@example.com"))
        }
    }

    @Test("restore is refused while another process holds the data directory's lock, and works once it is released")
    func refusedWhileLocked() throws {
        try withTemporaryDirectory { path in
            let data = path + "/data"
            try createOwner(data)
            #expect(try WorkoutdProcess.run(["backup", "--data-dir", data, path + "/backup"]).status == 0)
            let target = path + "/target"
            let lock = try DataDirectoryLock(dataDirectory: target)
            let refused = try WorkoutdProcess.run(["restore", "--data-dir", target, path + "/backup"])
            lock.release()
            #expect(refused.status == 3, "\(refused)")
            #expect(refused.error.contains("a server is running on this data directory"), "\(refused)")
            #expect(refused.error.contains("process \(getpid())"), "\(refused)")
            #expect(!FileManager.default.fileExists(atPath: target + "/data.mdb"))

            let restored = try WorkoutdProcess.run(["restore", "--data-dir", target, path + "/backup"])
            #expect(restored.status == 0, "\(restored)")
        }
    }

    @Test("restore refuses what is not a backup, and leaves the data directory alone")
    func notABackup() throws {
        try withTemporaryDirectory { path in
            let data = path + "/data"
            try createOwner(data)
            let missing = try WorkoutdProcess.run(["restore", "--data-dir", data, "--force", path + "/nothing"])
            #expect(missing.status == 2, "\(missing)")
            #expect(missing.error.contains("holds no backup"), "\(missing)")

            try FileManager.default.createDirectory(atPath: path + "/garbage", withIntermediateDirectories: true)
            try Data(repeating: 0x41, count: 50_000).write(to: URL(fileURLWithPath: path + "/garbage/data.mdb"))
            let garbage = try WorkoutdProcess.run(["restore", "--data-dir", data, "--force", path + "/garbage"])
            #expect(garbage.status == 2, "\(garbage)")
            #expect(garbage.error.contains("is not an LMDB data file"), "\(garbage)")
            #expect(try WorkoutdProcess.run(["members", "--data-dir", data]).output.contains("ada@example.com"))
        }
    }
}
