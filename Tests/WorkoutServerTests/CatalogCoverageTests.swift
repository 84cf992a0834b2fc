import ServerTestSupport
import TestSupport
import Foundation
import SwiftProtobuf
import Testing
import WorkoutProtocol
import WorkoutServer

/// Every method of the catalog, called through a real connection on loopback, with its
/// success and its main error statuses.
@Suite("Catalog coverage over real connections, in plain TCP and in TLS")
struct CatalogCoverageTests {
    /// One call expected to fail: what is sent, and the status (and field) it must get.
    struct ErrorCase {
        var name: String
        var method: UInt32
        var body: [UInt8]
        var status: StatusCode
        var field: String? = nil

        init<Request, Response>(_ name: String, _ method: RPCMethod<Request, Response>, _ request: Request, _ status: StatusCode, field: String? = nil) {
            self.name = name
            self.method = method.number
            self.body = (try? request.serializedBytes()) ?? []
            self.status = status
            self.field = field
        }

        init(_ name: String, method: UInt32, body: [UInt8], _ status: StatusCode) {
            self.name = name
            self.method = method
            self.body = body
            self.status = status
        }
    }

    /// Sends each case on `connection` and checks its final frame.
    static func check(_ cases: [ErrorCase], on connection: TestConnection) throws {
        for item in cases {
            let id = try connection.sendRequest(method: item.method, body: item.body)
            let frame = try connection.finalFrame(of: id)
            let (status, details) = try TestConnection.status(of: frame)
            #expect(status == item.status, "\(item.name): got \(status.name) (\(details.message))")
            if let field = item.field {
                #expect(details.field == field, "\(item.name): field \(details.field)")
            }
            if status != .ok {
                #expect(!details.message.isEmpty, "\(item.name): a failure carries a message")
            }
        }
    }

    @Test("Every method that needs a session answers UNAUTHENTICATED without one, streams with a STREAM_END", arguments: [false, true])
    func unauthenticatedWithoutSession(tls: Bool) async throws {
        try await withServer(tls: tls) { _, _, port in
            try await blocking {
                let connection = try TestConnection(port: port)
                try connection.handshake()
                let methods = MethodCatalog.all.filter(\.needsSession)
                #expect(methods.count == 50)
                for method in methods {
                    let id = try connection.sendRequest(method: method.number, body: [])
                    let frame = try connection.finalFrame(of: id)
                    #expect(frame.status == .unauthenticated, "\(method.name): \(frame.status.name)")
                    #expect(frame.type == (method.isServerStreaming ? .streamEnd : .response), "\(method.name)")
                }
                // The connection is still usable.
                #expect(try connection.call(MethodCatalog.health, Workout_V1_HealthRequest()).serving)
            }
        }
    }

    @Test("Every admin method answers PERMISSION_DENIED to a member", arguments: [false, true])
    func permissionDeniedForMembers(tls: Bool) async throws {
        try await withServer(tls: tls) { _, _, port in
            try await blocking {
                let owner = try TestConnection.owner(port: port)
                let (member, _) = try TestConnection.member(port: port, invitedBy: owner, email: "mia@example.com")
                var invite = Workout_V1_CreateInviteRequest()
                invite.role = .member
                let made = try owner.call(MethodCatalog.createInvite, invite)
                var revoke = Workout_V1_RevokeInviteRequest()
                revoke.inviteID = made.invite.inviteID
                let ownerID = try owner.call(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).profile.userID
                var remove = Workout_V1_RemoveMemberRequest()
                remove.userID = ownerID
                var reset = Workout_V1_ResetPasswordRequest()
                reset.userID = ownerID
                reset.newPassword = "a brand new password"
                var mark = Workout_V1_MarkChildRequest()
                mark.userID = ownerID
                mark.child = true
                let cases = [
                    ErrorCase("CreateInvite", MethodCatalog.createInvite, invite, .permissionDenied),
                    ErrorCase("ListInvites", MethodCatalog.listInvites, Workout_V1_ListInvitesRequest(), .permissionDenied),
                    ErrorCase("RevokeInvite", MethodCatalog.revokeInvite, revoke, .permissionDenied),
                    ErrorCase("ListMembers", MethodCatalog.listMembers, Workout_V1_ListMembersRequest(), .permissionDenied),
                    ErrorCase("RemoveMember", MethodCatalog.removeMember, remove, .permissionDenied),
                    ErrorCase("ResetPassword", MethodCatalog.resetPassword, reset, .permissionDenied),
                    ErrorCase("Stats", MethodCatalog.stats, Workout_V1_StatsRequest(), .permissionDenied),
                    ErrorCase("MarkChild", MethodCatalog.markChild, mark, .permissionDenied),
                ]
                #expect(Set(cases.map(\.method)) == Set(MethodCatalog.all.filter(\.adminOnly).map(\.number)))
                try Self.check(cases, on: member)
                // Nothing happened: the invite is still active, the member still there.
                let invites = try owner.call(MethodCatalog.listInvites, Workout_V1_ListInvitesRequest())
                #expect(invites.invites.contains { $0.inviteID == made.invite.inviteID && $0.state == .active })
                #expect(try owner.call(MethodCatalog.listMembers, Workout_V1_ListMembersRequest()).members.count == 2)
            }
        }
    }

