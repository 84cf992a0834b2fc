import Foundation
import LMDB
import Storage
import SwiftProtobuf
package import WorkoutProtocol

/// All of one's own data, from one consistent snapshot, in chunks a stream can carry.
extension HouseholdStore {
    /// The caller's data in chunks of at most `maxChunkBytes` encoded bytes each (a single
    /// record larger than that travels alone): profile and totals in the first, then workouts,
    /// meals, weight entries, steps days and unlocked achievements, each oldest first. Every
    /// chunk carries the snapshot's revision and the export's time.
    package func export(_ caller: Caller, maxChunkBytes: Int = 256 << 10) throws -> [Workout_V1_ExportChunk] {
        let now = clock.nowMilliseconds()
        return try store.read { txn in
            let user = try authorize(caller, in: txn, now: now)
            let prefix = ScanRequest(range: .prefix(caller.userID.orderedKey))
            var chunks: [Workout_V1_ExportChunk] = []
            var current = Workout_V1_ExportChunk()
            current.revision = user.revision
            current.exportedAtMs = now
            let header = current
            current.profile = profile(of: user)
            current.totals = totals(of: user, now: now)
            // The encoded size of `current` so far, and whether it holds a record yet.
            var size = try Self.encodedSize(of: current)
            var holdsRecords = false
            func startChunkIfFull(adding record: some SwiftProtobuf.Message) throws {
                let bytes = Self.repeatedFieldBytes(try Self.encodedSize(of: record))
                if size + bytes > maxChunkBytes, holdsRecords {
                    chunks.append(current)
                    current = header
                    size = try Self.encodedSize(of: header)
                }
                size += bytes
                holdsRecords = true
            }
            for (_, workout) in try txn.scanRecords(tables.workoutsByTime, in: tables.workouts, prefix).elements {
                try startChunkIfFull(adding: workout)
                current.workouts.append(workout)
            }
            for (_, meal) in try txn.scanRecords(tables.mealsByTime, in: tables.meals, prefix).elements {
                try startChunkIfFull(adding: meal)
                current.meals.append(meal)
            }
            for (_, entry) in try txn.scanRecords(tables.weightsByTime, in: tables.weights, prefix).elements {
                try startChunkIfFull(adding: entry)
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
                try startChunkIfFull(adding: day)
                current.steps.append(day)
            }
            // Stored by id; listed oldest first, like every other kind.
            let achievements = try txn.scan(tables.achievements, prefix).elements.map(\.value)
                .sorted { ($0.unlockedAtMs, $0.achievementID) < ($1.unlockedAtMs, $1.achievementID) }
            for achievement in achievements {
                try startChunkIfFull(adding: achievement)
                current.achievements.append(achievement)
            }
            chunks.append(current)
            return chunks
        }
    }

    /// The encoded size of `message` in bytes.
    static func encodedSize(of message: some SwiftProtobuf.Message) throws -> Int {
        (try message.serializedBytes() as [UInt8]).count
    }

    /// What one element of `bytes` encoded bytes adds to a repeated message field numbered
    /// below 16: a one-byte tag, the length as a varint, and the element.
    static func repeatedFieldBytes(_ bytes: Int) -> Int {
        var lengthBytes = 1
        var rest = bytes >> 7
        while rest > 0 {
            lengthBytes += 1
            rest >>= 7
        }
        return 1 + lengthBytes + bytes
    }
}
