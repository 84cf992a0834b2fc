// A store of schema version 1 (the tables main wrote before goals, with a member and her
// records written into them as version 1 stored them) opens at version 2: every record is
// still there, the goals table exists and works, and a store newer than this build is
// refused as before.

import Foundation
import LMDB
import Storage
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

@Suite("Schema migration")
struct SchemaMigrationTests {
    /// The tables of schema version 1, as main declared them.
    static let versionOneTables = [
        "users", "users_by_email", "sessions", "sessions_by_user", "invites", "invites_by_id",
        "workouts", "workouts_by_time", "meals", "meals_by_time", "weights", "weights_by_time",
        "steps", "days", "achievements", "changes", "tombstones",
    ]

    @Test("A store of schema version 1 opens at version 2, keeps every record, and gains the goals table")
    func fromVersionOne() async throws {
        try await withTemporaryDirectory { directory in
            let userID = UUID()
            let workoutID = UUID()
            // Version 1, written through its own tables.
            do {
                let old = try Store(directory: directory, schema: Schema(version: 1, tables: Self.versionOneTables, migrations: [
                    Migration(version: 1, summary: "create the household tables") { _, _ in },
                ]))
                defer { old.close() }
                let byEmail = SecondaryIndex<String, UUID, Workout_Store_V1_StoredUser>(database: try old.database("users_by_email")) { _, user in [user.emailKey] }
                let users = IndexedTable<UUID, Workout_Store_V1_StoredUser>(try old.table("users")).indexed(by: byEmail)
                let byTime = SecondaryIndex<UserTimeKey, UserRecordKey, Workout_V1_Workout>(database: try old.database("workouts_by_time")) { key, workout in
                    [UserTimeKey(user: key.user, time: workout.performedAtMs, id: key.id)]
                }
                let workouts = IndexedTable<UserRecordKey, Workout_V1_Workout>(try old.table("workouts")).indexed(by: byTime)
                var user = Workout_Store_V1_StoredUser()
                user.userID = userID.data
                user.email = "olga@example.com"
                user.emailKey = "olga@example.com"
                user.firstName = "Olga"
                user.timeZone = "UTC"
                user.role = Int32(Workout_V1_Role.owner.rawValue)
                user.createdAtMs = householdStart
                user.password = try PasswordHasher(parameters: .fastForTests).hash(testPassword)
                user.revision = 1
                user.totals.totalWorkouts = 1
                var stored = workout(id: workoutID.data, at: householdStart - 3_600_000, zone: "UTC")
                stored.localDay = LocalDay.containing(instant: stored.performedAtMs, in: TimeZone(identifier: "UTC")!).wire
                stored.revision = 1
                stored.createdAtMs = householdStart
                let saved = stored
                let account = user
                try old.writeAndWait { txn in
                    try txn.put(account, forKey: userID, in: users)
                    try txn.put(saved, forKey: UserRecordKey(user: userID, id: workoutID), in: workouts)
                }
                #expect(try old.storedSchemaVersion() == 1)
            }

            // This build opens it, migrates, and serves what was there.
            var configuration = HouseholdStore.Configuration()
            configuration.passwordParameters = .fastForTests
            let store = try HouseholdStore(directory: directory, configuration: configuration, clock: ManualClock(householdStart))
            defer { store.close() }
            #expect(try store.store.storedSchemaVersion() == HouseholdSchema.version)
            var login = Workout_V1_LoginRequest()
            login.email = "olga@example.com"
            login.password = testPassword
            let caller = try await store.login(login, source: "127.0.0.1", agent: "tests").caller
            #expect(caller.userID == userID)
            #expect(try store.workoutHistory(caller, Workout_V1_WorkoutHistoryRequest()).workouts.map(\.id) == [workoutID.data])
            #expect(try store.getProfile(caller).totals.totalWorkouts == 1)
            #expect(try store.getGoals(caller, Workout_V1_GetGoalsRequest()).history.isEmpty)
            var goals = Workout_V1_SetGoalsRequest()
            goals.set.dailySteps = 8_000
            _ = try await store.setGoals(caller, goals)
            #expect(try store.getGoals(caller, Workout_V1_GetGoalsRequest()).goals.dailySteps == 8_000)
            // Version 5's steps samples.
            var sample = Workout_V1_ImportRecord()
            sample.stepsSample.day = LocalDay.containing(instant: householdStart, in: TimeZone(identifier: "UTC")!).wire
            sample.stepsSample.source = "phone"
            sample.stepsSample.startMs = householdStart - 3_600_000
            sample.stepsSample.steps = 420
            var batch = Workout_V1_ImportRecordsRequest()
            batch.records = [sample]
            #expect(try await store.importRecords(caller, batch).stepsSamples == 1)
        }
    }

    @Test("A store of a newer schema is refused, and left at its version")
    func newerRefused() throws {
        try withTemporaryDirectory { directory in
            do {
                let newer = try Store(directory: directory, schema: Schema(version: HouseholdSchema.version + 1, tables: ["users"]))
                newer.close()
            }
            #expect(throws: StorageError.self) { try HouseholdStore(directory: directory, clock: ManualClock(householdStart)) }
            let again = try Store(directory: directory, schema: Schema(version: HouseholdSchema.version + 1, tables: ["users"]))
            defer { again.close() }
            #expect(try again.storedSchemaVersion() == HouseholdSchema.version + 1)
        }
    }
}
