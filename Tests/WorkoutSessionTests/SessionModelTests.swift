import ClientTestSupport
import Foundation
import Observation
import ServerTestSupport
import TestSupport
import Testing
import WorkoutClient
import WorkoutOffline
@testable import WorkoutSession

/// Waits until `condition` holds, re-checking whenever a property it read changes
/// (Observation), for at most `timeout`.
///
/// - Returns: Whether it held in time.
@MainActor
func observe(_ session: WorkoutSession, within timeout: Duration = .seconds(10), until condition: @escaping @MainActor () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        let changed = AsyncStream<Void>.makeStream()
        withObservationTracking {
            _ = condition()
        } onChange: {
            changed.continuation.yield()
            changed.continuation.finish()
        }
        // Wake on the change, or now and then to check the deadline.
        let timer = Task {
            try? await Task.sleep(for: .milliseconds(200))
            changed.continuation.finish()
        }
        for await _ in changed.stream { break }
        timer.cancel()
    }
    return true
}

@Suite("Session model, end to end")
struct SessionModelTests {
    @Test("it loads after login, and shows a second device's writes live, through Watch")
    func secondDevice() async throws {
        try await LiveServer.run { @MainActor live in
            let session = WorkoutSession(client: live.client(device: "phone"))
            try await session.login(email: ownerEmail, password: ownerPassword)
            #expect(session.status == .signedIn)
            #expect(session.profile?.email == ownerEmail)
            #expect(session.todaysMeals.isEmpty)
            #expect(await observe(session) { session.isLive })

            let laptop = live.client(device: "laptop")
            _ = try await laptop.login(email: ownerEmail, password: ownerPassword)
            let lunch = try await laptop.logMeal(Meal(
                mealType: .lunch, eatenAt: Date(), timeZone: "Europe/Berlin", name: "soup",
                items: [FoodItem(name: "soup", calories: 250), FoodItem(name: "bread", calories: 150)]))
            #expect(await observe(session) { session.todaysMeals.map(\.id) == [lunch.meal.id] })
            #expect(session.todaysNutrition.calories == 400)

            let run = try await laptop.logWorkout(Workout(type: "run", durationSeconds: 1_800, caloriesBurned: 300, performedAt: Date().addingTimeInterval(-600)))
            #expect(await observe(session) { session.totals?.totalWorkouts == 1 })
            #expect(session.recentWorkouts.map(\.id) == [run.workout.id])
            #expect(session.totals?.points == run.totals.points)
            #expect(await observe(session) { session.achievements.contains { $0.id == "workout_1" && $0.unlocked } })

            let weight = try await laptop.logWeight(WeightEntry(weightKg: 68.2, measuredAt: Date().addingTimeInterval(-60)))
            #expect(await observe(session) { session.weights.map(\.id) == [weight.entry.id] })
            _ = try await laptop.reportSteps(StepsReport(day: try #require(session.today), source: "watch", steps: 4_321))
            #expect(await observe(session) { session.todaysSteps == 4_321 })

            try await laptop.deleteMeal(lunch.meal.id)
            #expect(await observe(session) { session.todaysMeals.isEmpty })

            // Writes through the model show at once.
            try await session.log(WeightEntry(weightKg: 68.0))
            #expect(session.weights.count == 2)
            try await session.logout()
            #expect(session.status == .signedOut)
            #expect(session.profile == nil)
            laptop.close()
        }
    }

    @Test("it recovers from a server restart: offline, then live again with what happened meanwhile")
    func recoversFromRestart() async throws {
        try await LiveServer.run { @MainActor live in
            let session = WorkoutSession(client: live.client(device: "phone"))
            try await session.login(email: ownerEmail, password: ownerPassword)
            #expect(await observe(session) { session.isLive })

            try await live.restart()
            #expect(await observe(session) { !session.isLive || session.client.connectionsOpened >= 2 })

            let laptop = live.client(device: "laptop")
            _ = try await laptop.login(email: ownerEmail, password: ownerPassword)
            let meal = try await laptop.logMeal(Meal(mealType: .dinner, eatenAt: Date(), timeZone: "Europe/Berlin", name: "pasta", items: [FoodItem(name: "pasta", calories: 600)]))
            #expect(await observe(session) { session.isLive && session.todaysMeals.map(\.id) == [meal.meal.id] })
            #expect(session.status == .signedIn)
            laptop.close()
        }
    }

    @Test("a session revoked elsewhere turns the model to expired")
    func expiry() async throws {
        try await LiveServer.run { @MainActor live in
            let session = WorkoutSession(client: live.client(device: "phone"))
            try await session.login(email: ownerEmail, password: ownerPassword)
            #expect(await observe(session) { session.isLive })
            let laptop = live.client(device: "laptop")
            _ = try await laptop.login(email: ownerEmail, password: ownerPassword)
            _ = try await laptop.changePassword(current: ownerPassword, new: "a different password")
            #expect(await observe(session) { session.status == .expired })
            #expect(session.lastError?.code == .unauthenticated)
            #expect(session.profile == nil)
            laptop.close()
        }
    }
}
