package import Foundation
import LMDB
import Storage
package import WorkoutProtocol
import WorkoutRules

/// One record of a bulk import, as a client would log it.
package enum ImportedRecord: Sendable, Hashable {
    /// A workout, as in LogWorkout.
    case workout(Workout_V1_Workout)
    /// A meal with its food items, as in LogMeal.
    case meal(Workout_V1_Meal)
    /// A weight entry, as in LogWeight.
    case weight(Workout_V1_WeightEntry)
}

/// What a bulk import did.
package struct ImportSummary: Sendable, Hashable {
    /// Workouts stored.
    package var workouts = 0
    /// Meals stored.
    package var meals = 0
    /// Weight entries stored.
    package var weights = 0
    /// Records that were stored already with the same content (nothing changed for them).
    package var replayed = 0
    /// Achievements the workouts unlocked.
    package var achievementsUnlocked = 0
    /// Write transactions committed.
    package var commits = 0

    package init() {}

    /// Adds another summary's counts.
    package mutating func add(_ other: ImportSummary) {
        workouts += other.workouts
        meals += other.meals
        weights += other.weights
        replayed += other.replayed
        achievementsUnlocked += other.achievementsUnlocked
        commits += other.commits
    }
}

/// Many records of one member at once, for seeding a store (benchmarks, migrations from the
/// app): the rules of LogWorkout, LogMeal and LogWeight exactly — validation, idempotency,
/// per-day figures, indexes, change log, totals, streaks, achievements, the profile's weight —
/// but many records per write transaction instead of one.
///
/// Records are applied in the order given, so the result is the state that logging them one by
/// one in that order gives (revisions included). Give them oldest first: a workout older than
/// the member's latest workout day makes the streak be recomputed from all days, which is
/// correct but slow in bulk.
extension HouseholdStore {
    /// Imports `records` for the member `userID`, from the server machine (having the data
    /// directory is the trust, so no session is needed). Blocks until every batch is durable.
    ///
    /// Every record is validated before anything is written; a record that breaks a rule (a
    /// bound, an id reused with other content or taken by a deleted record) fails the batch it
    /// is in, and the batches before it stay committed.
    ///
    /// - Parameters:
    ///   - userID: The member.
    ///   - records: The records, applied in this order.
    ///   - batchSize: The most records one write transaction takes.
    /// - Returns: What was stored.
    /// - Throws: ``DomainError``: `invalidArgument` for a record out of bounds (its field named
    ///   as in the Log* requests; the message names its index), `notFound` for an unknown member,
    ///   `alreadyExists` as the Log* methods.
    package func importRecordsLocally(for userID: UUID, _ records: [ImportedRecord], batchSize: Int = 10_000) throws -> ImportSummary {
        precondition(batchSize > 0, "batchSize must be positive")
        let now = clock.nowMilliseconds()
        var validated: [(id: UUID, record: ImportedRecord)] = []
        validated.reserveCapacity(records.count)
        for (index, record) in records.enumerated() {
            do {
                switch record {
                case .workout(let workout):
                    let (id, clean) = try validatedWorkout(workout, now: now)
                    validated.append((id, .workout(clean)))
                case .meal(let meal):
                    let (id, clean) = try validatedMeal(meal, now: now)
                    validated.append((id, .meal(clean)))
                case .weight(let entry):
                    let (id, clean) = try validatedEntry(entry, now: now)
                    validated.append((id, .weight(clean)))
                }
            } catch let error as DomainError {
                throw DomainError(error.code, "record \(index): \(error.message)", field: error.field)
            }
        }
        var summary = ImportSummary()
        var start = 0
        while start < validated.count {
            let batch = Array(validated[start..<min(start + batchSize, validated.count)])
            let done = try store.writeAndWait { [self] txn in
                guard var user = try txn.get(userID, from: tables.users.table) else {
                    throw DomainError.notFound("no member with id \(userID)")
                }
                var done = ImportSummary()
                for (id, record) in batch {
                    switch record {
                    case .workout(let workout):
                        let logged = try insertWorkout(workout, id: id, user: &user, now: now, in: &txn)
                        if logged.replayed { done.replayed += 1 } else { done.workouts += 1 }
                        done.achievementsUnlocked += logged.unlocked.count
                    case .meal(let meal):
                        if try insertMeal(meal, id: id, user: &user, now: now, in: &txn).replayed { done.replayed += 1 } else { done.meals += 1 }
                    case .weight(let entry):
                        if try insertWeight(entry, id: id, user: &user, now: now, in: &txn).replayed { done.replayed += 1 } else { done.weights += 1 }
                    }
                }
                try saveUser(&user, profileChanged: false, now: now, in: &txn)
                done.commits = 1
                return done
            }
            summary.add(done)
            changeNotifier.notify(userID)
            start += batch.count
        }
        return summary
    }
}
