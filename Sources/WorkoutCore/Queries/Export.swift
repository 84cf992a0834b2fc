import Foundation
import LMDB
import Storage
import SwiftProtobuf
package import WorkoutProtocol
import WorkoutRules

/// Where an export stands between two chunks: which kind of record comes next and the key to
/// resume after. Each chunk is read in a read transaction of its own, when the stream has room
/// for it, so neither the export nor an LMDB snapshot is held while a slow phone drains it.
package struct ExportCursor: Sendable {
    enum Stage: Sendable, Equatable {
        case profile, workouts, meals, weights, steps, achievements, goals, done
    }

    /// Whose data.
    let caller: Caller
    /// The member's revision when the export began (every chunk carries it).
    package let revision: UInt64
    /// When the export began.
    let exportedAtMs: Int64
    var stage = Stage.profile
    /// The key to continue after, within `stage`.
    var resumeAfter: [UInt8]?
    /// Unlocked achievements already sent (they are listed by time, not key).
    var achievementsSent = 0

    /// Whether every chunk has been produced.
    package var isFinished: Bool { stage == .done }
}

/// All of one's own data, in chunks a stream can carry, produced one at a time.
extension HouseholdStore {
    /// Begins an export of the caller's data.
    ///
    /// - Throws: ``DomainError`` `unauthenticated` for a session that is no longer valid.
    package func beginExport(_ caller: Caller) throws -> ExportCursor {
        let now = clock.nowMilliseconds()
        let revision = try store.read { txn in try authorize(caller, in: txn, now: now).revision }
        return ExportCursor(caller: caller, revision: revision, exportedAtMs: now)
    }

    /// The next chunk of at most `maxChunkBytes` encoded bytes (a single record larger than
    /// that travels alone), or `nil` after the last: profile and totals in the first, then
    /// workouts, meals, weight entries, steps days, unlocked achievements and goal entries, each oldest first.
    ///
    /// Each chunk is read from the store as it is when the chunk is made: a record changed or
    /// deleted during a long export shows as it is then (a changed record's revision is above
    /// the export's `revision`); following with `Changes` from that revision converges on the
    /// present (PROTOCOL.md, Streams.Export). The session is checked for every chunk.
    package func nextExportChunk(_ cursor: inout ExportCursor, maxChunkBytes: Int) throws -> Workout_V1_ExportChunk? {
        guard !cursor.isFinished else { return nil }
        let now = clock.nowMilliseconds()
        return try store.read { txn in
            let user = try authorize(cursor.caller, in: txn, now: now)
            var chunk = Workout_V1_ExportChunk()
            chunk.revision = cursor.revision
            chunk.exportedAtMs = cursor.exportedAtMs
            if cursor.stage == .profile {
                chunk.profile = profile(of: user)
                chunk.totals = totals(of: user, now: now)
                cursor.stage = .workouts
            }
            var budget = ResponseBudget(maxBytes: maxChunkBytes, used: try ResponseBudget.encodedSize(of: chunk))
            let prefix = KeyRange.prefix(cursor.caller.userID.orderedKey)
            guard try Self.appendRecords(tables.workoutsByTime, in: tables.workouts, prefix: prefix, from: txn, stage: .workouts,
                                         cursor: &cursor, budget: &budget, into: &chunk.workouts),
                  try Self.appendRecords(tables.mealsByTime, in: tables.meals, prefix: prefix, from: txn, stage: .meals,
                                         cursor: &cursor, budget: &budget, into: &chunk.meals),
                  try Self.appendRecords(tables.weightsByTime, in: tables.weights, prefix: prefix, from: txn, stage: .weights,
                                         cursor: &cursor, budget: &budget, into: &chunk.weights)
            else { return chunk }
            while cursor.stage == .steps {
                // One day's reports (one per device) travel together.
                var day = Workout_V1_StepsDay()
                var dayEpoch: Int32?
                var after = cursor.resumeAfter
                var reachedEnd = false
                while true {
                    let page = try txn.scan(tables.steps, ScanRequest(range: prefix, limit: 1, after: after))
                    guard let (key, report) = page.elements.first else { reachedEnd = true; break }
                    if let dayEpoch, key.epochDay != dayEpoch { break }
                    dayEpoch = key.epochDay
                    day.sources.append(report)
                    after = page.resumeAfter
                    if after == nil { reachedEnd = true; break }
                }
                guard let dayEpoch else { cursor.advance(); break }
                day = stepsDay(LocalDay(epochDay: dayEpoch), reports: day.sources, priority: user.stepsSourcePriority)
                guard try budget.admit(day) else { return chunk }
                chunk.steps.append(day)
                cursor.moveOn(after: reachedEnd ? nil : after)
            }
            if cursor.stage == .achievements {
                // A member has a bounded number (one per kind); listed oldest first, like every kind.
                let achievements = try txn.scan(tables.achievements, ScanRequest(range: prefix)).elements.map(\.value)
                    .sorted { ($0.unlockedAtMs, $0.achievementID) < ($1.unlockedAtMs, $1.achievementID) }
                for achievement in achievements.dropFirst(cursor.achievementsSent) {
                    guard try budget.admit(achievement) else { return chunk }
                    chunk.achievements.append(achievement)
                    cursor.achievementsSent += 1
                }
                cursor.advance()
            }
            while cursor.stage == .goals {
                let page = try txn.scan(tables.goals, ScanRequest(range: prefix, limit: 1, after: cursor.resumeAfter))
                guard let entry = page.elements.first?.value else {
                    cursor.advance()
                    break
                }
                guard try budget.admit(entry) else { return chunk }
                chunk.goals.append(entry)
                cursor.moveOn(after: page.resumeAfter)
            }
            return chunk
        }
    }

