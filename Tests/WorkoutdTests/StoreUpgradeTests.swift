import Foundation
import Storage
import Testing
import TestSupport
import WorkoutCore

/// What `workoutd` does with a store written by another version.
@Suite("workoutd on a store of another schema version")
struct StoreUpgradeTests {
    @Test("An older store is archived into the backup directory, then migrated")
    func olderIsArchivedFirst() throws {
        try withTemporaryDirectory { path in
            let data = path + "/data"
            // A store as schema version 0 wrote it: the identity, no version, the users table.
            let old = try Store(directory: data, schema: Schema(version: 0, tables: ["users"]))
            old.close()
            let result = try WorkoutdProcess.run(["members", "--data-dir", data])
            #expect(result.status == 0, "\(result)")
            #expect(result.error.contains("the store is at schema version 0; archived it to \(data)/backups/workout-"), "\(result)")
            #expect(result.error.contains("-before-schema-\(HouseholdSchema.version).tar.gz before migrating it to version \(HouseholdSchema.version)"), "\(result)")
            let archives = try FileManager.default.contentsOfDirectory(atPath: data + "/backups")
            #expect(archives.count == 1)
            let manifest = try BackupArchive.readManifest(data + "/backups/" + archives[0], schema: HouseholdSchema.schema)
            #expect(manifest.schemaVersion == 0)
            #expect(try Store.inspect(directory: data, schema: HouseholdSchema.schema)?.schemaVersion == HouseholdSchema.version)
            // Once migrated, no more archives.
            #expect(try WorkoutdProcess.run(["members", "--data-dir", data]).status == 0)
            #expect(try FileManager.default.contentsOfDirectory(atPath: data + "/backups").count == 1)
            // The pre-migration archive restores the old store.
            let restore = try WorkoutdProcess.run(["restore", "--data-dir", path + "/back", data + "/backups/" + archives[0]])
            #expect(restore.status == 0, "\(restore)")
        }
    }

    @Test("A newer store is refused by serve and the admin commands, with what to do, and left unchanged")
    func newerIsRefused() throws {
        try withTemporaryDirectory { path in
            let data = path + "/data"
            let newer = try Store(directory: data, schema: Schema(version: HouseholdSchema.version + 1, tables: ["users"]))
            newer.close()
            let before = try Data(contentsOf: URL(fileURLWithPath: data + "/data.mdb"))
            for arguments in [["serve", "--port", "0"], ["members"], ["invite"]] {
                let result = try WorkoutdProcess.run(arguments + ["--data-dir", data], timeout: 30)
                #expect(result.status == 2, "\(arguments): \(result)")
                #expect(result.error.contains("was written by a newer workoutd (schema version \(HouseholdSchema.version + 1)); this workoutd"), "\(result)")
                #expect(result.error.contains("install the newer workoutd again"), "\(result)")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: data + "/data.mdb")) == before)
            #expect(!FileManager.default.fileExists(atPath: data + "/backups"))
        }
    }
}
