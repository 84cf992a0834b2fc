import ClientTestSupport
import Foundation
import ServerTestSupport
import TestSupport
import Testing
import WorkoutClient

/// Every call of the typed API, through the real client, the real server and the real store.
@Suite("Client API, end to end")
struct ClientAPITests {
    /// An invite from `admin`, and a new member registered with it on a client of their own.
    private func newMember(_ live: LiveServer, admin: WorkoutClient, email: String) async throws -> (WorkoutClient, SignedIn) {
        let invite = try await admin.createInvite(role: .member, expiresIn: .seconds(3_600), note: email)
        let client = live.client(device: "\(email) phone")
        let member = NewMember(email: email, firstName: "Mia", timeZone: "Europe/Berlin", shareWithHousehold: true)
        let signedIn = try await client.register(inviteCode: invite.code, member: member, password: "member password 1")
        return (client, signedIn)
    }

    @Test("meta, auth and profile calls")
    func authAndProfile() async throws {
        try await LiveServer.run { live in
            let owner = live.client()
            let health = try await owner.health()
            #expect(health.isServing)

            #expect(await failure { _ = try await owner.login(email: ownerEmail, password: "wrong password!!") }?.code == .unauthenticated)
            let signedIn = try await owner.login(email: ownerEmail, password: ownerPassword)
            #expect(signedIn.profile.email == ownerEmail)
            #expect(signedIn.profile.role == .owner)
            #expect(owner.sessionToken == signedIn.token)

            let snapshot = try await owner.profile()
            #expect(snapshot.profile.firstName == "Olga")
            var update = ProfileUpdate()
            update.displayName = "Oma"
            update.heightCm = 168
            let updated = try await owner.updateProfile(update)
            #expect(updated.profile.displayName == "Oma")
            #expect(updated.profile.heightCm == 168)
            #expect(updated.revision > snapshot.revision)
            var stale = ProfileUpdate()
            stale.displayName = "nope"
            stale.expectedRevision = snapshot.revision
            #expect(await failure { _ = try await owner.updateProfile(stale) }?.code == .aborted)

            // A second device: sessions, revoking it, changing the password.
            let phone = live.client(device: "phone")
            _ = try await phone.login(email: ownerEmail, password: ownerPassword)
            let sessions = try await owner.sessions()
            #expect(sessions.count == 2)
            #expect(sessions.filter(\.isCurrent).count == 1)
            let phoneSession = try #require(sessions.first { !$0.isCurrent })
            #expect(phoneSession.deviceName == "phone")
            try await owner.revokeSession(phoneSession.id)
            #expect(await failure { _ = try await phone.profile() }?.code == .unauthenticated)

            let tablet = live.client(device: "tablet")
            _ = try await tablet.login(email: ownerEmail, password: ownerPassword)
            #expect(try await owner.changePassword(current: ownerPassword, new: "a brand new password") == 1)
            #expect(await failure { _ = try await tablet.profile() }?.code == .unauthenticated)

            try await owner.logout()
            #expect(owner.sessionToken == nil)
            #expect(await failure { _ = try await owner.profile() }?.code == .unauthenticated)
            _ = try await owner.login(email: ownerEmail, password: "a brand new password")
            #expect(try await owner.profile().profile.displayName == "Oma")
            owner.close()
            phone.close()
            tablet.close()
        }
    }

