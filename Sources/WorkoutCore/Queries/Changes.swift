import Foundation
import LMDB
import Storage
package import WorkoutProtocol
import WorkoutRules

/// "What changed since revision N": the change log, for sync and for the Watch stream.
/// Each item keeps only its latest entry, so a page holds every changed item once, in its
/// current state, or as a tombstone.
extension HouseholdStore {
    /// One page of changes after `since_revision`: at most `page_size` changes, ending early
    /// where the next would not fit `maxResponseBytes` (the client's max frame size). A page
    /// cut short says `has_more`, so the client asks again from its `revision`.
    ///
    /// - Throws: ``DomainError`` `outOfRange` when `since_revision` is above the member's
    ///   revision (the client's copy came from elsewhere: resync from 0).
    package func changes(
        _ caller: Caller, _ request: Workout_V1_ChangesRequest, maxResponseBytes: Int = ResponseBudget.largestReply
    ) throws -> Workout_V1_ChangesResponse {
        let now = clock.nowMilliseconds()
        let size = try Bounds.pageSize(request.pageSize, field: "page_size", maximum: UInt32(PageLimits.changes), defaultSize: 100)
        return try store.read { txn in
            let user = try authorize(caller, in: txn, now: now)
            guard request.sinceRevision <= user.revision else {
                throw DomainError(.outOfRange, "since_revision \(request.sinceRevision) is above your revision \(user.revision); sync again from 0", field: "since_revision")
            }
            let since = UserRevisionKey(user: caller.userID, revision: request.sinceRevision).orderedKey
            let range = KeyRange(lower: .exclusive(since.bytes), upper: KeyRange.prefix(caller.userID.orderedKey).upper)
            var response = Workout_V1_ChangesResponse()
            response.totals = totals(of: user, now: now)
            // The fixed part at its largest: the totals, a revision of 10 bytes and has_more.
            var budget = ResponseBudget(maxBytes: maxResponseBytes, used: try ResponseBudget.encodedSize(of: response) + 11 + 2)
            // Each change is read only when the page still has room for it.
            let resume = try txn.scanPage(tables.changes, ScanRequest(range: range, limit: size)) { key, entry in
                let change = try materialize(entry, revision: key.revision, user: user, in: txn)
                guard try budget.admit(change) else { return .stop }
                response.changes.append(change)
                return .take
            }
            response.hasMore_p = resume != nil
            response.revision = response.hasMore_p ? (response.changes.last?.revision ?? user.revision) : user.revision
            return response
        }
    }

    /// The wire change of a change-log entry: the item in its current state.
    func materialize(
        _ entry: Workout_Store_V1_StoredChange, revision: UInt64, user: Workout_Store_V1_StoredUser,
        in txn: borrowing some TransactionReading & ~Copyable
    ) throws -> Workout_V1_Change {
        let userID = UUID(bytes: user.userID)
        var change = Workout_V1_Change()
        change.revision = revision
        change.changedAtMs = entry.changedAtMs
        let kind = entry.kind
        let recordKey = UserRecordKey(user: userID, id: UUID(bytes: entry.recordID))
        func tombstone(_ kind: Workout_V1_RecordKind) -> Workout_V1_Change.OneOf_Item {
            var tombstone = Workout_V1_Tombstone()
            tombstone.kind = kind
            tombstone.id = entry.recordID
            return .deleted(tombstone)
        }
        switch kind {
        case .workout:
            change.item = try entry.deleted ? tombstone(.workout) : txn.get(recordKey, from: tables.workouts.table).map { .workout($0) } ?? tombstone(.workout)
        case .meal:
            change.item = try entry.deleted ? tombstone(.meal) : txn.get(recordKey, from: tables.meals.table).map { .meal($0) } ?? tombstone(.meal)
        case .weight:
            change.item = try entry.deleted ? tombstone(.weightEntry) : txn.get(recordKey, from: tables.weights.table).map { .weight($0) } ?? tombstone(.weightEntry)
        case .steps:
            change.item = .steps(try stepsDay(of: user, day: LocalDay(epochDay: entry.epochDay), in: txn))
        case .achievement:
            if let achievement = try txn.get(UserNameKey(user: userID, name: entry.achievementID), from: tables.achievements) {
                change.item = .achievement(achievement)
            }
        case .profile:
            change.item = .profile(profile(of: user))
        default:
            break
        }
        return change
    }

    /// The member's current revision, checking the session.
    package func revision(_ caller: Caller) throws -> UInt64 {
        let now = clock.nowMilliseconds()
        return try store.read { txn in try authorize(caller, in: txn, now: now).revision }
    }
}
