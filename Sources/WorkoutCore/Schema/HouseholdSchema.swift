package import Foundation
package import Storage
package import WorkoutProtocol
import WorkoutRules

/// The tables of a household's store, their indexes, and the schema's history.
///
/// Every per-member table is keyed by the member's id first, and every date query goes
/// through a `(user, time, id)` index, so it is a range scan: O(log n + k) whatever the
/// size of the table.
package struct HouseholdSchema: Sendable {
    /// The schema version this build writes.
    package static let version: UInt32 = 5

    /// Every table and index, by name.
    package static let schema = Schema(version: version, tables: [
        "users", "users_by_email",
        "sessions", "sessions_by_user",
        "invites", "invites_by_id",
        "workouts", "workouts_by_time",
        "meals", "meals_by_time",
        "weights", "weights_by_time",
        "steps", "days", "achievements", "changes", "tombstones",
        "goals",
        "foods", "food_words", "foods_by_barcode",
        "food_uses", "food_uses_by_time", "food_uses_by_count", "food_users",
        "templates",
        "steps_samples",
    ], migrations: [
        Migration(version: 1, summary: "create the household tables") { _, _ in },
        // The table is created when the store opens (every declared table is); a store of
        // version 1 has no goals, so there is nothing to carry over.
        Migration(version: 2, summary: "add the goals table (members' goal history)") { _, _ in },
        // As for version 2: the tables are created when the store opens, and start empty.
        Migration(version: 3, summary: "add the food library (foods, their words and barcodes, members' uses)") { _, _ in },
        Migration(version: 4, summary: "add members' templates (saved meals and workouts)") { _, _ in },
        // Steps reports stored before keep their figures; samples start with the next push.
        Migration(version: 5, summary: "add steps samples (a phone's steps by interval, summed per source and day)") { _, _ in },
    ])

    /// Accounts by id, with the unique email index.
    package let users: IndexedTable<UUID, Workout_Store_V1_StoredUser>
    /// `email_key` → user id.
    package let usersByEmail: SecondaryIndex<String, UUID, Workout_Store_V1_StoredUser>
    /// Sessions by the SHA-256 of their token.
    package let sessions: IndexedTable<DigestKey, Workout_Store_V1_StoredSession>
    /// `(user, session id)` → token hash.
    package let sessionsByUser: SecondaryIndex<UserItemKey, DigestKey, Workout_Store_V1_StoredSession>
    /// Invites by the SHA-256 of their code.
    package let invites: IndexedTable<DigestKey, Workout_Store_V1_StoredInvite>
    /// Invite id → code hash.
    package let invitesByID: SecondaryIndex<UUID, DigestKey, Workout_Store_V1_StoredInvite>
    /// Workouts by `(user, id)`.
    package let workouts: IndexedTable<UserRecordKey, Workout_V1_Workout>
    /// `(user, performed_at, id)`.
    package let workoutsByTime: SecondaryIndex<UserTimeKey, UserRecordKey, Workout_V1_Workout>
    /// Meals (with their food items inside) by `(user, id)`.
    package let meals: IndexedTable<UserRecordKey, Workout_V1_Meal>
    /// `(user, eaten_at, id)`.
    package let mealsByTime: SecondaryIndex<UserTimeKey, UserRecordKey, Workout_V1_Meal>
    /// Weight entries by `(user, id)`.
    package let weights: IndexedTable<UserRecordKey, Workout_V1_WeightEntry>
    /// `(user, measured_at, id)`.
    package let weightsByTime: SecondaryIndex<UserTimeKey, UserRecordKey, Workout_V1_WeightEntry>
    /// Steps reports by `(user, day, source)`.
    package let steps: Table<UserStepsKey, Workout_V1_StepsReport>
    /// Per-day figures by `(user, day)`.
    package let days: Table<UserDayKey, Workout_Store_V1_StoredDay>
    /// Unlocked achievements by `(user, achievement id)`.
    package let achievements: Table<UserNameKey, Workout_V1_Achievement>
    /// The change log by `(user, revision)`.
    package let changes: Table<UserRevisionKey, Workout_Store_V1_StoredChange>
    /// Deleted record ids by `(user, kind, id)`; the value is the deleting revision.
    package let tombstones: Table<TombstoneKey, [UInt8]>
    /// Goal history by `(user, day it took effect)`: each entry is the whole set from its day on.
    package let goals: Table<UserDayKey, Workout_V1_GoalsEntry>
    /// The household's food library by food id, with its word and barcode indexes.
    package let foods: IndexedTable<UUID, Workout_V1_Food>
    /// `(word, name, food)` for every word of a food's name and brand.
    package let foodWords: SecondaryIndex<FoodWordKey, UUID, Workout_V1_Food>
    /// Barcode → food id (one food per barcode).
    package let foodsByBarcode: SecondaryIndex<String, UUID, Workout_V1_Food>
    /// How often and when each member logged each food, by `(user, food)`.
    package let foodUses: IndexedTable<UserRecordKey, Workout_V1_FoodUser>
    /// `(user, last logged, food)`: a member's recent foods.
    package let foodUsesByTime: SecondaryIndex<UserTimeKey, UserRecordKey, Workout_V1_FoodUser>
    /// `(user, times logged, food)`: a member's frequent foods.
    package let foodUsesByCount: SecondaryIndex<UserTimeKey, UserRecordKey, Workout_V1_FoodUser>
    /// Members' saved meals and workouts by `(user, template id)`.
    package let templates: Table<UserRecordKey, Workout_V1_Template>
    /// Steps samples by `(user, day, source, start)`: a source's day is the sum of its samples.
    package let stepsSamples: Table<StepsSampleKey, Workout_V1_StepsSample>
    /// `(food, user)`: who logged a food.
    package let foodUsers: SecondaryIndex<UserRecordKey, UserRecordKey, Workout_V1_FoodUser>

    /// The most members, and sessions, whose decoded records are kept: every call reads the
    /// caller's session and record, and every write rewrites the record (``DecodedValueCache``).
    static let cachedRecords = 1024

    /// Resolves every table of `store`.
    package init(store: Store) throws {
        usersByEmail = SecondaryIndex(database: try store.database("users_by_email")) { _, user in [user.emailKey] }
        users = IndexedTable(try store.table("users").cachingDecodedValues(capacity: Self.cachedRecords)).indexed(by: usersByEmail)
        sessionsByUser = SecondaryIndex(database: try store.database("sessions_by_user")) { _, session in
            [UserItemKey(user: UUID(bytes: session.userID), id: UUID(bytes: session.sessionID))]
        }
        sessions = IndexedTable(try store.table("sessions").cachingDecodedValues(capacity: Self.cachedRecords)).indexed(by: sessionsByUser)
        invitesByID = SecondaryIndex(database: try store.database("invites_by_id")) { _, invite in [UUID(bytes: invite.inviteID)] }
        invites = IndexedTable(try store.table("invites")).indexed(by: invitesByID)
        workoutsByTime = SecondaryIndex(database: try store.database("workouts_by_time")) { key, workout in
            [UserTimeKey(user: key.user, time: workout.performedAtMs, id: key.id)]
        }
        workouts = IndexedTable(try store.table("workouts")).indexed(by: workoutsByTime)
        mealsByTime = SecondaryIndex(database: try store.database("meals_by_time")) { key, meal in
            [UserTimeKey(user: key.user, time: meal.eatenAtMs, id: key.id)]
        }
        meals = IndexedTable(try store.table("meals")).indexed(by: mealsByTime)
        weightsByTime = SecondaryIndex(database: try store.database("weights_by_time")) { key, entry in
            [UserTimeKey(user: key.user, time: entry.measuredAtMs, id: key.id)]
        }
        weights = IndexedTable(try store.table("weights")).indexed(by: weightsByTime)
        steps = try store.table("steps")
        days = try store.table("days")
        achievements = try store.table("achievements")
        changes = try store.table("changes")
        tombstones = try store.table("tombstones")
        goals = try store.table("goals")
        foodWords = SecondaryIndex(database: try store.database("food_words")) { id, food in
            let name = food.name.lowercased()
            return FoodWords.indexWords(name: food.name, brand: food.brand).map { FoodWordKey(word: $0, name: name, food: id) }
        }
        foodsByBarcode = SecondaryIndex(database: try store.database("foods_by_barcode")) { _, food in
            food.barcode.isEmpty ? [] : [food.barcode]
        }
        foods = IndexedTable(try store.table("foods")).indexed(by: foodWords).indexed(by: foodsByBarcode)
        foodUsesByTime = SecondaryIndex(database: try store.database("food_uses_by_time")) { key, use in
            [UserTimeKey(user: key.user, time: use.lastLoggedAtMs, id: key.id)]
        }
        foodUsesByCount = SecondaryIndex(database: try store.database("food_uses_by_count")) { key, use in
            [UserTimeKey(user: key.user, time: Int64(use.timesLogged), id: key.id)]
        }
        foodUsers = SecondaryIndex(database: try store.database("food_users")) { key, _ in
            [UserRecordKey(user: key.id, id: key.user)]
        }
        templates = try store.table("templates")
        stepsSamples = try store.table("steps_samples")
        foodUses = IndexedTable(try store.table("food_uses")).indexed(by: foodUsesByTime).indexed(by: foodUsesByCount).indexed(by: foodUsers)
    }
}
