import Dispatch
import Foundation
import Synchronization
import WorkoutCore
import WorkoutProtocol

/// Writes a ``DataPlan`` into a fresh store directly (no server, no RPC): the owner, the
/// members (with fast password hashes) in one transaction, then each member's records through
/// ``HouseholdStore/importRecordsLocally(for:_:batchSize:)`` — the same rules as logging them
/// one by one, many records per durable commit. Members are imported two at a time (one per
/// core): building and validating one member's records overlaps with committing another's, and
/// the group-commit writer takes both in one commit.
///
/// Passwords are hashed with scrypt's test parameters so that seeding 1,000 members takes a
/// second, not a minute; the server rehashes each with its own parameters at the first login,
/// as it does for any hash made with weaker ones.
package struct Preloader: Sendable {
    /// What a preload did.
    package struct Summary: Sendable {
        /// Seconds it took.
        package var seconds: Double
        /// Records written (meals and workouts), all members together.
        package var records: Int
        /// Write transactions committed for them.
        package var commits: Int
    }

    /// The data to write.
    package let plan: DataPlan

    /// A preloader of `plan`.
    package init(plan: DataPlan) {
        self.plan = plan
    }

    /// Creates the store in `directory` (which must hold none) and writes the plan.
    ///
    /// - Parameter progress: Told now and then how far it got.
    /// - Throws: ``BenchFailure`` when the directory holds a store already; the store's errors.
    package func run(directory: String, progress: @escaping @Sendable (String) -> Void) throws -> Summary {
        let started = Date()
        if FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent("data.mdb")) {
            throw BenchFailure("\(directory) holds a store already; the preload needs an empty data directory")
        }
        var configuration = HouseholdStore.Configuration()
        configuration.passwordParameters = .fastForTests
        // A load test's household is larger than a real one may be (HouseholdView and
        // ListMembers of such a store do not fit a small frame; the benchmarks do not call them).
        configuration.maxMembers = plan.members + 1
        // Start the map near the size the data needs (about 1 KiB a record), so it seldom grows.
        let estimate = plan.members * (plan.recordsPerMember + plan.days) * 1_024
        configuration.environment.mapSize = max(64 << 20, 1 << Int(log2(Double(max(estimate, 1))).rounded(.up)))
        let store = try HouseholdStore(directory: directory, configuration: configuration)
        defer { store.close() }
        _ = try store.createOwner(email: plan.ownerEmail, password: plan.password, firstName: "Bench", lastName: "Owner", timeZone: DataPlan.timeZone)
        var members: [NewMember] = []
        for index in 0..<plan.members {
            var profile = Workout_V1_Profile()
            profile.email = plan.memberEmail(index)
            profile.firstName = "Member"
            profile.lastName = String(index)
            profile.timeZone = DataPlan.timeZone
            profile.shareWithHousehold = true
            members.append(NewMember(profile: profile, password: plan.password))
        }
        var userIDs: [UUID] = []
        for start in stride(from: 0, to: members.count, by: 500) {
            let made = try store.createMembersLocally(Array(members[start..<min(start + 500, members.count)]))
            userIDs += made.map { UUID(bytes: $0.userID) }
        }
        progress("created the owner and \(plan.members) members")
        let plan = self.plan
        let ids = userIDs
        let totals = Mutex((records: 0, commits: 0, members: 0, failure: (any Error)?.none))
        let lanes = max(1, min(2, ProcessInfo.processInfo.activeProcessorCount))
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            for member in stride(from: lane, to: plan.members, by: lanes) {
                if totals.withLock({ $0.failure != nil }) { return }
                do {
                    var generator = TimeOrderedIDGenerator(seed: UInt64(member) &* 0x9E37_79B9 &+ 1)
                    let records = plan.records(ofMember: member, ids: &generator)
                    let summary = try store.importRecordsLocally(for: ids[member], records)
                    let done = totals.withLock { totals -> Int in
                        totals.records += summary.workouts + summary.meals + summary.weights
                        totals.commits += summary.commits
                        totals.members += 1
                        return totals.members
                    }
                    if done % max(1, plan.members / 10) == 0 { progress("imported the records of \(done) of \(plan.members) members") }
                } catch {
                    totals.withLock { $0.failure = error }
                }
            }
        }
        let result = totals.withLock { $0 }
        if let failure = result.failure { throw failure }
        // Goals for every member from the first day (what Goals.Progress judges), and the food
        // library (what Foods.SearchFoods searches), added by the first member.
        var goals = Workout_V1_Goals()
        goals.energyKcal = 2_200
        goals.protein.percentOfEnergy = 20
        goals.dailySteps = 8_000
        goals.weeklyActiveMinutes = 150
        goals.weeklyWorkouts = 4
        for id in ids { try store.seedGoalsLocally(for: id, goals, from: plan.firstDay) }
        if let first = ids.first {
            _ = try store.addFoodsLocally((0..<FoodLibraryPlan.foods).map(FoodLibraryPlan.food), addedBy: first)
        }
        progress("set every member's goals and added \(FoodLibraryPlan.foods) foods to the library")
        return Summary(seconds: Date().timeIntervalSince(started), records: result.records, commits: result.commits)
    }
}
