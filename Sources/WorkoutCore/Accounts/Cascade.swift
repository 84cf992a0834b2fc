import Foundation
import LMDB
import Storage
import WorkoutProtocol

/// Deleting a member deletes everything of theirs: every table keyed by their id.
extension HouseholdStore {
    /// Removes the member `user` and all their records, indexes, sessions and logs.
    func deleteEverything(of user: UUID, in txn: inout WriteTransaction) throws {
        let prefix = ScanRequest(range: .prefix(user.orderedKey))
        for key in try txn.scanKeys(tables.workouts.table, prefix).elements { try txn.delete(key, from: tables.workouts) }
        for key in try txn.scanKeys(tables.meals.table, prefix).elements { try txn.delete(key, from: tables.meals) }
        for key in try txn.scanKeys(tables.weights.table, prefix).elements { try txn.delete(key, from: tables.weights) }
        for key in try txn.scanKeys(tables.steps, prefix).elements { try txn.delete(key, from: tables.steps) }
        for key in try txn.scanKeys(tables.stepsSamples, prefix).elements { try txn.delete(key, from: tables.stepsSamples) }
        for key in try txn.scanKeys(tables.days, prefix).elements { try txn.delete(key, from: tables.days) }
        for key in try txn.scanKeys(tables.achievements, prefix).elements { try txn.delete(key, from: tables.achievements) }
        for key in try txn.scanKeys(tables.changes, prefix).elements { try txn.delete(key, from: tables.changes) }
        for key in try txn.scanKeys(tables.tombstones, prefix).elements { try txn.delete(key, from: tables.tombstones) }
        for key in try txn.scanKeys(tables.goals, prefix).elements { try txn.delete(key, from: tables.goals) }
        for key in try txn.scanKeys(tables.foodUses.table, prefix).elements { try txn.delete(key, from: tables.foodUses) }
        for key in try txn.scanKeys(tables.templates, prefix).elements { try txn.delete(key, from: tables.templates) }
        for (key, _) in try credentials(of: user, in: txn) { try txn.delete(key, from: tables.sessions) }
        // The foods they added stay the household's, no longer naming them (a rare walk of the library).
        for (id, food) in try txn.scan(tables.foods.table, ScanRequest()).elements where food.addedBy == user.data {
            var kept = food
            kept.addedBy = Data()
            _ = try txn.put(kept, forKey: id, in: tables.foods)
        }
        try txn.delete(user, from: tables.users)
    }
}
