import Foundation
import WorkoutBenchKit
import WorkoutCore
import WorkoutProtocol

/// A real household store in a temporary directory, preloaded as `workout-bench` preloads
/// one member (``Preloader``: 3,650 meals, 10 a day with two food items each, and a workout a
/// day), opened as the server opens it, with that member logged in.
///
/// Made in a benchmark's setup and removed in its teardown with ``remove()``.
final class PreloadedHousehold {
    /// What was preloaded.
    let plan: DataPlan
    /// The store, open.
    let household: HouseholdStore
    /// The member's session, as a connection holds it after `Auth.Login`.
    let caller: Caller
    /// Request bodies for the plan (`workout-bench`'s own).
    let bodies: RequestBodies
    /// Where the store lives.
    let directory: URL

    /// Creates the directory, preloads it and logs the member in.
    ///
    /// - Throws: the preloader's and the store's errors.
    init() async throws {
        let now = Int64(Date().timeIntervalSince1970 * 1_000)
        plan = DataPlan(members: 1, recordsPerMember: 3_650, mealsPerDay: 10, nowMilliseconds: now)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("workout-microbench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            _ = try Preloader(plan: plan).run(directory: directory.path) { _ in }
            var configuration = HouseholdStore.Configuration()
            configuration.passwordParameters = .fastForTests
            household = try HouseholdStore(directory: directory.path, configuration: configuration)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        do {
            bodies = try RequestBodies(plan: plan, membersUsed: 1)
            var login = Workout_V1_LoginRequest()
            login.email = plan.memberEmail(0)
            login.password = plan.password
            login.deviceName = RequestBodies.agent
            caller = try await household.login(login, source: "127.0.0.1", agent: RequestBodies.agent).caller
        } catch {
            household.close()
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// The `MealsOfDayRequest` body of the last preloaded day (yesterday, UTC): 10 meals.
    var lastDayRequest: [UInt8] { bodies.mealsOfDay[plan.days - 1] }

    /// Closes the store and deletes its directory.
    func remove() {
        household.close()
        try? FileManager.default.removeItem(at: directory)
    }
}