    @Test("Unknown methods, undecodable bodies, bad fields and other members' ids get their statuses and the connection stays open", arguments: [false, true])
    func callErrors(tls: Bool) async throws {
        try await withServer(tls: tls) { _, _, port in
            try await blocking {
                let owner = try TestConnection.owner(port: port)
                let (member, _) = try TestConnection.member(port: port, invitedBy: owner, email: "mia@example.com")
                let memberWorkout = workout()
                var log = Workout_V1_LogWorkoutRequest()
                log.workout = memberWorkout
                _ = try member.call(MethodCatalog.logWorkout, log)
                var logMeal = Workout_V1_LogMealRequest()
                logMeal.meal = meal()
                _ = try member.call(MethodCatalog.logMeal, logMeal)
                let memberSessions = try member.call(MethodCatalog.listSessions, Workout_V1_ListSessionsRequest())

                var badDuration = log
                badDuration.workout = workout()
                badDuration.workout.durationSeconds = 0
                var badZone = Workout_V1_UpdateProfileRequest()
                badZone.timeZone = "Mars/Olympus_Mons"
                var badItem = Workout_V1_LogMealRequest()
                badItem.meal = meal(items: 4)
                badItem.meal.items[3].calories = .nan
                var badPage = Workout_V1_WorkoutHistoryRequest()
                badPage.pageSize = 101
                var badSummary = Workout_V1_SummariesRequest()
                badSummary.fromDay = todayUTC()
                badSummary.toDay = todayUTC(offsetDays: -1)
                badSummary.granularity = .day
                var updateOthers = Workout_V1_UpdateWorkoutRequest()
                updateOthers.workout = memberWorkout
                var updateOthersMeal = Workout_V1_UpdateMealRequest()
                updateOthersMeal.meal = logMeal.meal
                var revokeOthers = Workout_V1_RevokeSessionRequest()
                revokeOthers.sessionID = memberSessions.sessions[0].sessionID
                var badID = Workout_V1_DeleteWorkoutRequest()
                badID.id = Data(repeating: 0, count: 16)
                var loginAgain = Workout_V1_LoginRequest()
                loginAgain.email = ownerEmail
                loginAgain.password = ownerPassword
                var changes = Workout_V1_ChangesRequest()
                changes.sinceRevision = 1_000_000
                var wrongPassword = Workout_V1_ChangePasswordRequest()
                wrongPassword.currentPassword = "not my password"
                wrongPassword.newPassword = "whatever it is now"
                var reusedID = log
                reusedID.workout = memberWorkout
                reusedID.workout.durationSeconds = 60

                try Self.check([
                    ErrorCase("unknown method", method: 9_999, body: [], .unimplemented),
                    ErrorCase("undecodable body", method: MethodCatalog.getProfile.number, body: [0x0A, 0x05, 0x01], .invalidArgument),
                    ErrorCase("undecodable write body", method: MethodCatalog.logWeight.number, body: [0xFF, 0xFF, 0xFF], .invalidArgument),
                    ErrorCase("workout duration 0", MethodCatalog.logWorkout, badDuration, .invalidArgument, field: "workout.duration_seconds"),
                    ErrorCase("unknown time zone", MethodCatalog.updateProfile, badZone, .invalidArgument, field: "time_zone"),
                    ErrorCase("NaN calories", MethodCatalog.logMeal, badItem, .invalidArgument, field: "meal.items[3].calories"),
                    ErrorCase("page size 101", MethodCatalog.workoutHistory, badPage, .invalidArgument, field: "page_size"),
                    ErrorCase("from_day after to_day", MethodCatalog.summaries, badSummary, .invalidArgument),
                    ErrorCase("all-zero id", MethodCatalog.deleteWorkout, badID, .invalidArgument, field: "id"),
                    ErrorCase("another member's workout", MethodCatalog.updateWorkout, updateOthers, .notFound),
                    ErrorCase("another member's meal", MethodCatalog.updateMeal, updateOthersMeal, .notFound),
                    ErrorCase("another member's session", MethodCatalog.revokeSession, revokeOthers, .notFound),
                    ErrorCase("login on a connection with a session", MethodCatalog.login, loginAgain, .failedPrecondition),
                    ErrorCase("changes from the future", MethodCatalog.changes, changes, .outOfRange),
                    ErrorCase("wrong current password", MethodCatalog.changePassword, wrongPassword, .permissionDenied, field: "current_password"),
                ], on: owner)
                // A body flagged COMPRESSED that is not a zlib stream.
                let id = try owner.sendRequest(method: MethodCatalog.logWeight.number, body: [0x78, 0x9C, 0x00], compressed: true)
                #expect(try owner.finalFrame(of: id).status == .invalidArgument)
                try Self.check([
                    ErrorCase("the same id with other content", MethodCatalog.logWorkout, reusedID, .alreadyExists, field: "workout.id"),
                ], on: member)
                // Deleting another member's id is a no-op, and their workout is intact.
                var deleteOthers = Workout_V1_DeleteWorkoutRequest()
                deleteOthers.id = memberWorkout.id
                #expect(try owner.call(MethodCatalog.deleteWorkout, deleteOthers).deleted == false)
                #expect(try member.call(MethodCatalog.workoutHistory, Workout_V1_WorkoutHistoryRequest()).workouts.map(\.id) == [memberWorkout.id])
                #expect(try owner.call(MethodCatalog.workoutHistory, Workout_V1_WorkoutHistoryRequest()).workouts.isEmpty)
            }
        }
    }

