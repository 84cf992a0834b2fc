import ClientTestSupport
import Foundation
import Observation
import ServerTestSupport
import TestSupport
import Testing
@testable import WorkoutClient
import WorkoutOffline
@testable import WorkoutSession

/// Counts the Observation callbacks of each observable property of a session model: one
/// `withObservationTracking` per property, registered again each time it fires.
@MainActor
final class ObservationCounter {
    /// Every observable property of the model, by name.
    static let properties: [(name: String, read: @MainActor (WorkoutSession) -> Void)] = [
        ("status", { _ = $0.status }), ("profile", { _ = $0.profile }), ("totals", { _ = $0.totals }),
        ("today", { _ = $0.today }), ("todaysMeals", { _ = $0.todaysMeals }), ("todaysSteps", { _ = $0.todaysSteps }),
        ("recentWorkouts", { _ = $0.recentWorkouts }), ("weights", { _ = $0.weights }), ("achievements", { _ = $0.achievements }),
        ("week", { _ = $0.week }), ("pendingWrites", { _ = $0.pendingWrites }), ("pendingRecordIDs", { _ = $0.pendingRecordIDs }),
        ("isLoading", { _ = $0.isLoading }), ("isStale", { _ = $0.isStale }), ("isLive", { _ = $0.isLive }),
        ("connectivity", { _ = $0.connectivity }),
        ("lastError", { _ = $0.lastError }), ("ignoredSnapshotReason", { _ = $0.ignoredSnapshotReason }),
    ]

    /// Callbacks per property since the last ``reset()``.
    private(set) var counts: [String: Int] = [:]
    private let session: WorkoutSession

    init(_ session: WorkoutSession) {
        self.session = session
        for property in Self.properties { track(property.name, property.read) }
    }

    func reset() {
        counts = [:]
    }

    private func track(_ name: String, _ read: @escaping @MainActor (WorkoutSession) -> Void) {
        withObservationTracking {
            read(session)
        } onChange: { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.counts[name, default: 0] += 1
                self.track(name, read)
            }
        }
    }
}

/// What an incoming change touches, counted with Observation, through the real server.
@Suite("Session model observation, end to end")
struct SessionObservationTests {
    static let zone = "Europe/Berlin"

    /// Waits until `counter` shows `expected`, then a quiet moment, and checks nothing more came.
    @MainActor
    static func expectCallbacks(_ expected: [String: Int], _ counter: ObservationCounter, _ session: WorkoutSession,
                                _ what: String) async {
        let reached = await observe(session, within: .seconds(10)) { counter.counts == expected }
        try? await Task.sleep(for: .milliseconds(400))
        #expect(reached && counter.counts == expected, "\(what): \(counter.counts), expected \(expected)")
        counter.reset()
    }

    @Test("each kind of incoming change touches only the properties it changes, once")
    func perChangeKind() async throws {
        try await LiveServer.run { @MainActor live in
            let now = Date()
            let session = WorkoutSession(client: live.client(device: "phone"))
            try await session.login(email: ownerEmail, password: ownerPassword)
            let laptop = live.client(device: "laptop")
            _ = try await laptop.login(email: ownerEmail, password: ownerPassword)
            // A first workout and weigh-in, so that later ones unlock nothing and are not the newest.
            _ = try await laptop.logWorkout(Workout(type: "running", durationSeconds: 600, performedAt: earlierToday(120, before: now, in: Self.zone), timeZone: Self.zone))
            _ = try await laptop.logWeight(WeightEntry(weightKg: 70, measuredAt: now.addingTimeInterval(-60)))
            try await session.waitUntilLive(timeout: .seconds(20))
            #expect(await observe(session) { session.totals?.totalWorkouts == 1 && session.weights.count == 1 && session.week?.workouts == 1 })
            try await Task.sleep(for: .milliseconds(400))
            let counter = ObservationCounter(session)

            let meal = try await laptop.logMeal(Meal(mealType: .lunch, eatenAt: earlierToday(30, before: now, in: Self.zone), timeZone: Self.zone, items: [FoodItem(name: "soup", calories: 300)]))
            await Self.expectCallbacks(["todaysMeals": 1, "week": 1], counter, session, "a meal of today")

            let workout = try await laptop.logWorkout(Workout(type: "cycling", durationSeconds: 900, caloriesBurned: 120, performedAt: earlierToday(90, before: now, in: Self.zone), timeZone: Self.zone))
            // Progress toward the workout achievements follows the totals.
            await Self.expectCallbacks(["recentWorkouts": 1, "totals": 1, "achievements": 1, "week": 1], counter, session, "a workout")

            _ = try await laptop.logWeight(WeightEntry(weightKg: 71, measuredAt: now.addingTimeInterval(-2 * 86_400)))
            await Self.expectCallbacks(["weights": 1], counter, session, "an older weigh-in")

            let today = try #require(session.today)
            _ = try await laptop.reportSteps(StepsReport(day: today, source: "watch", steps: 5_000))
            await Self.expectCallbacks(["todaysSteps": 1, "week": 1], counter, session, "steps of today")

            _ = try await laptop.updateProfile(ProfileUpdate(firstName: "Olga B."))
            await Self.expectCallbacks(["profile": 1], counter, session, "a profile change")

            _ = try await laptop.deleteMeal(meal.meal.id)
            await Self.expectCallbacks(["todaysMeals": 1, "week": 1], counter, session, "a meal deleted")

            _ = try await laptop.deleteWorkout(workout.workout.id)
            await Self.expectCallbacks(["recentWorkouts": 1, "totals": 1, "achievements": 1, "week": 1], counter, session, "a workout deleted")

            session.close()
            session.client.close()
            laptop.close()
        }
    }

