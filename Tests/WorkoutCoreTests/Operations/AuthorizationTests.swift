import Foundation
import Testing
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

/// A member reads and changes only their own records; sessions that ended stop working;
/// admin operations need an admin; admins manage accounts, not logs.
@Suite("Authorization")
struct AuthorizationTests {
    /// Everything of `member` a query can show, for before/after comparisons.
    static func snapshot(_ store: HouseholdStore, _ member: Member) throws -> [Data] {
        let chunks = try store.export(member.caller)
        var all: [Data] = try chunks.map { try $0.serializedData() }
        all.append(try store.profile(member).serializedData())
        all += try store.allChanges(member).changes.map { try $0.serializedData() }
        return all
    }

    @Test("A member can never read or change another member's records through any operation")
    func isolation() async throws {
        try await withHousehold { household in
            let store = household.store
            let mine = try await household.addMember("Pia")
            let theirs = try await household.addMember("Quinn")
            let myHistory = try await store.fillHistory(mine, household.clock, days: 3)
            let theirHistory = try await store.fillHistory(theirs, household.clock, days: 4)
            let theirBefore = try Self.snapshot(store, theirs)
            let at = household.clock.nowMilliseconds() - 60_000

            // Updates of their ids: not found. Deletes: nothing deleted.
            for id in theirHistory.workouts {
                await expectDomainError(.notFound) { try await store.update(mine, workout(id: id, at: at)) }
                #expect(try await store.deleteWorkout(mine, id: id).deleted == false)
            }
            for id in theirHistory.meals {
                var request = Workout_V1_UpdateMealRequest()
                request.meal = meal(id: id, at: at)
                await expectDomainError(.notFound) { try await store.updateMeal(mine.caller, request) }
                #expect(try await store.deleteMeal(mine, id: id).deleted == false)
            }
            for id in theirHistory.weights {
                #expect(try await store.deleteWeight(mine, id: id).deleted == false)
            }
            // Their session ids cannot be revoked by me.
            for session in try store.listSessions(theirs.caller) {
                var request = Workout_V1_RevokeSessionRequest()
                request.sessionID = session.sessionID
                await expectDomainError(.notFound) { try await store.revokeSession(mine.caller, request) }
            }
            // Logging with their ids makes records of mine (ids are per member); theirs stay as they were.
            try await store.log(mine, workout(id: theirHistory.workouts[0], at: at, calories: 1))
            try await store.log(mine, meal(id: theirHistory.meals[0], at: at))
            try await store.log(mine, weightEntry(id: theirHistory.weights[0], kg: 50, at: at))
            // Their deleted ids are not tombstones of mine.
            try await store.log(mine, workout(id: theirHistory.deleted[0], at: at - 1))
            // Steps of the same day and source are mine only.
            try await store.report(mine, stepsReport(day: LocalDay.containing(instant: at, in: TimeZone(identifier: "UTC")!), source: "phone", steps: 1, reportedAt: at + 1))
            #expect(try Self.snapshot(store, theirs) == theirBefore)

            // A forged caller (my token, their id, or their session id) is turned away.
            let forgeries = [
                Caller(userID: theirs.userID, sessionID: mine.caller.sessionID, tokenDigest: mine.caller.tokenDigest),
                Caller(userID: theirs.userID, sessionID: theirs.caller.sessionID, tokenDigest: mine.caller.tokenDigest),
                Caller(userID: mine.userID, sessionID: mine.caller.sessionID, tokenDigest: theirs.caller.tokenDigest),
            ]
            for forged in forgeries {
                await expectDomainError(.unauthenticated) { try store.getProfile(forged) }
                await expectDomainError(.unauthenticated) { try store.export(forged) }
                var history = Workout_V1_WorkoutHistoryRequest()
                history.pageSize = 100
                await expectDomainError(.unauthenticated) { try store.workoutHistory(forged, history) }
                await expectDomainError(.unauthenticated) { try await store.deleteWorkout(forged, .with { $0.id = theirHistory.workouts[1] }) }
            }
            #expect(try Self.snapshot(store, theirs) == theirBefore)

            // Their page tokens, played into my queries, are refused: they are bound to their member.
            let theirPage = try store.workoutHistory(theirs.caller, .with { $0.pageSize = 1 })
            let theirWeights = try store.weightProgress(theirs.caller, .with { $0.pageSize = 1 })
            #expect(!theirPage.nextPageToken.isEmpty && !theirWeights.nextPageToken.isEmpty)
            await expectDomainError(.invalidArgument, field: "page_token") {
                try store.workoutHistory(mine.caller, .with { $0.pageToken = theirPage.nextPageToken })
            }
            await expectDomainError(.invalidArgument, field: "page_token") {
                try store.weightProgress(mine.caller, .with { $0.pageToken = theirWeights.nextPageToken })
            }

            // Every query answers with my records only.
            let myWorkoutIDs = Set(myHistory.workouts + [theirHistory.workouts[0], theirHistory.deleted[0]])
            #expect(Set(try store.allWorkouts(mine).map(\.id)) == myWorkoutIDs)
            #expect(Set(try store.allWeights(mine).map(\.id)) == Set(myHistory.weights + [theirHistory.weights[0]]))
            var mealIDs = Set<Data>()
            var day = LocalDay.containing(instant: household.clock.nowMilliseconds(), in: TimeZone(identifier: "Europe/Berlin")!)
            for _ in 0..<8 {
                var request = Workout_V1_MealsOfDayRequest()
                request.day = day.wire
                for meal in try store.mealsOfDay(mine.caller, request).meals { mealIDs.insert(meal.id) }
                day = day.adding(days: -1)
            }
            #expect(mealIDs == Set(myHistory.meals + [theirHistory.meals[0]]))
            let export = try store.export(mine.caller)
            #expect(Set(export.flatMap(\.workouts).map(\.id)) == myWorkoutIDs)
            #expect(export.first?.profile.userID == mine.userID.data)
            for change in try store.allChanges(mine).changes {
                switch change.item {
                case .workout(let workout): #expect(myWorkoutIDs.contains(workout.id))
                case .profile(let profile): #expect(profile.userID == mine.userID.data)
                case .deleted(let tombstone): #expect(myHistory.deleted.contains(tombstone.id))
                default: break
                }
            }
            var summaries = Workout_V1_SummariesRequest()
            summaries.fromDay = day.wire
            summaries.toDay = day.adding(days: 9).wire
            let mySummary = try store.summaries(mine.caller, summaries).periods
            #expect(mySummary.map(\.workouts).reduce(0, +) == UInt32(myWorkoutIDs.count))
        }
    }