    /// Appends records of one time-ordered kind, oldest first, while `cursor` is at `stage` and
    /// they fit the budget; each is one index step from the resume key, so a chunk ends exactly
    /// where it is full.
    ///
    /// - Returns: `false` when the chunk is full (the cursor stays at the record that did not fit).
    static func appendRecords<IK, K, V: SwiftProtobuf.Message>(
        _ index: SecondaryIndex<IK, K, V>, in table: IndexedTable<K, V>, prefix: KeyRange,
        from txn: borrowing ReadTransaction, stage: ExportCursor.Stage,
        cursor: inout ExportCursor, budget: inout ResponseBudget, into records: inout [V]
    ) throws -> Bool {
        while cursor.stage == stage {
            let page = try txn.scanRecords(index, in: table, ScanRequest(range: prefix, limit: 1, after: cursor.resumeAfter))
            guard let record = page.elements.first?.value else {
                cursor.advance()
                break
            }
            guard try budget.admit(record) else { return false }
            records.append(record)
            cursor.moveOn(after: page.resumeAfter)
        }
        return true
    }

    /// The whole export at once (tests and tools; the server streams with
    /// ``nextExportChunk(_:maxChunkBytes:)``).
    package func export(_ caller: Caller, maxChunkBytes: Int = 256 << 10) throws -> [Workout_V1_ExportChunk] {
        var cursor = try beginExport(caller)
        var chunks: [Workout_V1_ExportChunk] = []
        while let chunk = try nextExportChunk(&cursor, maxChunkBytes: maxChunkBytes) { chunks.append(chunk) }
        return chunks
    }
}

extension ExportCursor {
    /// Continues after `key` within the stage, or with the next stage when the scan ended.
    mutating func moveOn(after key: [UInt8]?) {
        if let key { resumeAfter = key } else { advance() }
    }

    /// Moves to the next kind of record.
    mutating func advance() {
        resumeAfter = nil
        stage = switch stage {
        case .profile: .workouts
        case .workouts: .meals
        case .meals: .weights
        case .weights: .steps
        case .steps: .achievements
        case .achievements: .goals
        case .goals, .done: .done
        }
    }
}