    @Test("Every method of the catalog succeeds on both faces, and Stats and DescribeCatalog account for all of them",
          arguments: [false, true], Face.allCases)
    func everyMethodSucceeds(tls: Bool, face: Face) async throws {
        try await withServer(tls: tls) { _, _, port in
            try await blocking {
                var called: Set<UInt32> = []
                func note<Request, Response>(_ method: RPCMethod<Request, Response>) { called.insert(method.number) }

                // Meta, without a session.
                let anonymous = try FaceClient(face, port: port)
                let health = try anonymous.call(MethodCatalog.health, Workout_V1_HealthRequest())
                #expect(health.serving && !health.serverVersion.isEmpty)
                note(MethodCatalog.health)
                let catalog = try anonymous.call(MethodCatalog.describeCatalog, Workout_V1_DescribeCatalogRequest())
                #expect(catalog.protocolVersion == 1)
                #expect(catalog.methods.map(\.number) == MethodCatalog.all.map(\.number))
                #expect(catalog.methods.map(\.name) == MethodCatalog.all.map(\.name))
                #expect(catalog.methods.filter(\.serverStreaming).map(\.number) == [701, 702])
                #expect(catalog.methods.filter(\.adminOnly).count == 8)
                note(MethodCatalog.describeCatalog)

                // Auth: the owner logs in, invites, a member registers and resumes on another device.
                var wrongLogin = Workout_V1_LoginRequest()
                wrongLogin.email = ownerEmail
                wrongLogin.password = "wrong password"
                #expect(try anonymous.status(MethodCatalog.login, wrongLogin).0 == .unauthenticated)
                let owner = try FaceClient.owner(face, port: port)
                note(MethodCatalog.login)
                var invite = Workout_V1_CreateInviteRequest()
                invite.role = .member
                invite.note = "for Mia"
                let created = try owner.call(MethodCatalog.createInvite, invite)
                #expect(!created.code.isEmpty && created.invite.state == .active)
                note(MethodCatalog.createInvite)
                let spare = try owner.call(MethodCatalog.createInvite, invite)
                var revoke = Workout_V1_RevokeInviteRequest()
                revoke.inviteID = spare.invite.inviteID
                #expect(try owner.call(MethodCatalog.revokeInvite, revoke).invite.state == .revoked)
                note(MethodCatalog.revokeInvite)
                var unknownInvite = revoke
                unknownInvite.inviteID = newID()
                #expect(try owner.status(MethodCatalog.revokeInvite, unknownInvite).0 == .notFound)

                let device1 = try FaceClient(face, port: port)
                #expect(try device1.status(MethodCatalog.register, registerRequest(code: spare.code, email: "mia@example.com", password: "member password 1")).0 == .unauthenticated)
                let registered = try device1.call(MethodCatalog.register, registerRequest(code: created.code, email: "mia@example.com", password: "member password 1"))
                #expect(registered.sessionToken.count == 32 && registered.profile.role == .member)
                note(MethodCatalog.register)
                #expect(try owner.status(MethodCatalog.revokeInvite, { var r = revoke; r.inviteID = created.invite.inviteID; return r }()).0 == .failedPrecondition)
                let listed = try owner.call(MethodCatalog.listInvites, { var r = Workout_V1_ListInvitesRequest(); r.includeInactive = true; return r }())
                #expect(listed.invites.count == 2 && listed.invites.allSatisfy { $0.state != .active })
                note(MethodCatalog.listInvites)

                let device2 = try FaceClient(face, port: port)
                var badResume = Workout_V1_ResumeRequest()
                badResume.sessionToken = Data(repeating: 7, count: 32)
                #expect(try device2.status(MethodCatalog.resume, badResume).0 == .unauthenticated)
                badResume.sessionToken = Data(repeating: 7, count: 5)
                #expect(try device2.status(MethodCatalog.resume, badResume).0 == .invalidArgument)
                var resume = Workout_V1_ResumeRequest()
                resume.sessionToken = registered.sessionToken
                let resumed = try device2.call(MethodCatalog.resume, resume)
                #expect(resumed.profile.userID == registered.profile.userID)
                note(MethodCatalog.resume)

                // A third session, then revoked from device 1.
                let device3 = try FaceClient.login(face, port: port, email: "mia@example.com", password: "member password 1")
                let sessions = try device1.call(MethodCatalog.listSessions, Workout_V1_ListSessionsRequest())
                #expect(sessions.sessions.count == 2)
                #expect(sessions.sessions.filter(\.current).map(\.sessionID) == [registered.session.sessionID])
                note(MethodCatalog.listSessions)
                let third = try device3.call(MethodCatalog.getProfile, Workout_V1_GetProfileRequest())
                #expect(third.profile.userID == registered.profile.userID)
                let thirdSession = try device3.call(MethodCatalog.listSessions, Workout_V1_ListSessionsRequest()).sessions.first(where: \.current)!
                var revokeSession = Workout_V1_RevokeSessionRequest()
                revokeSession.sessionID = thirdSession.sessionID
                _ = try device1.call(MethodCatalog.revokeSession, revokeSession)
                note(MethodCatalog.revokeSession)
                #expect(try device3.status(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).0 == .unauthenticated)

                // Device tokens.
                var makeToken = Workout_V1_CreateDeviceTokenRequest()
                makeToken.name = "Home Assistant"
                makeToken.scopes = [.read]
                let madeToken = try device1.call(MethodCatalog.createDeviceToken, makeToken)
                #expect(madeToken.token.count == 32 && madeToken.deviceToken.name == "Home Assistant")
                note(MethodCatalog.createDeviceToken)
                let tokens = try device1.call(MethodCatalog.listDeviceTokens, Workout_V1_ListDeviceTokensRequest())
                #expect(tokens.deviceTokens.map(\.tokenID) == [madeToken.deviceToken.tokenID])
                note(MethodCatalog.listDeviceTokens)
                var revokeToken = Workout_V1_RevokeDeviceTokenRequest()
                revokeToken.tokenID = madeToken.deviceToken.tokenID
                #expect(try device1.call(MethodCatalog.revokeDeviceToken, revokeToken).revoked)
                #expect(try device1.call(MethodCatalog.revokeDeviceToken, revokeToken).revoked == false)
                note(MethodCatalog.revokeDeviceToken)

                // Profile.
                let profile = try device1.call(MethodCatalog.getProfile, Workout_V1_GetProfileRequest())
                #expect(profile.profile.email == "mia@example.com")
                note(MethodCatalog.getProfile)
                var update = Workout_V1_UpdateProfileRequest()
                update.displayName = "Mia M."
                update.age = 34
                let updated = try device1.call(MethodCatalog.updateProfile, update)
                #expect(updated.profile.displayName == "Mia M." && updated.revision > profile.revision)
                note(MethodCatalog.updateProfile)
                var stale = update
                stale.displayName = "Mia"
                stale.expectedRevision = profile.revision
                #expect(try device1.status(MethodCatalog.updateProfile, stale).0 == .aborted)

                // Logging.
                var logWorkout = Workout_V1_LogWorkoutRequest()
                logWorkout.workout = workout()
                let logged = try device1.call(MethodCatalog.logWorkout, logWorkout)
                #expect(logged.totals.totalWorkouts == 1 && logged.unlocked.map(\.achievementID) == ["workout_1"])
                #expect(try device1.call(MethodCatalog.logWorkout, logWorkout).replayed)
                note(MethodCatalog.logWorkout)
                var updateWorkout = Workout_V1_UpdateWorkoutRequest()
                updateWorkout.workout = logWorkout.workout
                updateWorkout.workout.caloriesBurned = 450
                updateWorkout.expectedRevision = logged.workout.revision
                let updatedWorkout = try device1.call(MethodCatalog.updateWorkout, updateWorkout)
                #expect(updatedWorkout.totals.totalCaloriesBurned == 450)
                #expect(try device1.status(MethodCatalog.updateWorkout, updateWorkout).0 == .aborted)
                note(MethodCatalog.updateWorkout)
                var logMeal = Workout_V1_LogMealRequest()
                logMeal.meal = meal(items: 2)
                let loggedMeal = try device1.call(MethodCatalog.logMeal, logMeal)
                #expect(loggedMeal.meal.totals.calories == 201)
                note(MethodCatalog.logMeal)
                var updateMeal = Workout_V1_UpdateMealRequest()
                updateMeal.meal = logMeal.meal
                updateMeal.meal.items = Array(updateMeal.meal.items.prefix(1))
                #expect(try device1.call(MethodCatalog.updateMeal, updateMeal).meal.items.count == 1)
                note(MethodCatalog.updateMeal)
                let entry = weightEntry(kilograms: 61.5)
                let loggedWeight = try device1.call(MethodCatalog.logWeight, logWeight(entry))
                #expect(loggedWeight.entry.weightKg == 61.5 && loggedWeight.profileWeightUpdated)
                note(MethodCatalog.logWeight)
                var updateWeight = Workout_V1_UpdateWeightRequest()
                updateWeight.entry = entry
                updateWeight.entry.weightKg = 61.0
                updateWeight.expectedRevision = loggedWeight.entry.revision
                let updatedWeight = try device1.call(MethodCatalog.updateWeight, updateWeight)
                #expect(updatedWeight.entry.weightKg == 61.0 && updatedWeight.profileWeightKg == 61.0)
                #expect(try device1.status(MethodCatalog.updateWeight, updateWeight).0 == .aborted)
                note(MethodCatalog.updateWeight)
                var steps = Workout_V1_ReportStepsRequest()
                steps.report.day = today(in: "Europe/Berlin")
                steps.report.source = "phone"
                steps.report.steps = 4_321
                steps.report.reportedAtMs = nowMilliseconds()
                let reported = try device1.call(MethodCatalog.reportSteps, steps)
                #expect(reported.applied && reported.day.steps == 4_321)
                note(MethodCatalog.reportSteps)
                var importBatch = Workout_V1_ImportRecordsRequest()
                var replayedWorkout = Workout_V1_ImportRecord()
                replayedWorkout.workout = logWorkout.workout
                replayedWorkout.workout.caloriesBurned = 450
                var oldSteps = Workout_V1_ImportRecord()
                oldSteps.steps = steps.report
                oldSteps.steps.day.year -= 1
                oldSteps.steps.reportedAtMs -= 400 * 86_400_000
                importBatch.records = [replayedWorkout, oldSteps]
                let imported = try device1.call(MethodCatalog.importRecords, importBatch)
                #expect(imported.unchanged == 1 && imported.stepsReports == 1 && imported.workouts == 0)
                importBatch.records[1].steps.steps = 300_000
                let refusedImport = try device1.status(MethodCatalog.importRecords, importBatch)
                #expect(refusedImport.0 == .invalidArgument && refusedImport.1.field == "records[1].steps.steps")
                note(MethodCatalog.importRecords)

                // Queries.
                let history = try device1.call(MethodCatalog.workoutHistory, Workout_V1_WorkoutHistoryRequest())
                #expect(history.workouts.map(\.id) == [logWorkout.workout.id])
                note(MethodCatalog.workoutHistory)
                var mealsOfDay = Workout_V1_MealsOfDayRequest()
                mealsOfDay.day = utcDay(of: logMeal.meal.eatenAtMs)
                mealsOfDay.timeZone = "UTC"
                let meals = try device1.call(MethodCatalog.mealsOfDay, mealsOfDay)
                #expect(meals.meals.map(\.id) == [logMeal.meal.id] && meals.totals.calories == 100)
                note(MethodCatalog.mealsOfDay)
                var badMeals = mealsOfDay
                badMeals.timeZone = "Nowhere/Nothing"
                #expect(try device1.status(MethodCatalog.mealsOfDay, badMeals).0 == .invalidArgument)
                let weights = try device1.call(MethodCatalog.weightProgress, Workout_V1_WeightProgressRequest())
                #expect(weights.entries.map(\.id) == [entry.id])
                note(MethodCatalog.weightProgress)
                var summaries = Workout_V1_SummariesRequest()
                summaries.fromDay = todayUTC(offsetDays: -5)
                summaries.toDay = todayUTC(offsetDays: 1)
                summaries.granularity = .day
                let periods = try device1.call(MethodCatalog.summaries, summaries).periods
                #expect(periods.count == 7)
                #expect(periods.reduce(0) { $0 + $1.workouts } == 1)
                note(MethodCatalog.summaries)
                let achievements = try device1.call(MethodCatalog.achievements, Workout_V1_AchievementsRequest())
                #expect(achievements.achievements.contains { $0.achievementID == "workout_1" && $0.unlocked })
                note(MethodCatalog.achievements)
                let changes = try device1.call(MethodCatalog.changes, Workout_V1_ChangesRequest())
                #expect(changes.changes.contains { $0.workout.id == logWorkout.workout.id })
                #expect(!changes.hasMore_p)
                note(MethodCatalog.changes)

                // Goals: set twice (the second changes nothing), read, and today's progress.
                var setGoals = Workout_V1_SetGoalsRequest()
                setGoals.set.dailySteps = 4_000
                setGoals.set.energyKcal = 2_000
                let goalsSet = try device1.call(MethodCatalog.setGoals, setGoals)
                #expect(goalsSet.entry.goals.dailySteps == 4_000 && !goalsSet.unchanged)
                #expect(try device1.call(MethodCatalog.setGoals, setGoals).unchanged)
                note(MethodCatalog.setGoals)
                let goals = try device1.call(MethodCatalog.getGoals, Workout_V1_GetGoalsRequest())
                #expect(goals.goals.energyKcal == 2_000 && goals.history.count == 1 && !goals.child)
                note(MethodCatalog.getGoals)
                var progress = Workout_V1_ProgressRequest()
                progress.day = today(in: "Europe/Berlin")
                let standing = try device1.call(MethodCatalog.progress, progress)
                #expect(standing.day.goals.map(\.kind) == [.energy, .dailySteps])
                #expect(standing.day.goals.last?.met == true && standing.day.goals.last?.actual == 4_321)
                #expect(standing.week.days.count == 7 && standing.weight.hasTrend_p)
                note(MethodCatalog.progress)

                // Foods: add, log a meal from one, search, the member's foods, edit, delete.
                var oats = Workout_V1_Food()
                oats.id = newID()
                oats.name = "Rolled oats"
                oats.barcode = "4006381333931"
                oats.per100G.calories = 379
                oats.per100G.proteinG = 13
                oats.servings = [{ var s = Workout_V1_Serving(); s.name = "bowl"; s.grams = 60; return s }()]
                var addFoods = Workout_V1_AddFoodsRequest()
                addFoods.foods = [oats]
                #expect(try device1.call(MethodCatalog.addFoods, addFoods).foods.first?.revision == 1)
                #expect(try device1.call(MethodCatalog.addFoods, addFoods).replayed == 1)
                note(MethodCatalog.addFoods)
                var fromFood = Workout_V1_LogMealRequest()
                fromFood.meal = meal(items: 0)
                var oatsItem = Workout_V1_FoodItem()
                oatsItem.foodID = oats.id
                oatsItem.servings = 1
                fromFood.meal.items = [oatsItem]
                let loggedOats = try device1.call(MethodCatalog.logMeal, fromFood).meal
                #expect(loggedOats.items.first?.grams == 60 && abs((loggedOats.items.first?.calories ?? 0) - 227.4) < 1e-9)
                var search = Workout_V1_SearchFoodsRequest()
                search.query = "oat"
                #expect(try device1.call(MethodCatalog.searchFoods, search).foods.map(\.id) == [oats.id])
                note(MethodCatalog.searchFoods)
                let mine = try device1.call(MethodCatalog.myFoods, Workout_V1_MyFoodsRequest())
                #expect(mine.recent.map(\.id) == [oats.id] && mine.frequent.first?.timesLogged == 1)
                note(MethodCatalog.myFoods)
                var editFood = Workout_V1_UpdateFoodRequest()
                editFood.food = oats
                editFood.food.per100G.calories = 380
                #expect(try device1.call(MethodCatalog.updateFood, editFood).food.revision == 2)
                note(MethodCatalog.updateFood)
                var deleteFood = Workout_V1_DeleteFoodRequest()
                deleteFood.id = oats.id
                #expect(try owner.call(MethodCatalog.deleteFood, deleteFood).deleted)
                note(MethodCatalog.deleteFood)

                // Templates: save a breakfast, list, log it twice with one record id, delete.
                var saveTemplate = Workout_V1_SaveTemplateRequest()
                saveTemplate.template.id = newID()
                saveTemplate.template.name = "My breakfast"
                saveTemplate.template.meal = meal(items: 2)
                let savedTemplate = try device1.call(MethodCatalog.saveTemplate, saveTemplate).template
                #expect(savedTemplate.meal.items.count == 2 && savedTemplate.createdAtMs > 0)
                note(MethodCatalog.saveTemplate)
                #expect(try device1.call(MethodCatalog.listTemplates, Workout_V1_ListTemplatesRequest()).templates.map(\.name) == ["My breakfast"])
                note(MethodCatalog.listTemplates)
                var logTemplate = Workout_V1_LogTemplateRequest()
                logTemplate.templateID = savedTemplate.id
                logTemplate.recordID = newID()
                let fromTemplate = try device1.call(MethodCatalog.logTemplate, logTemplate)
                #expect(!fromTemplate.meal.replayed && fromTemplate.meal.meal.items == savedTemplate.meal.items)
                #expect(try device1.call(MethodCatalog.logTemplate, logTemplate).meal.replayed)
                note(MethodCatalog.logTemplate)
                var deleteTemplate = Workout_V1_DeleteTemplateRequest()
                deleteTemplate.id = savedTemplate.id
                #expect(try device1.call(MethodCatalog.deleteTemplate, deleteTemplate).deleted)
                note(MethodCatalog.deleteTemplate)

                // Household.
                let view = try device1.call(MethodCatalog.householdView, Workout_V1_HouseholdViewRequest())
                #expect(view.members.contains { $0.isYou && $0.totalWorkouts == 1 })
                note(MethodCatalog.householdView)

                // Deletes.
                var deleteWorkout = Workout_V1_DeleteWorkoutRequest()
                deleteWorkout.id = logWorkout.workout.id
                let deleted = try device1.call(MethodCatalog.deleteWorkout, deleteWorkout)
                #expect(deleted.deleted && deleted.totals.totalWorkouts == 0)
                #expect(try device1.call(MethodCatalog.deleteWorkout, deleteWorkout).deleted == false)
                note(MethodCatalog.deleteWorkout)
                #expect(try device1.status(MethodCatalog.logWorkout, logWorkout).0 == .alreadyExists)
                var deleteMeal = Workout_V1_DeleteMealRequest()
                deleteMeal.id = logMeal.meal.id
                #expect(try device1.call(MethodCatalog.deleteMeal, deleteMeal).deleted)
                note(MethodCatalog.deleteMeal)
                var deleteWeight = Workout_V1_DeleteWeightRequest()
                deleteWeight.id = entry.id
                #expect(try device1.call(MethodCatalog.deleteWeight, deleteWeight).deleted)
                note(MethodCatalog.deleteWeight)

                // Admin: members, password reset (revokes the member's sessions).
                let members = try owner.call(MethodCatalog.listMembers, Workout_V1_ListMembersRequest())
                #expect(Set(members.members.map(\.email)) == [ownerEmail, "mia@example.com"])
                note(MethodCatalog.listMembers)
                // Marking the member a child: the household's rules apply; the owner cannot be one.
                var mark = Workout_V1_MarkChildRequest()
                mark.userID = registered.profile.userID
                mark.child = true
                let marked = try owner.call(MethodCatalog.markChild, mark)
                #expect(marked.member.child && marked.member.markedChild && !marked.unchanged)
                #expect(try owner.call(MethodCatalog.markChild, mark).unchanged)
                mark.child = false
                #expect(try !owner.call(MethodCatalog.markChild, mark).member.child)
                note(MethodCatalog.markChild)
                mark.userID = members.members.first { $0.email == ownerEmail }!.userID
                #expect(try owner.status(MethodCatalog.markChild, mark).0 == .failedPrecondition)
                var reset = Workout_V1_ResetPasswordRequest()
                reset.userID = registered.profile.userID
                reset.newPassword = "short"
                #expect(try owner.status(MethodCatalog.resetPassword, reset).0 == .invalidArgument)
                reset.newPassword = "member password 2"
                #expect(try owner.call(MethodCatalog.resetPassword, reset).revokedSessions == 1)
                note(MethodCatalog.resetPassword)
                #expect(try device1.status(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).0 == .unauthenticated)
                #expect(try device2.status(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).0 == .unauthenticated)
                var resetOwn = reset
                resetOwn.userID = members.members.first { $0.email == ownerEmail }!.userID
                #expect(try owner.status(MethodCatalog.resetPassword, resetOwn).0 == .failedPrecondition)

                // The member again: change password, log out.
                let device4 = try FaceClient.login(face, port: port, email: "mia@example.com", password: "member password 2")
                var change = Workout_V1_ChangePasswordRequest()
                change.currentPassword = "member password 2"
                change.newPassword = "member password 3"
                #expect(try device4.call(MethodCatalog.changePassword, change).revokedSessions == 0)
                note(MethodCatalog.changePassword)
                _ = try device4.call(MethodCatalog.logout, Workout_V1_LogoutRequest())
                note(MethodCatalog.logout)
                #expect(try device4.status(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).0 == .unauthenticated)

                // The member deletes their account; the owner may not delete theirs (only admin).
                let device5 = try FaceClient.login(face, port: port, email: "mia@example.com", password: "member password 3")
                var deleteAccount = Workout_V1_DeleteAccountRequest()
                deleteAccount.password = "wrong password!"
                #expect(try device5.status(MethodCatalog.deleteAccount, deleteAccount).0 == .permissionDenied)
                deleteAccount.password = "member password 3"
                _ = try device5.call(MethodCatalog.deleteAccount, deleteAccount)
                note(MethodCatalog.deleteAccount)
                #expect(try device5.status(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).0 == .unauthenticated)
                deleteAccount.password = ownerPassword
                let ownerDelete = try owner.status(MethodCatalog.deleteAccount, deleteAccount)
                #expect(ownerDelete.0 == .failedPrecondition, "\(ownerDelete.0.name): \(ownerDelete.1.message)")

                // A second member, removed by the owner.
                let (other, otherRegistered) = try FaceClient.member(face, port: port, invitedBy: owner, email: "max@example.com")
                var remove = Workout_V1_RemoveMemberRequest()
                remove.userID = otherRegistered.profile.userID
                _ = try owner.call(MethodCatalog.removeMember, remove)
                note(MethodCatalog.removeMember)
                #expect(try owner.status(MethodCatalog.removeMember, remove).0 == .notFound)
                #expect(try other.status(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).0 == .unauthenticated)
                #expect(try owner.call(MethodCatalog.listMembers, Workout_V1_ListMembersRequest()).members.map(\.email) == [ownerEmail])

                // Streams (their content is checked in the tests below).
                let (firstEvent, watchEnd) = try owner.watchFirstEventThenEnd()
                #expect(firstEvent.revision > 0)
                #expect(watchEnd == (face == .binary ? .cancelled : .deadlineExceeded))
                note(MethodCatalog.watch)
                #expect(try owner.exportStatus() == .ok)
                note(MethodCatalog.export)

                // Stats counts every call so far, by method and status.
                let stats = try owner.call(MethodCatalog.stats, Workout_V1_StatsRequest())
                note(MethodCatalog.stats)
                #expect(called == Set(MethodCatalog.all.map(\.number)), "not called: \(Set(MethodCatalog.all.map(\.number)).subtracting(called).sorted())")
                let byMethod = Dictionary(uniqueKeysWithValues: stats.methods.map { ($0.method, $0) })
                for method in MethodCatalog.all where method.number != MethodCatalog.stats.number {
                    let counted = byMethod[method.number]
                    #expect((counted?.calls ?? 0) >= 1, "\(method.name) not counted")
                    #expect(counted?.name == method.name)
                    #expect(counted?.statuses.reduce(0) { $0 + $1.count } == counted?.calls)
                }
                #expect(byMethod[MethodCatalog.login.number]?.statuses.contains { $0.code == .unauthenticated && $0.count >= 1 } == true)
                #expect(byMethod[MethodCatalog.getProfile.number]?.statuses.contains { $0.code == .unauthenticated && $0.count >= 4 } == true)
                #expect(byMethod[MethodCatalog.logWorkout.number]?.calls == 3)
                #expect(stats.acceptedConnections >= 8 && stats.openConnections >= 1)
                #expect(stats.members == 1 && stats.commits >= 1 && stats.storeSizeBytes > 0)
                #if os(Linux)
                // The process's own figures: CPU used so far, and memory in RAM.
                #expect(stats.processCpuUs > 0)
                #expect(stats.rssAnonBytes > 1 << 20 && stats.rssBytes >= stats.rssAnonBytes)
                #endif
            }
        }
    }

