import ClientTestSupport
import Foundation
import ServerTestSupport
import TestSupport
import Testing
@testable import WorkoutClient
import WorkoutOffline
@testable import WorkoutSession

/// The session model offline-first, end to end through the real server and store: it starts
/// from its snapshot while the server cannot be reached, shows a write made offline as the server
/// will count it, and converges to the server's state when the server is back.
@Suite("Session model offline, end to end")
struct SessionOfflineTests {
    static let account = "owner@example.com on loopback"
    static let zone = "Europe/Berlin"

    /// Quick to give up a call (so an offline write is queued soon); the Watch keeps trying anyway.
    static let impatient = ReconnectPolicy(initialDelay: .milliseconds(50), maximumDelay: .milliseconds(200), maximumAttempts: 2)

    /// Whether two models show the same member state.
    @MainActor
    static func same(_ a: WorkoutSession, _ b: WorkoutSession) -> Bool {
        a.profile == b.profile && a.totals == b.totals && a.today == b.today && a.todaysMeals == b.todaysMeals
            && a.todaysSteps == b.todaysSteps && a.recentWorkouts == b.recentWorkouts && a.weights == b.weights
            && a.achievements == b.achievements && a.week == b.week
    }

    @Test("started offline from its snapshot, then the server comes back with another device's changes: the model converges to the server's state")
    func convergesToServer() async throws {
        try await withTemporaryDirectory { directory in
            try await LiveServer.run { @MainActor live in
                let snapshotPath = directory + "/session.snapshot"
                let now = Date()

                // The phone, online: loads, logs, saves its snapshot, and is put away.
                let phone = live.client(device: "phone")
                let first = WorkoutSession(client: phone, storage: .init(snapshotPath: snapshotPath, account: Self.account))
                try await first.login(email: ownerEmail, password: ownerPassword)
                try await first.waitUntilLive(timeout: .seconds(20))
                try await first.log(Workout(type: "running", durationSeconds: 1_800, caloriesBurned: 300, performedAt: now.addingTimeInterval(-86_400), timeZone: Self.zone))
                let phoneMeal = try await first.log(Meal(mealType: .breakfast, eatenAt: earlierToday(60, before: now, in: Self.zone), timeZone: Self.zone, items: [FoodItem(name: "oats", calories: 350)]))
                try await first.saveSnapshot()
                first.close()
                let token = try #require(phone.sessionToken)
                phone.close()

                // Meanwhile the laptop, at home: a meal, a workout, and the phone's meal deleted.
                let laptop = live.client(device: "laptop")
                _ = try await laptop.login(email: ownerEmail, password: ownerPassword)
                let laptopMeal = try await laptop.logMeal(Meal(mealType: .lunch, eatenAt: earlierToday(30, before: now, in: Self.zone), timeZone: Self.zone, items: [FoodItem(name: "soup", calories: 420)]))
                let laptopWorkout = try await laptop.logWorkout(Workout(type: "cycling", durationSeconds: 2_400, caloriesBurned: 350, performedAt: now.addingTimeInterval(-7_200), timeZone: Self.zone))
                _ = try await laptop.deleteMeal(phoneMeal.meal.id)
                laptop.close()

                // The phone away from home: the server cannot be reached. It starts from its snapshot at once.
                await live.stop()
                let offlineClient = live.client(device: "phone", token: token, reconnect: Self.impatient)
                let outbox = try Outbox(path: directory + "/outbox.log", account: Self.account)
                let session = WorkoutSession(client: offlineClient, storage: .init(snapshotPath: snapshotPath, account: Self.account, outbox: outbox))
                #expect(session.status == .signedIn)
                #expect(session.isStale)
                #expect(session.profile?.email == ownerEmail)
                #expect(session.todaysMeals.map(\.id) == [phoneMeal.meal.id])
                #expect(session.totals?.totalWorkouts == 1)
                try await session.resume()
                #expect(session.isStale && session.isLoading && !session.isLive)

                // A workout logged offline: queued, shown pending, counted.
                let offline = Workout(type: "swimming", durationSeconds: 1_200, caloriesBurned: 200, performedAt: earlierToday(600, before: now, in: Self.zone), timeZone: Self.zone)
                let delivery = try await session.perform(.logWorkout(offline))
                guard case .queued = delivery else {
                    Issue.record("the offline write was not queued: \(delivery)")
                    return
                }
                #expect(session.isPending(offline.id))
                #expect(session.pendingWrites.map(\.write) == [.logWorkout(offline)])
                #expect(session.recentWorkouts.first?.id == offline.id)
                #expect(session.totals?.totalWorkouts == 2)
                #expect(session.totals?.currentStreakDays == 2)

                // The server is back: the model catches up, sends the write, and converges.
                try live.start()
                try await session.waitUntilLive(timeout: .seconds(30))
                let reference = WorkoutSession(client: live.client(device: "reference"))
                try await reference.login(email: ownerEmail, password: ownerPassword)
                #expect(await observe(session, within: .seconds(30)) {
                    session.pendingWrites.isEmpty && !session.isStale && Self.same(session, reference)
                })
                #expect(session.pendingRecordIDs.isEmpty)
                #expect(Set(session.recentWorkouts.map(\.id)).isSuperset(of: [offline.id, laptopWorkout.workout.id]))
                #expect(session.todaysMeals.map(\.id) == [laptopMeal.meal.id])
                #expect(session.totals?.totalWorkouts == 3)
                #expect(session.totals == reference.totals)
                #expect(outbox.isEmpty)

                // What it converged to is what it saves: a cold start now shows the server's state.
                try await session.saveSnapshot()
                session.close()
                reference.close()
                let again = WorkoutSession(client: live.client(device: "phone", token: token), storage: .init(snapshotPath: snapshotPath, account: Self.account))
                #expect(again.isStale)
                #expect(Self.same(again, reference))
                again.close()
                again.client.close()
                reference.client.close()
                offlineClient.close()
                outbox.close()
            }
        }
    }

    @Test("a workout logged offline shows the totals, streak, points, level and achievements the server then computes")
    func guessMatchesServer() async throws {
        try await withTemporaryDirectory { directory in
            try await LiveServer.run { @MainActor live in
                let now = Date()
                let client = live.client(device: "phone", reconnect: Self.impatient)
                let outbox = try Outbox(path: directory + "/outbox.log", account: Self.account)
                let session = WorkoutSession(client: client, storage: .init(snapshotPath: directory + "/session.snapshot", account: Self.account, outbox: outbox))
                try await session.login(email: ownerEmail, password: ownerPassword)
                try await session.waitUntilLive(timeout: .seconds(20))
                // Nine workouts on the two days before today: a 2-day streak, workout_1 unlocked.
                for index in 0..<9 {
                    try await session.log(Workout(type: "running", durationSeconds: 600, caloriesBurned: 100,
                                                  performedAt: now.addingTimeInterval(-86_400 * Double(1 + index % 2)), timeZone: Self.zone))
                }
                #expect(session.totals?.totalWorkouts == 9)

                await live.stop()
                let offline = Workout(type: "rowing", durationSeconds: 900, caloriesBurned: 150, performedAt: now.addingTimeInterval(-300), timeZone: Self.zone)
                guard case .queued = try await session.perform(.logWorkout(offline)) else {
                    Issue.record("the offline write was not queued")
                    return
                }
                let guessed = try #require(session.totals)
                let guessedAchievements = Set(session.achievements.filter(\.unlocked).map(\.id))
                #expect(guessed.totalWorkouts == 10)
                #expect(guessedAchievements.isSuperset(of: ["workout_1", "workout_10", "streak_3"]))
                #expect(session.isPending(offline.id))

                try live.start()
                #expect(await observe(session, within: .seconds(30)) { session.pendingWrites.isEmpty && !session.isPending(offline.id) })
                let server = try await client.profile().totals
                #expect(guessed == server)
                #expect(session.totals == server)
                #expect(Set(session.achievements.filter(\.unlocked).map(\.id)) == guessedAchievements)
                session.close()
                client.close()
                outbox.close()
            }
        }
    }
}