    @Test("a typed write shows its totals and the week's sums together, before it returns")
    func typedWriteMovesTheFiguresOnce() async throws {
        try await LiveServer.run { @MainActor live in
            let now = Date()
            let session = WorkoutSession(client: live.client(device: "phone"))
            try await session.login(email: ownerEmail, password: ownerPassword)
            try await session.waitUntilLive(timeout: .seconds(20))
            #expect(await observe(session) { session.week != nil })
            let before = session.week?.workouts ?? 0
            try await session.log(Workout(type: "running", durationSeconds: 600, caloriesBurned: 95, performedAt: earlierToday(600, before: now, in: Self.zone), timeZone: Self.zone))
            // No wait: the answer and the week read again arrive as one step.
            #expect(session.totals?.totalWorkouts == 1)
            #expect(session.week?.workouts == before + 1)
            let today = try #require(session.today)
            try await session.report(StepsReport(day: today, source: "phone", steps: 4_321))
            #expect(session.todaysSteps == 4_321)
            #expect(session.week?.steps == 4_321)
        }
    }

    @Test("the echo of the model's own write over Watch triggers no observation")
    func echo() async throws {
        try await LiveServer.run { @MainActor live in
            let now = Date()
            let session = WorkoutSession(client: live.client(device: "phone"))
            try await session.login(email: ownerEmail, password: ownerPassword)
            try await session.waitUntilLive(timeout: .seconds(20))
            try await session.log(Workout(type: "running", durationSeconds: 600, performedAt: earlierToday(600, before: now, in: Self.zone), timeZone: Self.zone))
            // The newest weigh-in, first: a newer one also changes the profile's weight, a change
            // of its own (with the profile's new revision, which the answer does not carry).
            try await session.log(WeightEntry(weightKg: 70, measuredAt: now.addingTimeInterval(-5)))
            try await Task.sleep(for: .milliseconds(400))
            let counter = ObservationCounter(session)
            let today = try #require(session.today)

            // Writes whose answer is shown before their echo arrives (the weigh-ins, which return
            // as soon as their answer is applied; a write that changes the week returns after the
            // week is read again, and its echo mostly arrived meanwhile, while the figures were
            // held). Each echo, once it arrives, must change nothing.
            let writes: [@MainActor () async throws -> UInt64] = [
                { try await session.log(Workout(type: "rowing", durationSeconds: 900, caloriesBurned: 90, performedAt: earlierToday(300, before: now, in: Self.zone), timeZone: Self.zone)).workout.revision },
                { try await session.log(Meal(mealType: .snack, eatenAt: earlierToday(200, before: now, in: Self.zone), timeZone: Self.zone, items: [FoodItem(name: "apple", calories: 80)])).meal.revision },
                { try await session.report(StepsReport(day: today, source: "phone", steps: 3_000)).day.revision },
                { try await session.log(Workout(type: "yoga", durationSeconds: 1_200, performedAt: earlierToday(100, before: now, in: Self.zone), timeZone: Self.zone)).workout.revision },
                { try await session.log(Meal(mealType: .dinner, eatenAt: earlierToday(50, before: now, in: Self.zone), timeZone: Self.zone, items: [FoodItem(name: "rice", calories: 500)])).meal.revision },
                { try await session.log(WeightEntry(weightKg: 70.5, measuredAt: now.addingTimeInterval(-40))).entry.revision },
                { try await session.log(WeightEntry(weightKg: 70.4, measuredAt: now.addingTimeInterval(-30))).entry.revision },
                { try await session.log(WeightEntry(weightKg: 70.3, measuredAt: now.addingTimeInterval(-20))).entry.revision },
            ]
            var echoesAfterAnswer = 0
            for write in writes {
                let revision = try await write()
                counter.reset()
                guard session.revision < revision else { continue }
                for _ in 0..<200 where session.revision < revision { try await Task.sleep(for: .milliseconds(10)) }
                guard session.revision >= revision else {
                    Issue.record("the echo of revision \(revision) never arrived")
                    continue
                }
                echoesAfterAnswer += 1
                try await Task.sleep(for: .milliseconds(300))
                // The write's own follow-up, a new read of the week's sums, may land in this window
                // (once); the echo's read of the same sums changes nothing.
                var counts = counter.counts
                let week = counts.removeValue(forKey: "week") ?? 0
                #expect(counts.isEmpty && week <= 1, "the echo of revision \(revision) triggered \(counter.counts)")
            }
            #expect(echoesAfterAnswer > 0)
            session.close()
            session.client.close()
        }
    }
}
