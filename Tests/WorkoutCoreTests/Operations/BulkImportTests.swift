import Foundation
import Testing
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

/// Seeding a household from the server machine: members without invites, records in bulk.
@Suite("Bulk import")
struct BulkImportTests {
    /// Records of 20 days: a workout most days (two on some, one back-dated so the streak is
    /// recomputed), two meals a day with items, a weight entry every third day (one older than
    /// the newest), and a record given twice (a replay).
    static func records(endingAt now: Int64) -> [ImportedRecord] {
        var records: [ImportedRecord] = []
        let start = now - 20 * 86_400_000
        for day in 0..<20 {
            let at = start + Int64(day) * 86_400_000
            if day != 9 {
                records.append(.workout(workout(at: at + 7 * 3_600_000, seconds: 1_200 + UInt32(day), calories: 200 + Double(day))))
            }
            if day % 5 == 0 { records.append(.workout(workout(at: at + 18 * 3_600_000, type: "swim"))) }
            records.append(.meal(meal(at: at + 8 * 3_600_000, type: .breakfast, items: [300, 120])))
            records.append(.meal(meal(at: at + 13 * 3_600_000, type: .lunch, items: [650, 80, 45])))
            if day % 3 == 0 { records.append(.weight(weightEntry(kg: 80 - Double(day) / 10, at: at + 6 * 3_600_000))) }
        }
        records.append(.workout(workout(at: start + 9 * 86_400_000 + 3_600_000)))     // day 9, back-dated
        records.append(.weight(weightEntry(kg: 90, at: start + 86_400_000)))           // not the newest
        records.append(records[3])                                                      // a replay
        return records
    }

    /// A member of `household` created locally, and signed in.
    static func localMember(_ household: Household, zone: String = "Europe/Berlin") async throws -> Member {
        var profile = Workout_V1_Profile()
        profile.email = "bulk@example.com"
        profile.firstName = "Bulk"
        profile.timeZone = zone
        let created = try household.store.createMembersLocally([NewMember(profile: profile, password: testPassword)])
        #expect(created.count == 1 && created[0].email == "bulk@example.com" && created[0].role == .member)
        var login = Workout_V1_LoginRequest()
        login.email = profile.email
        login.password = testPassword
        let auth = try await household.store.login(login, source: "127.0.0.1", agent: "tests")
        return Member(auth: auth, email: profile.email, password: testPassword)
    }

    /// Everything a member can see of their data, with the member's own id left out (it differs
    /// between two households).
    static func state(_ store: HouseholdStore, _ member: Member, around now: Int64) throws -> [String] {
        var export = try store.export(member.caller)
        for index in export.indices { export[index].profile.userID = Data() }
        var summaries = Workout_V1_SummariesRequest()
        summaries.fromDay = LocalDay.containing(instant: now - 25 * 86_400_000, in: TimeZone(identifier: "UTC")!).wire
        summaries.toDay = LocalDay.containing(instant: now, in: TimeZone(identifier: "UTC")!).wire
        summaries.granularity = .day
        var profile = try store.profile(member)
        profile.profile.userID = Data()
        let changes = try store.allChanges(member, pageSize: 7).changes.map { change in
            var change = change
            if case .profile(var profile) = change.item {
                profile.userID = Data()
                change.item = .profile(profile)
            }
            return change
        }
        return [
            "\(export)",
            "\(changes)",
            "\(try store.summaries(member.caller, summaries))",
            "\(try store.achievements(member.caller))",
            "\(profile)",
        ]
    }

    @Test("Bulk import leaves the same state as logging the records one by one: records, days, totals, streaks, achievements, change log")
    func sameStateAsOneByOne() async throws {
        let records = Self.records(endingAt: householdStart)
        let oneByOne = try await withHousehold { household in
            let member = try await Self.localMember(household)
            for record in records {
                switch record {
                case .workout(let workout): try await household.store.log(member, workout)
                case .meal(let meal): try await household.store.log(member, meal)
                case .weight(let entry): try await household.store.log(member, entry)
                }
            }
            return try Self.state(household.store, member, around: householdStart)
        }
        let (bulk, summary) = try await withHousehold { household in
            let member = try await Self.localMember(household)
            let summary = try household.store.importRecordsLocally(for: member.userID, records, batchSize: 7)
            return (try Self.state(household.store, member, around: householdStart), summary)
        }
        #expect(summary.workouts == 24 && summary.meals == 40 && summary.weights == 8 && summary.replayed == 1)
        #expect(summary.commits == (records.count + 6) / 7)
        #expect(summary.achievementsUnlocked >= 3)
        for (expected, actual) in zip(oneByOne, bulk) {
            #expect(actual == expected)
        }
    }

    @Test("A record out of bounds fails the import before anything is written, naming its index and field")
    func invalidRecordWritesNothing() async throws {
        try await withHousehold { household in
            let member = try await Self.localMember(household)
            let now = household.clock.nowMilliseconds()
            var bad = meal(at: now)
            bad.items[0].calories = -1
            do {
                _ = try household.store.importRecordsLocally(for: member.userID, [.workout(workout(at: now)), .meal(bad)])
                Issue.record("the import succeeded")
            } catch let error as DomainError {
                #expect(error.code == .invalidArgument)
                #expect(error.field == "meal.items[0].calories")
                #expect(error.message.hasPrefix("record 1:"))
            }
            #expect(try household.store.profile(member).revision == 1)
            #expect(try household.store.allWorkouts(member).isEmpty)
        }
    }

    @Test("Members created locally must have distinct, free emails; a clash creates nobody")
    func membersCreatedLocally() async throws {
        try await withHousehold { household in
            func profile(_ email: String) -> Workout_V1_Profile {
                var profile = Workout_V1_Profile()
                profile.email = email
                profile.firstName = "X"
                profile.timeZone = "UTC"
                return profile
            }
            let before = try household.store.listMembersLocally().count
            await expectDomainError(.alreadyExists) {
                try household.store.createMembersLocally([
                    NewMember(profile: profile("a@example.com"), password: testPassword),
                    NewMember(profile: profile("A@example.com"), password: testPassword),
                ])
            }
            await expectDomainError(.invalidArgument, field: "role") {
                try household.store.createMembersLocally([NewMember(profile: profile("b@example.com"), password: testPassword, role: .owner)])
            }
            #expect(try household.store.listMembersLocally().count == before)
            let made = try household.store.createMembersLocally((0..<5).map { NewMember(profile: profile("m\($0)@example.com"), password: testPassword) })
            #expect(made.map(\.email) == (0..<5).map { "m\($0)@example.com" })
            #expect(Set(made.map(\.userID)).count == 5)
            #expect(try household.store.listMembersLocally().count == before + 5)
        }
    }
}