    @Test("logging, queries and sync calls")
    func loggingAndQueries() async throws {
        try await LiveServer.run { live in
            let client = live.client()
            _ = try await client.login(email: ownerEmail, password: ownerPassword)
            let start = try await client.profile().revision
            let berlin = TimeZone(identifier: "Europe/Berlin")!
            let today = LocalDate.today(in: berlin)
            let hourAgo = Date().addingTimeInterval(-3_600)

            // Workouts: log, replay, update, delete.
            let run = Workout(type: "run", durationSeconds: 1_800, caloriesBurned: 320, exercisesCompleted: 1, performedAt: hourAgo)
            let logged = try await client.logWorkout(run)
            #expect(!logged.replayed)
            #expect(logged.totals.points >= 50)
            #expect(logged.unlocked.contains { $0.id == "workout_1" })
            let replay = try await client.logWorkout(run)
            #expect(replay.replayed)
            #expect(replay.totals.points == logged.totals.points)
            var longer = logged.workout
            longer.durationSeconds = 2_400
            let updated = try await client.updateWorkout(longer, expectedRevision: logged.workout.revision)
            #expect(updated.workout.durationSeconds == 2_400)
            let second = try await client.logWorkout(Workout(type: "yoga", durationSeconds: 600, performedAt: hourAgo.addingTimeInterval(-600)))

            let history = try await client.workoutHistory(pageSize: 1)
            #expect(history.items.map(\.id) == [run.id])
            let nextPage = try await client.workoutHistory(pageSize: 1, pageToken: history.nextPageToken)
            #expect(nextPage.items.map(\.id) == [second.workout.id])

            let deleted = try await client.deleteWorkout(second.workout.id)
            #expect(deleted.deleted)
            #expect(deleted.totals.totalWorkouts == 1)
            #expect(try await client.deleteWorkout(second.workout.id).deleted == false)

            // Meals: items, totals, the day's query.
            let breakfast = Meal(
                mealType: .breakfast, eatenAt: Date(), timeZone: "Europe/Berlin", name: "oats",
                items: [FoodItem(name: "oats", calories: 300, proteinG: 10, carbsG: 50, fatG: 6), FoodItem(name: "milk", calories: 120, proteinG: 8)])
            let loggedMeal = try await client.logMeal(breakfast)
            #expect(loggedMeal.meal.totals.calories == 420)
            #expect(loggedMeal.meal.localDay == today)
            var smaller = loggedMeal.meal
            smaller.items.removeLast()
            #expect(try await client.updateMeal(smaller).meal.totals.calories == 300)
            let day = try await client.mealsOfDay(today, timeZone: "Europe/Berlin")
            #expect(day.meals.map(\.id) == [breakfast.id])
            #expect(day.totals.calories == 300)
            let snack = try await client.logMeal(Meal(mealType: .snack, eatenAt: Date(), name: "apple", items: [FoodItem(name: "apple", calories: 80)]))
            #expect(try await client.deleteMeal(snack.meal.id).deleted)

            // Weight and steps.
            let weighIn = try await client.logWeight(WeightEntry(weightKg: 71.5, measuredAt: hourAgo))
            #expect(weighIn.profileWeightUpdated)
            let older = try await client.logWeight(WeightEntry(weightKg: 72.5, measuredAt: hourAgo.addingTimeInterval(-86_400)))
            let series = try await client.weightProgress(from: Date().addingTimeInterval(-7 * 86_400))
            #expect(series.items.map(\.weightKg) == [72.5, 71.5])
            #expect(try await client.deleteWeight(older.entry.id).deleted)
            let steps = try await client.reportSteps(StepsReport(day: today, source: "phone", steps: 8_500))
            #expect(steps.day.steps == 8_500)
            #expect(steps.applied)

            // Summaries, achievements, changes, export.
            let summaries = try await client.summaries(from: today.adding(days: -1), to: today)
            #expect(summaries.count == 2)
            #expect(summaries.last?.steps == 8_500)
            #expect(summaries.last?.caloriesEaten == 300)
            let achievements = try await client.achievements()
            #expect(achievements.contains { $0.id == "workout_1" && $0.unlocked })
            let changes = try await client.changes(since: start)
            #expect(!changes.changes.isEmpty)
            #expect(changes.revision > start)
            #expect(changes.changes.contains {
                if case .deleted(.workout, second.workout.id) = $0.item { return true } else { return false }
            })
            var chunks: [ExportChunk] = []
            for try await chunk in client.export() { chunks.append(chunk) }
            #expect(chunks.first?.profile?.email == ownerEmail)
            #expect(chunks.flatMap(\.workouts).map(\.id) == [run.id])
            #expect(chunks.flatMap(\.meals).map(\.id) == [breakfast.id])
            #expect(chunks.flatMap(\.weights).count == 1)

