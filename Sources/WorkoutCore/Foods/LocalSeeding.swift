package import Foundation
import LMDB
import Storage
package import WorkoutProtocol
package import WorkoutRules

/// Seeding goals and the food library from the server machine (local trust, like
/// `createOwner` and `importRecordsLocally`): for benchmarks and migrations. The same checks
/// as SetGoals and AddFoods; many foods per durable commit.
extension HouseholdStore {
    /// Sets `user`'s goals from `day` on, as SetGoals would for them (without the rules that need
    /// a caller: the children's are not applied, so seed adults).
    package func seedGoalsLocally(for user: UUID, _ goals: Workout_V1_Goals, from day: LocalDay) throws {
        let set = try GoalSet(wire: goals, field: "set")
        try GoalLimits.check(set, field: "set")
        try GoalLimits.checkWhole(set, effectiveFrom: day, field: "set")
        let now = clock.nowMilliseconds()
        try store.writeAndWait { [self] txn in
            guard try txn.get(user, from: tables.users.table) != nil else { throw DomainError.notFound("no member has this id") }
            _ = try storeGoals(set, for: user, from: day, by: user, now: now, in: &txn)
        }
    }

    /// Adds foods to the library as `user` added them, 500 a commit (AddFoods' checks).
    ///
    /// - Returns: How many were new.
    package func addFoodsLocally(_ foods: [Workout_V1_Food], addedBy user: UUID) throws -> Int {
        var added = 0
        let now = clock.nowMilliseconds()
        for start in stride(from: 0, to: foods.count, by: FoodLimits.mostFoodsPerCall) {
            var request = Workout_V1_AddFoodsRequest()
            request.foods = Array(foods[start..<min(start + FoodLimits.mostFoodsPerCall, foods.count)])
            let checked = try validatedFoods(request)
            let answer = try store.writeAndWait { [self] txn in
                guard try txn.get(user, from: tables.users.table) != nil else { throw DomainError.notFound("no member has this id") }
                return try storeFoods(checked, addedBy: user, now: now, in: &txn)
            }
            added += answer.foods.count - Int(answer.replayed)
        }
        return added
    }
}
