import Foundation
import LMDB
import Storage
import Testing
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

/// Deleting an account (one's own, or an admin removing a member) deletes everything of the
/// member: checked by scanning every table, typed and raw, afterwards.
@Suite("Cascades")
struct CascadeTests {
    /// The two ways a member leaves.
    enum Removal: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case deleteAccount, removeMember
        var testDescription: String { rawValue }
    }

    /// For every raw table: how many entries mention `id` in their key, and in their value.
    static func mentions(of id: UUID, in store: HouseholdStore) throws -> [String: (keys: Int, values: Int)] {
        let needle = id.bytes
        var found: [String: (keys: Int, values: Int)] = [:]
        for name in HouseholdSchema.schema.tables {
            let database = try store.store.database(name)
            var keys = 0, values = 0
            try store.store.read { txn in
                _ = try txn.scanRaw(database, ScanRequest()) { key, value in
                    if occurs(needle, in: key) { keys += 1 }
                    if occurs(needle, in: value) { values += 1 }
                }
            }
            found[name] = (keys, values)
        }
        return found
    }

    /// How many entries of each typed table belong to `id`.
    static func typedRows(of id: UUID, in store: HouseholdStore) throws -> [String: Int] {
        let tables = store.tables
        let data = id.data
        return try store.store.read { txn in
            let all = ScanRequest()
            return [
                "users": try txn.scan(tables.users.table, all).elements.filter { $0.key == id || $0.value.userID == data }.count,
                "users_by_email": try txn.scan(tables.usersByEmail, all).elements.filter { $0.primaryKey == id }.count,
                "sessions": try txn.scan(tables.sessions.table, all).elements.filter { $0.value.userID == data }.count,
                "sessions_by_user": try txn.scan(tables.sessionsByUser, all).elements.filter { $0.indexKey.user == id }.count,
                "invites": try txn.scan(tables.invites.table, all).elements.filter { $0.value.createdBy == data }.count,
                "workouts": try txn.scan(tables.workouts.table, all).elements.filter { $0.key.user == id }.count,
                "workouts_by_time": try txn.scan(tables.workoutsByTime, all).elements.filter { $0.indexKey.user == id || $0.primaryKey.user == id }.count,
                "meals": try txn.scan(tables.meals.table, all).elements.filter { $0.key.user == id }.count,
                "meals_by_time": try txn.scan(tables.mealsByTime, all).elements.filter { $0.indexKey.user == id || $0.primaryKey.user == id }.count,
                "weights": try txn.scan(tables.weights.table, all).elements.filter { $0.key.user == id }.count,
                "weights_by_time": try txn.scan(tables.weightsByTime, all).elements.filter { $0.indexKey.user == id || $0.primaryKey.user == id }.count,
                "steps": try txn.scan(tables.steps, all).elements.filter { $0.key.user == id }.count,
                "days": try txn.scan(tables.days, all).elements.filter { $0.key.user == id }.count,
                "achievements": try txn.scan(tables.achievements, all).elements.filter { $0.key.user == id }.count,
                "changes": try txn.scan(tables.changes, all).elements.filter { $0.key.user == id }.count,
                "tombstones": try txn.scan(tables.tombstones, all).elements.filter { $0.key.user == id }.count,
                "goals": try txn.scan(tables.goals, all).elements.filter { $0.key.user == id }.count,
                "templates": try txn.scan(tables.templates, all).elements.filter { $0.key.user == id }.count,
            ]
        }
    }

    @Test("Deleting or removing a member leaves no key of theirs in any table, their sessions stop working, and another member is intact",
          arguments: Removal.allCases)
    func cascade(_ removal: Removal) async throws {
        try await withHousehold { household in
            let store = household.store
            let leaving = try await household.addMember("Ida", share: true)
            let leavingTablet = try await household.login(leaving)
            let staying = try await household.addMember("Jo", share: true)
            let stayingTablet = try await household.login(staying)
            let leavingHistory = try await store.fillHistory(leaving, household.clock)
            try await store.fillHistory(staying, household.clock, days: 4)
            var goals = Workout_V1_SetGoalsRequest()
            goals.set.dailySteps = 9_000
            _ = try await store.setGoals(leaving.caller, goals)
            _ = try await store.setGoals(staying.caller, goals)
            for member in [leaving, staying] {
                var template = Workout_V1_SaveTemplateRequest()
                template.template.id = newID()
                template.template.name = "Breakfast"
                template.template.meal = meal(at: 0, type: .breakfast, items: [300])
                _ = try await store.saveTemplate(member.caller, template)
            }

            // Before: the leaving member is in every per-member table.
            let before = try Self.typedRows(of: leaving.userID, in: store)
            for table in ["users", "users_by_email", "sessions", "sessions_by_user", "workouts", "workouts_by_time", "meals", "meals_by_time",
                          "weights", "weights_by_time", "steps", "days", "achievements", "changes", "tombstones", "goals", "templates"] {
                #expect(before[table, default: 0] > 0, "\(table) should hold the member before")
            }
            let stayingRows = try Self.typedRows(of: staying.userID, in: store)
            let stayingRaw = try Self.mentions(of: staying.userID, in: store)
            let stayingExport = try store.export(staying.caller)
            let stayingProfile = try store.profile(staying)

            switch removal {
            case .deleteAccount:
                var request = Workout_V1_DeleteAccountRequest()
                request.password = "wrong password"
                await expectDomainError(.permissionDenied) { try await store.deleteAccount(leaving.caller, request) }
                request.password = leaving.password
                try await store.deleteAccount(leaving.caller, request)
            case .removeMember:
                var request = Workout_V1_RemoveMemberRequest()
                request.userID = leaving.userID.data
                try await store.removeMember(household.owner.caller, request)
            }

            // Every typed table and every raw database: nothing of theirs.
            #expect(try Self.typedRows(of: leaving.userID, in: store).values.allSatisfy { $0 == 0 })
            for (table, count) in try Self.mentions(of: leaving.userID, in: store) {
                #expect(count.keys == 0, "a key in \(table) still names the member")
                // The invite they registered with stays used (it is the household's), naming them as its user.
                if table != "invites" { #expect(count.values == 0, "a value in \(table) still names the member") }
            }
            try store.store.read { txn in
                for name in HouseholdSchema.schema.tables {
                    _ = try txn.scanRaw(try store.store.database(name), ScanRequest()) { key, value in
                        for id in leavingHistory.workouts + leavingHistory.meals + leavingHistory.weights + leavingHistory.deleted {
                            #expect(!occurs(Array(id), in: key) && !occurs(Array(id), in: value), "a record id remains in \(name)")
                        }
                        #expect(!occurs(Array(leaving.caller.tokenDigest), in: key), "a session remains in \(name)")
                        // Their email, which their notes also carry (see fillHistory).
                        #expect(!occurs(Array("ida@example.com".utf8), in: key) && !occurs(Array("ida@example.com".utf8), in: value),
                                "the member's email or notes remain in \(name)")
                    }
                }
            }

            // Their sessions no longer authenticate, and their password no longer logs in.
            for caller in [leaving.caller, leavingTablet.caller] {
                await expectDomainError(.unauthenticated) { try store.getProfile(caller) }
                await expectDomainError(.unauthenticated) { try await store.log(leaving, workout(at: household.clock.nowMilliseconds())) }
            }
            var resume = Workout_V1_ResumeRequest()
            resume.sessionToken = Data(leavingTablet.token)
            await expectDomainError(.unauthenticated) { try await store.resume(resume) }
            await expectDomainError(.unauthenticated) { try await household.login(leaving) }
            // Their email is free again.
            let again = try await household.addMember("Ida")
            #expect(again.userID != leaving.userID)
            #expect(try store.allWorkouts(again).isEmpty)

            // The other member is untouched: same rows, same export, same revision, sessions alive.
            #expect(try Self.typedRows(of: staying.userID, in: store) == stayingRows)
            let stayingRawAfter = try Self.mentions(of: staying.userID, in: store)
            for (table, count) in stayingRaw {
                #expect(stayingRawAfter[table]?.keys == count.keys && stayingRawAfter[table]?.values == count.values, "\(table)")
            }
            #expect(try store.export(staying.caller) == stayingExport)
            #expect(try store.profile(staying) == stayingProfile)
            #expect(try store.profile(stayingTablet).revision == stayingProfile.revision)
            #expect(try store.householdView(staying.caller).map(\.userID).contains(leaving.userID.data) == false)
            #expect(try store.listMembers(household.owner.caller).map(\.userID).contains(leaving.userID.data) == false)
        }
    }

    @Test("Deleting a meal deletes its food items with it, and deleting the last record of a day removes the day")
    func mealCascade() async throws {
        try await withHousehold { household in
            let store = household.store
            let member = try await household.addMember("Ka")
            let at = household.clock.nowMilliseconds() - 3_600_000
            let logged = try await store.log(member, meal(at: at, items: [100, 200, 300])).meal
            #expect(logged.items.count == 3)
            #expect(logged.totals.calories == 600)
            #expect(try await store.deleteMeal(member, id: logged.id).deleted)
            var request = Workout_V1_MealsOfDayRequest()
            request.day = logged.localDay
            let day = try store.mealsOfDay(member.caller, request)
            #expect(day.meals.isEmpty)
            #expect(day.totals.calories == 0)
            let key = UserRecordKey(user: member.userID, id: UUID(bytes: Array(logged.id)))
            let (record, indexEntries, days, problems) = try store.store.read { txn in
                (try txn.get(key, from: store.tables.meals.table),
                 try txn.scan(store.tables.mealsByTime, ScanRequest(range: .prefix(member.userID.orderedKey))).elements.count,
                 try txn.scan(store.tables.days, ScanRequest(range: .prefix(member.userID.orderedKey))).elements.count,
                 try txn.verifyIndexes(of: store.tables.meals))
            }
            #expect(record == nil)
            #expect(indexEntries == 0)
            #expect(days == 0)
            #expect(problems.isEmpty)
        }
    }
}
