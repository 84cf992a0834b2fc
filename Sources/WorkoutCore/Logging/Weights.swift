import Foundation
import LMDB
import Storage
package import WorkoutProtocol

/// Weight entries. The newest entry (by measurement time) also sets the profile's weight.
extension HouseholdStore {
    /// Validates a weight entry from a request.
    func validatedEntry(_ entry: Workout_V1_WeightEntry, now: Int64) throws -> (id: UUID, entry: Workout_V1_WeightEntry) {
        let id = try Bounds.recordID(entry.id, field: "entry.id")
        try Bounds.number(entry.weightKg, field: "entry.weight_kg", range: 10...500)
        try Bounds.eventTime(entry.measuredAtMs, field: "entry.measured_at_ms", now: now)
        try Bounds.text(entry.note, field: "entry.note", bytes: 0...256)
        if !entry.timeZone.isEmpty { _ = try TimeZoneCatalog.zone(named: entry.timeZone, field: "entry.time_zone") }
        var clean = Workout_V1_WeightEntry()
        clean.id = id.data
        clean.weightKg = entry.weightKg
        clean.measuredAtMs = entry.measuredAtMs
        clean.timeZone = entry.timeZone
        clean.note = entry.note
        return (id, clean)
    }

    /// Logs a weight entry (idempotent by its client id).
    package func logWeight(_ caller: Caller, _ request: Workout_V1_LogWeightRequest) async throws -> Workout_V1_LogWeightResponse {
        let now = clock.nowMilliseconds()
        let (id, requested) = try validatedEntry(request.entry, now: now)
        return try await write(notifying: caller.userID) { [self] txn in
            var user = try authorize(caller, in: txn, now: now)
            let logged = try insertWeight(requested, id: id, user: &user, now: now, in: &txn)
            if !logged.replayed { try saveUser(&user, profileChanged: false, now: now, in: &txn) }
            var response = Workout_V1_LogWeightResponse()
            response.entry = logged.entry
            response.replayed = logged.replayed
            response.profileWeightUpdated = logged.profileWeightUpdated
            return response
        }
    }

    /// Applies a validated weight entry to `user` inside `txn`: the record and the change log,
    /// and, when it is the newest entry, the profile's weight (filing a profile change). The
    /// caller stores `user` afterwards unless `replayed`.
    func insertWeight(
        _ requested: Workout_V1_WeightEntry, id: UUID, user: inout Workout_Store_V1_StoredUser, now: Int64, in txn: inout WriteTransaction
    ) throws -> (entry: Workout_V1_WeightEntry, replayed: Bool, profileWeightUpdated: Bool) {
        let userID = UUID(bytes: user.userID)
        var entry = requested
        let zone = try recordZone(entry.timeZone, field: "entry.time_zone", user: user)
        entry.timeZone = zone.name
        let key = UserRecordKey(user: userID, id: id)
        if let existing = try txn.get(key, from: tables.weights.table) {
            guard existing.weightKg == entry.weightKg, existing.measuredAtMs == entry.measuredAtMs,
                  existing.timeZone == entry.timeZone, existing.note == entry.note
            else { throw DomainError.alreadyExists("a different weight entry with this id exists", field: "entry.id") }
            return (existing, true, false)
        }
        try refuseTombstoned(.weight, user: userID, id: id, field: "entry.id", in: txn)
        entry.localDay = LocalDay.containing(instant: entry.measuredAtMs, in: zone.zone).wire
        entry.createdAtMs = now
        entry.revision = try fileRecordChange(.weight, id: id, previousRevision: nil, user: &user, now: now, in: &txn)
        try txn.put(entry, forKey: key, in: tables.weights)
        let newest = user.weightEntryID.isEmpty || entry.measuredAtMs >= user.weightMeasuredAtMs
        if newest {
            user.weightKg = entry.weightKg
            user.weightMeasuredAtMs = entry.measuredAtMs
            user.weightEntryID = entry.id
            try fileProfileChange(&user, now: now, in: &txn)
        }
        return (entry, false, newest)
    }

    /// Deletes a weight entry (idempotent); if it had set the profile's weight, the next
    /// newest entry sets it now.
    package func deleteWeight(_ caller: Caller, _ request: Workout_V1_DeleteWeightRequest) async throws -> Workout_V1_DeleteWeightResponse {
        let id = try Bounds.recordID(request.id, field: "id")
        let now = clock.nowMilliseconds()
        return try await write(notifying: caller.userID) { [self] txn in
            var user = try authorize(caller, in: txn, now: now)
            var response = Workout_V1_DeleteWeightResponse()
            guard let old = try txn.delete(UserRecordKey(user: caller.userID, id: id), from: tables.weights) else { return response }
            try fileTombstone(.weight, id: id, previousRevision: old.revision, user: &user, now: now, in: &txn)
            let setProfile = user.weightEntryID == old.id
            if setProfile {
                let newest = try txn.scanRecords(
                    tables.weightsByTime, in: tables.weights,
                    ScanRequest(range: .prefix(caller.userID.orderedKey), direction: .backward, limit: 1)).elements.first
                user.weightEntryID = newest?.value.id ?? Data()
                user.weightMeasuredAtMs = newest?.value.measuredAtMs ?? 0
                if let newest { user.weightKg = newest.value.weightKg }
            }
            try saveUser(&user, profileChanged: setProfile, now: now, in: &txn)
            response.deleted = true
            return response
        }
    }
}
