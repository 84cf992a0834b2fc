import Foundation
import LMDB
import Storage
import SwiftProtobuf
package import WorkoutProtocol

/// All of one's own data, from one consistent snapshot, in chunks a stream can carry.
extension HouseholdStore {
    /// The caller's data in chunks of at most about `maxChunkBytes` encoded bytes each:
    /// profile and totals in the first, then workouts, meals, weight entries, steps days and
    /// unlocked achievements, each oldest first.
    package func export(_ caller: Caller, maxChunkBytes: Int = 256 << 10) throws -> [Workout_V1_ExportChunk] {
        let now = clock.nowMilliseconds()
        return try store.read { txn in
            let user = try authorize(caller, in: txn, now: now)
            let prefix = ScanRequest(range: .prefix(caller.userID.orderedKey))
            var chunks: [Workout_V1_ExportChunk] = []
            var current = Workout_V1_ExportChunk()
            current.profile = profile(of: user)
            current.totals = totals(of: user, now: now)
            var size = 0
            func startChunkIfFull(adding bytes: Int) {
                if size + bytes > maxChunkBytes, size > 0 {
                    chunks.append(current)
                    current = Workout_V1_ExportChunk()
                    size = 0
                }
                size += bytes
            }
            for (_, workout) in try txn.scanRecords(tables.workoutsByTime, in: tables.workouts, prefix).elements {
                startChunkIfFull(adding: (try? workout.serializedBytes() as [UInt8])?.count ?? 0)
                current.workouts.append(workout)
            }
            for (_, meal) in try txn.scanRecords(tables.mealsByTime, in: tables.meals, prefix).elements {
                startChunkIfFull(adding: (try? meal.serializedBytes() as [UInt8])?.count ?? 0)
                current.meals.append(meal)
            }
            for (_, entry) in try txn.scanRecords(tables.weightsByTime, in: tables.weights, prefix).elements {
                startChunkIfFull(adding: (try? entry.serializedBytes() as [UInt8])?.count ?? 0)
                current.weights.append(entry)
            }
            var days: [Int32: [Workout_V1_StepsReport]] = [:]
            for (key, report) in try txn.scan(tables.steps, prefix).elements { days[key.epochDay, default: []].append(report) }
            for epochDay in days.keys.sorted() {
                var day = Workout_V1_StepsDay()
                day.day = LocalDay(epochDay: epochDay).wire
                day.sources = days[epochDay]!
                day.steps = StepsRule.dayTotal(day.sources.map(\.steps))
                day.revision = day.sources.map(\.revision).max() ?? 0
                startChunkIfFull(adding: (try? day.serializedBytes() as [UInt8])?.count ?? 0)
                current.steps.append(day)
            }
            for (_, achievement) in try txn.scan(tables.achievements, prefix).elements {
                startChunkIfFull(adding: 64)
                current.achievements.append(achievement)
            }
            chunks.append(current)
            for index in chunks.indices {
                chunks[index].revision = user.revision
                chunks[index].exportedAtMs = now
            }
            return chunks
        }
    }
}