    @Test("An expired session is unauthenticated everywhere, and Resume cannot revive it")
    func expiredSession() async throws {
        try await withHousehold(configure: { $0.sessionLifetimeMilliseconds = 3_600_000 }) { household in
            let store = household.store
            let member = try await household.addMember("Rae")
            var today = Workout_V1_MealsOfDayRequest()
            today.day = LocalDay.containing(instant: household.clock.nowMilliseconds(), in: TimeZone(identifier: "UTC")!).wire
            household.clock.advance(by: 3_599_999)
            #expect(try store.profile(member).profile.userID == member.userID.data)
            #expect(try store.mealsOfDay(member.caller, today).meals.isEmpty)
            #expect(try store.workoutHistory(member.caller, Workout_V1_WorkoutHistoryRequest()).workouts.isEmpty)
            #expect(try store.weightProgress(member.caller, Workout_V1_WeightProgressRequest()).entries.isEmpty)
            household.clock.advance(by: 1)
            await expectDomainError(.unauthenticated) { try store.getProfile(member.caller) }
            await expectDomainError(.unauthenticated) { try store.mealsOfDay(member.caller, today) }
            await expectDomainError(.unauthenticated) { try store.workoutHistory(member.caller, Workout_V1_WorkoutHistoryRequest()) }
            await expectDomainError(.unauthenticated) { try store.weightProgress(member.caller, Workout_V1_WeightProgressRequest()) }
            await expectDomainError(.unauthenticated) { try store.listSessions(member.caller) }
            await expectDomainError(.unauthenticated) { try await store.log(member, workout(at: household.clock.nowMilliseconds())) }
            await expectDomainError(.unauthenticated) { try store.achievements(member.caller) }
            var resume = Workout_V1_ResumeRequest()
            resume.sessionToken = Data(member.token)
            await expectDomainError(.unauthenticated) { try await store.resume(resume) }
            // Resume before expiry slides it.
            let fresh = try await household.login(member)
            household.clock.advance(by: 3_000_000)
            resume.sessionToken = Data(fresh.token)
            let resumed = try await store.resume(resume)
            #expect(resumed.session.expiresAtMs == household.clock.nowMilliseconds() + 3_600_000)
            household.clock.advance(by: 3_000_000)
            #expect(try store.profile(fresh).profile.userID == member.userID.data)
        }
    }