    @Test("Watch sends the backlog up to caught_up, then a live event when another connection of the member logs a workout", arguments: [false, true])
    func watchCatchUpThenLive(tls: Bool) async throws {
        try await withServer(tls: tls) { _, _, port in
            try await blocking {
                let watcher = try TestConnection.owner(port: port)
                let phone = try TestConnection.owner(port: port)
                var early = Workout_V1_LogWorkoutRequest()
                early.workout = workout()
                let earlyLogged = try phone.call(MethodCatalog.logWorkout, early)
                var stepsGoal = Workout_V1_SetGoalsRequest()
                stepsGoal.set.dailySteps = 5_000
                _ = try phone.call(MethodCatalog.setGoals, stepsGoal)

                let watch = try watcher.sendRequest(MethodCatalog.watch, Workout_V1_WatchRequest())
                var backlog: [Workout_V1_WatchEvent] = []
                for _ in 0..<100 {
                    let frame = try watcher.readFrame { $0.callID == watch }
                    #expect(frame.type == .streamMessage)
                    guard frame.type == .streamMessage else { break }
                    backlog.append(try Workout_V1_WatchEvent(serializedBytes: frame.decodedBody(maxDecompressedSize: 1 << 24)))
                    if backlog.last!.caughtUp { break }
                }
                #expect(backlog.last?.caughtUp == true)
                #expect(backlog.dropLast().allSatisfy { !$0.caughtUp })
                let backlogChanges = backlog.flatMap(\.changes)
                #expect(backlogChanges.contains { $0.workout.id == early.workout.id })
                #expect(backlog.last?.revision ?? 0 >= earlyLogged.workout.revision)

                var live = Workout_V1_LogWorkoutRequest()
                live.workout = workout(type: "swim")
                let liveLogged = try phone.call(MethodCatalog.logWorkout, live)
                var seen: [Workout_V1_WatchEvent] = []
                for _ in 0..<20 {
                    let frame = try watcher.readFrame { $0.callID == watch }
                    #expect(frame.type == .streamMessage)
                    guard frame.type == .streamMessage else { break }
                    let event = try Workout_V1_WatchEvent(serializedBytes: frame.decodedBody(maxDecompressedSize: 1 << 24))
                    seen.append(event)
                    if event.changes.contains(where: { $0.workout.id == live.workout.id }) { break }
                }
                let event = seen.last
                #expect(event?.changes.contains { $0.workout.id == live.workout.id } == true)
                #expect(event?.caughtUp == false)
                #expect(event?.totals.totalWorkouts == 2)
                #expect(event?.revision ?? 0 >= liveLogged.workout.revision)
                #expect(seen.flatMap(\.changes).allSatisfy { $0.revision > backlog.last!.revision })
                // Today's ring: in the first event (5,000 steps to go), then again when steps change it.
                #expect(backlog.first?.today.goals.map(\.kind) == [.dailySteps] && backlog.first?.today.goals.first?.actual == 0)
                var walked = Workout_V1_ReportStepsRequest()
                walked.report.day = today(in: "Europe/Berlin")
                walked.report.source = "phone"
                walked.report.steps = 6_000
                walked.report.reportedAtMs = nowMilliseconds()
                _ = try phone.call(MethodCatalog.reportSteps, walked)
                var ring: Workout_V1_DayProgress?
                for _ in 0..<20 where ring == nil {
                    let frame = try watcher.readFrame { $0.callID == watch }
                    guard frame.type == .streamMessage else { break }
                    let event = try Workout_V1_WatchEvent(serializedBytes: frame.decodedBody(maxDecompressedSize: 1 << 24))
                    if event.hasToday { ring = event.today }
                }
                #expect(ring?.goals.first?.actual == 6_000 && ring?.goals.first?.met == true, "\(String(describing: ring))")

                // A Watch from the future is OUT_OF_RANGE, before any message.
                var future = Workout_V1_WatchRequest()
                future.sinceRevision = 1_000_000
                let late = try phone.sendRequest(MethodCatalog.watch, future)
                let ended = try phone.readFrame { $0.callID == late }
                #expect(ended.type == .streamEnd && ended.status == .outOfRange)

                try watcher.cancel(watch)
                let end = try watcher.finalFrame(of: watch)
                #expect(end.type == .streamEnd && end.status == .cancelled)
            }
        }
    }

