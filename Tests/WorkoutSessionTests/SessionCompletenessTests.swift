import ClientTestSupport
import Foundation
import ServerTestSupport
import Synchronization
import TestSupport
import Testing
@testable import WorkoutClient
import WorkoutOffline
@testable import WorkoutSession

/// The session model's day, lists, waiting and previews, through the real server.
@Suite("Session model completeness, end to end")
struct SessionCompletenessTests {
    static let zone = "Europe/Berlin"
    static let berlin = TimeZone(identifier: zone)!

    @Test("today rolls over at the member's midnight by itself, and the new day's meals are read")
    func rollsOverAtMidnight() async throws {
        try await LiveServer.run { @MainActor live in
            // A meal of the member's today, logged on another device.
            let laptop = live.client(device: "laptop")
            _ = try await laptop.login(email: ownerEmail, password: ownerPassword)
            let meal = try await laptop.logMeal(Meal(mealType: .lunch, eatenAt: Date(), timeZone: Self.zone, items: [FoodItem(name: "soup", calories: 300)]))
            // The model's clock stands an hour before the member's last midnight while it loads
            // (however long that takes on a busy machine), so it starts on the day before; then it
            // runs from a second before midnight, and the timer (restarted, as after a clock
            // change) must move the day on by itself.
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = Self.berlin
            let realToday = LocalDate(Date(), in: Self.berlin)
            let midnight = calendar.startOfDay(for: Date())
            let clock = MovableClock(standingAt: midnight.addingTimeInterval(-3_600))
            let session = WorkoutSession(client: live.client(device: "phone"))
            session.now = { clock.now() }
            try await session.login(email: ownerEmail, password: ownerPassword)
            #expect(session.today == realToday.adding(days: -1))
            #expect(session.todaysMeals.isEmpty)
            clock.run(from: midnight.addingTimeInterval(-1))
            session.startDayClock()
            #expect(await observe(session, within: .seconds(30)) { session.today == realToday })
            #expect(await observe(session, within: .seconds(30)) { session.todaysMeals.map(\.id) == [meal.meal.id] })
            #expect(await observe(session, within: .seconds(30)) { session.week.map { $0.start <= realToday && realToday <= $0.end } == true })
            session.close()
            #expect(session.dayTask == nil)
            session.client.close()
            laptop.close()
        }
    }

    @Test("a deleted workout leaves no gap: the list is refilled from the server")
    func refillsAfterDelete() async throws {
        try await LiveServer.run { @MainActor live in
            let now = Date()
            let laptop = live.client(device: "laptop")
            _ = try await laptop.login(email: ownerEmail, password: ownerPassword)
            var logged: [Workout] = []
            for index in 0..<(WorkoutSession.recentWorkoutLimit + 2) {
                logged.append(try await laptop.logWorkout(Workout(
                    type: "running", durationSeconds: 600, performedAt: now.addingTimeInterval(-Double(60 * (index + 1))), timeZone: Self.zone)).workout)
            }
            let session = WorkoutSession(client: live.client(device: "phone"))
            try await session.login(email: ownerEmail, password: ownerPassword)
            try await session.waitUntilLive(timeout: .seconds(20))
            #expect(session.recentWorkouts.map(\.id) == logged.prefix(WorkoutSession.recentWorkoutLimit).map(\.id))

            // Deleted through the model, and on another device: each time the next older one moves up.
            try await session.deleteWorkout(logged[0].id)
            #expect(await observe(session) { session.recentWorkouts.map(\.id) == logged[1...WorkoutSession.recentWorkoutLimit].map(\.id) })
            _ = try await laptop.deleteWorkout(logged[1].id)
            #expect(await observe(session) { session.recentWorkouts.map(\.id) == logged[2...(WorkoutSession.recentWorkoutLimit + 1)].map(\.id) })
            #expect(session.totals?.totalWorkouts == WorkoutSession.recentWorkoutLimit)
            session.close()
            session.client.close()
            laptop.close()
        }
    }

    @Test("waiting for live: at once when live, a timeout while the server cannot be reached, a clear error when signed out")
    func waitingForLive() async throws {
        try await LiveServer.run { @MainActor live in
            let session = WorkoutSession(client: live.client(device: "phone"))
            await #expect(throws: WorkoutError.self) { try await session.waitUntilLive(timeout: .seconds(1)) }
            try await session.login(email: ownerEmail, password: ownerPassword)
            try await session.waitUntilLive(timeout: .seconds(20))
            #expect(session.isLive)
            try await session.waitUntilLive(timeout: .milliseconds(1))

            await live.stop()
            #expect(await observe(session) { !session.isLive })
            do throws(WorkoutError) {
                try await session.waitUntilLive(timeout: .milliseconds(300))
                Issue.record("waiting for live succeeded while the server was down")
            } catch {
                #expect(error.code == .deadlineExceeded)
            }
            try live.start()
            try await session.waitUntilLive(timeout: .seconds(20))
            #expect(session.isLive)

            // Closing fails a waiter with CANCELLED.
            await live.stop()
            #expect(await observe(session) { !session.isLive })
            async let waited: WorkoutError? = {
                do throws(WorkoutError) {
                    try await session.waitUntilLive(timeout: .seconds(20))
                    return nil
                } catch {
                    return error
                }
            }()
            try await Task.sleep(for: .milliseconds(100))
            session.close()
            #expect(await waited?.code == .cancelled)
            session.client.close()
        }
    }

    @Test("the preview session shows sample data, a pending workout counted by the rules, and never connects")
    @MainActor
    func preview() {
        let session = WorkoutSession.preview()
        #expect(session.status == .signedIn)
        #expect(session.profile?.firstName == "Anna")
        #expect(!session.todaysMeals.isEmpty)
        #expect(session.recentWorkouts.count == 7)
        #expect(session.pendingRecordIDs.count == 1)
        #expect(session.recentWorkouts.contains { session.isPending($0.id) })
        #expect(session.totals?.totalWorkouts == 24)
        #expect(session.achievements.contains { $0.id == "workout_10" && $0.unlocked })
        #expect(session.week != nil)
        #expect(session.client.connectionsOpened == 0)
        session.close()
    }
}

/// A clock for the session model's `now`: standing at one instant, or running at the real rate
/// from one.
final class MovableClock: Sendable {
    private let state: Mutex<(instant: Date, since: ContinuousClock.Instant?)>

    init(standingAt instant: Date) {
        state = Mutex((instant, nil))
    }

    /// Runs from `instant` on, at the real rate.
    func run(from instant: Date) {
        state.withLock { $0 = (instant, ContinuousClock.now) }
    }

    /// The clock's time.
    func now() -> Date {
        state.withLock { state in
            guard let since = state.since else { return state.instant }
            let elapsed = ContinuousClock.now - since
            return state.instant.addingTimeInterval(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
    }
}