            // Bad input is refused with the field named.
            let refused = await failure { _ = try await client.logWeight(WeightEntry(weightKg: -3)) }
            #expect(refused?.code == .invalidArgument)
            let field = refused?.field ?? ""
            #expect(field.contains("weight"))
            client.close()
        }
    }

    @Test("household and admin calls")
    func householdAndAdmin() async throws {
        try await LiveServer.run { live in
            let owner = live.client()
            _ = try await owner.login(email: ownerEmail, password: ownerPassword)
            let (mia, signedIn) = try await newMember(live, admin: owner, email: "mia@example.com")
            #expect(signedIn.profile.role == .member)
            _ = try await mia.logWorkout(Workout(type: "swim", durationSeconds: 900, performedAt: Date().addingTimeInterval(-600)))

            let household = try await owner.household()
            #expect(household.count == 2)
            #expect(household.first { $0.isYou }?.displayName.isEmpty == false)
            #expect(household.first { !$0.isYou }?.totalWorkouts == 1)

            let invite = try await owner.createInvite(role: .admin, note: "for Tom")
            #expect(invite.code.count >= 8)
            #expect(try await owner.invites().map(\.id).contains(invite.invite.id))
            let revoked = try await owner.revokeInvite(invite.invite.id)
            #expect(revoked.state == .revoked)
            #expect(try await owner.invites(includeInactive: true).count == 2)

            let members = try await owner.members()
            let miaInfo = try #require(members.first { $0.email == "mia@example.com" })
            #expect(members.count == 2)
            #expect(await failure { _ = try await mia.members() }?.code == .permissionDenied)
            #expect(try await owner.resetPassword(of: miaInfo.id, to: "another member password") == 1)
            #expect(await failure { _ = try await mia.profile() }?.code == .unauthenticated)
            _ = try await mia.login(email: "mia@example.com", password: "another member password")

            let stats = try await owner.stats()
            #expect(stats.members == 2)
            #expect(stats.commits > 0)
            #expect(stats.methods.contains { $0.name == "Logging.LogWorkout" && $0.calls == 1 })

            try await owner.removeMember(miaInfo.id)
            #expect(try await owner.members().count == 1)
            #expect(await failure { _ = try await mia.profile() }?.code == .unauthenticated)

            let (leaving, _) = try await newMember(live, admin: owner, email: "leo@example.com")
            try await leaving.deleteAccount(password: "member password 1")
            #expect(leaving.sessionToken == nil)
            #expect(try await owner.members().count == 1)
            owner.close()
            mia.close()
            leaving.close()
        }
    }

    @Test("watch delivers the backlog, then live changes from another device")
    func watch() async throws {
        try await LiveServer.run { live in
            let phone = live.client(device: "phone")
            _ = try await phone.login(email: ownerEmail, password: ownerPassword)
            let laptop = live.client(device: "laptop", token: nil)
            _ = try await laptop.login(email: ownerEmail, password: ownerPassword)
            let early = try await phone.logWeight(WeightEntry(weightKg: 70, measuredAt: Date().addingTimeInterval(-7_200)))

            var iterator = laptop.watch(since: 0).makeAsyncIterator()
            var seen: [UUID] = []
            var caughtUp = false
            while !caughtUp, let event = try await iterator.next() {
                caughtUp = event.caughtUp
                seen += event.changes.compactMap { if case .weight(let entry) = $0.item { entry.id } else { nil } }
            }
            #expect(seen == [early.entry.id])

            let late = try await phone.logWeight(WeightEntry(weightKg: 69.5, measuredAt: Date().addingTimeInterval(-60)))
            var liveIDs: [UUID] = []
            while liveIDs.isEmpty, let event = try await iterator.next() {
                liveIDs += event.changes.compactMap { if case .weight(let entry) = $0.item { entry.id } else { nil } }
            }
            #expect(liveIDs == [late.entry.id])
            phone.close()
            laptop.close()
        }
    }
}