    /// Ways a session ends.
    enum Ending: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case logout, revokedFromAnotherDevice, passwordChangedElsewhere, passwordResetByAdmin
        var testDescription: String { rawValue }
    }

    @Test("A logged-out or revoked session is unauthenticated", arguments: Ending.allCases)
    func revokedSession(_ ending: Ending) async throws {
        try await withHousehold { household in
            let store = household.store
            let phone = try await household.addMember("Sam")
            let laptop = try await household.login(phone, device: "laptop")
            switch ending {
            case .logout:
                try await store.logout(phone.caller)
            case .revokedFromAnotherDevice:
                var request = Workout_V1_RevokeSessionRequest()
                request.sessionID = phone.caller.sessionID.data
                try await store.revokeSession(laptop.caller, request)
            case .passwordChangedElsewhere:
                var request = Workout_V1_ChangePasswordRequest()
                request.currentPassword = testPassword
                request.newPassword = "another long password"
                #expect(try await store.changePassword(laptop.caller, request) == 1)
            case .passwordResetByAdmin:
                var request = Workout_V1_ResetPasswordRequest()
                request.userID = phone.userID.data
                request.newPassword = "reset by the owner"
                #expect(try await store.resetPassword(household.owner.caller, request) == 2)
            }
            await expectDomainError(.unauthenticated) { try store.getProfile(phone.caller) }
            var today = Workout_V1_MealsOfDayRequest()
            today.day = LocalDay.containing(instant: household.clock.nowMilliseconds(), in: TimeZone(identifier: "UTC")!).wire
            await expectDomainError(.unauthenticated) { try store.mealsOfDay(phone.caller, today) }
            // A session's token presented as another member: the session is not theirs.
            let forged = Caller(userID: household.owner.userID, sessionID: laptop.caller.sessionID, tokenDigest: laptop.caller.tokenDigest)
            await expectDomainError(.unauthenticated) { try store.mealsOfDay(forged, today) }
            await expectDomainError(.unauthenticated) { try store.workoutHistory(forged, Workout_V1_WorkoutHistoryRequest()) }
            await expectDomainError(.unauthenticated) { try store.workoutHistory(phone.caller, Workout_V1_WorkoutHistoryRequest()) }
            await expectDomainError(.unauthenticated) { try await store.log(phone, workout(at: household.clock.nowMilliseconds())) }
            await expectDomainError(.unauthenticated) { try store.validate(phone.caller) }
            var resume = Workout_V1_ResumeRequest()
            resume.sessionToken = Data(phone.token)
            await expectDomainError(.unauthenticated) { try await store.resume(resume) }
            if ending == .passwordResetByAdmin {
                await expectDomainError(.unauthenticated) { try store.getProfile(laptop.caller) }
            } else {
                #expect(try store.profile(laptop).profile.userID == phone.userID.data)
                #expect(try store.listSessions(laptop.caller).count == 1)
            }
        }
    }

    /// The admin operations, each called by a plain member.
    enum AdminOperation: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case createInvite, listInvites, revokeInvite, listMembers, removeMember, resetPassword
        var testDescription: String { rawValue }
    }

    @Test("A member calling an admin operation gets PERMISSION_DENIED", arguments: AdminOperation.allCases)
    func adminOperationsNeedAnAdmin(_ operation: AdminOperation) async throws {
        try await withHousehold { household in
            let store = household.store
            let member = try await household.addMember("Tom")
            let victim = try await household.addMember("Uma")
            var invite = Workout_V1_CreateInviteRequest()
            invite.role = .member
            let existing = try await store.createInvite(household.owner.caller, invite).invite
            await expectDomainError(.permissionDenied) {
                switch operation {
                case .createInvite: _ = try await store.createInvite(member.caller, invite)
                case .listInvites: _ = try store.listInvites(member.caller, .init())
                case .revokeInvite: _ = try await store.revokeInvite(member.caller, .with { $0.inviteID = existing.inviteID })
                case .listMembers: _ = try store.listMembers(member.caller)
                case .removeMember: try await store.removeMember(member.caller, .with { $0.userID = victim.userID.data })
                case .resetPassword:
                    _ = try await store.resetPassword(member.caller, .with {
                        $0.userID = victim.userID.data
                        $0.newPassword = "taken over!"
                    })
                }
            }
            // Nothing happened.
            #expect(try store.profile(victim).profile.userID == victim.userID.data)
            #expect(try store.listInvites(household.owner.caller, .init()).map(\.inviteID) == [existing.inviteID])
        }
    }

    @Test("Admins manage accounts but see no member's records; the household view shows only what members share")
    func adminsSeeNoLogs() async throws {
        try await withHousehold { household in
            let store = household.store
            let admin = try await household.addMember("Vic", role: .admin)
            let sharing = try await household.addMember("Wen", share: true)
            let private_ = try await household.addMember("Xia", share: false)
            let history = try await store.fillHistory(private_, household.clock, days: 3)
            var optOut = Workout_V1_UpdateProfileRequest()
            optOut.shareWithHousehold = false
            _ = try await store.updateProfile(private_.caller, optOut)
            try await store.log(sharing, workout(at: household.clock.nowMilliseconds() - 1_000))

            for caller in [household.owner.caller, admin.caller] {
                let members = try store.listMembers(caller)
                #expect(members.count == 4)
                for info in members {
                    let bytes = try info.serializedData()
                    for id in history.workouts + history.meals + history.weights {
                        #expect(!bytes.withUnsafeBytes { occurs(Array(id), in: $0) })
                    }
                    #expect(!bytes.withUnsafeBytes { occurs(Array("private note".utf8), in: $0) })
                }
                // No operation takes another member's id to read records: the admin's own queries show the admin's own.
                #expect(try store.export(caller).flatMap(\.workouts).isEmpty)
            }
            // Admins (not the owner) cannot manage the owner or other admins.
            let otherAdmin = try await household.addMember("Yan", role: .admin)
            await expectDomainError(.permissionDenied) { try await store.removeMember(admin.caller, .with { $0.userID = otherAdmin.userID.data }) }
            await expectDomainError(.permissionDenied) { try await store.removeMember(admin.caller, .with { $0.userID = household.owner.userID.data }) }
            await expectDomainError(.permissionDenied) {
                try await store.resetPassword(admin.caller, .with {
                    $0.userID = household.owner.userID.data
                    $0.newPassword = "owner takeover"
                })
            }
            await expectDomainError(.permissionDenied) {
                try await store.createInvite(admin.caller, .with { $0.role = .admin })
            }
            // The household view: the caller and those who share; totals only.
            let view = try store.householdView(sharing.caller)
            #expect(Set(view.map(\.userID)) == [sharing.userID.data])
            #expect(view.first?.isYou == true)
            #expect(view.first?.totalWorkouts == 1)
            let privateView = try store.householdView(private_.caller)
            #expect(Set(privateView.map(\.userID)) == [sharing.userID.data, private_.userID.data])
        }
    }
}