    /// Chunks are cut to the frame size the client announced (PROTOCOL.md 22): a 64 KiB client
    /// gets ~400 KB of meals in chunks that fit, not RESOURCE_EXHAUSTED.
    @Test("Export streams chunks (the first with the profile) that fit the client's frames, then STREAM_END OK",
          arguments: [(UInt32(0), false), (65_536, false), (65_536, true)])
    func exportStreamsChunks(clientMaxFrameSize: UInt32, tls: Bool) async throws {
        let frameLimit = clientMaxFrameSize == 0 ? 256 << 10 : Int(clientMaxFrameSize)
        try await withServer(tls: tls) { _, _, port in
            try await blocking {
                let owner = try TestConnection.owner(port: port, acceptsCompressed: false, maxFrameSize: clientMaxFrameSize)
                var ids: Set<Data> = []
                var calls: [UInt32] = []
                for index in 0..<40 {
                    var request = Workout_V1_LogMealRequest()
                    request.meal = meal(items: 100, at: nowMilliseconds() - 3_600_000 - Int64(index) * 60_000)
                    ids.insert(request.meal.id)
                    calls.append(try owner.sendRequest(MethodCatalog.logMeal, request))
                }
                var logWorkout = Workout_V1_LogWorkoutRequest()
                logWorkout.workout = workout()
                calls.append(try owner.sendRequest(MethodCatalog.logWorkout, logWorkout))
                // Writes complete in any order: wait for every one before exporting.
                for call in calls { #expect(try owner.finalFrame(of: call).status == .ok) }

                let export = try owner.sendRequest(MethodCatalog.export, Workout_V1_ExportRequest())
                var chunks: [Workout_V1_ExportChunk] = []
                var end: Frame?
                for _ in 0..<1_000 {
                    let frame = try owner.readFrame { $0.callID == export }
                    if frame.type == .streamEnd {
                        end = frame
                        break
                    }
                    #expect(frame.type == .streamMessage)
                    #expect(frame.payloadLength <= frameLimit)
                    chunks.append(try Workout_V1_ExportChunk(serializedBytes: frame.decodedBody(maxDecompressedSize: 1 << 24)))
                }
                #expect(end?.status == .ok && end?.body.isEmpty == true)
                #expect(chunks.count >= 2)
                #expect(chunks.first?.profile.email == ownerEmail)
                #expect(chunks.first?.totals.totalWorkouts == 1)
                #expect(Set(chunks.flatMap(\.meals).map(\.id)) == ids)
                #expect(chunks.flatMap(\.meals).allSatisfy { $0.items.count == 100 })
                #expect(chunks.flatMap(\.workouts).map(\.id) == [logWorkout.workout.id])
            }
        }
    }
}
