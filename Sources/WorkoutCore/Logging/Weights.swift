import Foundation
import LMDB
import Storage
package import WorkoutProtocol
import WorkoutRules

/// Weight entries. The newest entry (by measurement time) also sets the profile's weight:
/// logging an entry at least as new as the one that set it sets it; updating or deleting the
/// entry that set it hands it to the newest remaining entry; with no entry left, the profile
/// keeps the weight it had (a stated weight, as UpdateProfile sets it, is not a measurement
/// that deleting measurements could take back).
extension HouseholdStore {
    /// Validates a weight entry from a request.
    func validatedEntry(_ entry: Workout_V1_WeightEntry, now: Int64) throws -> (id: UUID, entry: Workout_V1_WeightEntry) {
        let id = try Bounds.recordID(entry.id, field: "entry.id")
        try RecordValidation.weight(
            weightKg: entry.weightKg, measuredAtMs: entry.measuredAtMs, note: entry.note, timeZone: entry.timeZone,
            names: RecordFieldNames(.wire, prefix: "entry"), now: now)
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

    /// Replaces a weight entry's fields (expected revision, change log, Watch, like
    /// UpdateWorkout and UpdateMeal) and keeps the profile's weight in step: if the entry is
    /// now at least as new as the one that set the profile's weight, it sets it; if it was
    /// that entry and is no longer the newest, the newest entry sets it. An update with the
    /// same content changes nothing, not even the revision.
    ///
    /// - Throws: ``DomainError`` `notFound` for an id the caller has no entry with, `aborted`
    ///   when `expected_revision` is set and the entry changed meanwhile, `invalidArgument`.
    package func updateWeight(_ caller: Caller, _ request: Workout_V1_UpdateWeightRequest) async throws -> Workout_V1_UpdateWeightResponse {
        let now = clock.nowMilliseconds()
        let (id, requested) = try validatedEntry(request.entry, now: now)
        return try await write(notifying: caller.userID) { [self] txn in
            var user = try authorize(caller, in: txn, now: now)
            let key = UserRecordKey(user: caller.userID, id: id)
            guard let old = try txn.get(key, from: tables.weights.table) else {
                throw DomainError.notFound("you have no weight entry with this id")
            }
            if request.expectedRevision != 0, request.expectedRevision != old.revision {
                throw DomainError.aborted("the weight entry changed meanwhile (revision \(old.revision), expected \(request.expectedRevision))")
            }
            var entry = requested
            let zone = try recordZone(entry.timeZone, field: "entry.time_zone", user: user)
            entry.timeZone = zone.name
            var response = Workout_V1_UpdateWeightResponse()
            guard old.weightKg != entry.weightKg || old.measuredAtMs != entry.measuredAtMs
                || old.timeZone != entry.timeZone || old.note != entry.note
            else {
                response.entry = old
                response.profileWeightKg = user.weightKg
                return response
            }
            entry.localDay = LocalDay.containing(instant: entry.measuredAtMs, in: zone.zone).wire
            entry.createdAtMs = old.createdAtMs
            entry.revision = try fileRecordChange(.weight, id: id, previousRevision: old.revision, user: &user, now: now, in: &txn)
            try txn.put(entry, forKey: key, in: tables.weights)

            let weightBefore = user.weightKg
            if user.weightEntryID.isEmpty || entry.measuredAtMs >= user.weightMeasuredAtMs {
                user.weightKg = entry.weightKg
                user.weightMeasuredAtMs = entry.measuredAtMs
                user.weightEntryID = entry.id
            } else if user.weightEntryID == entry.id {
                // It set the profile's weight and moved back in time: the newest entry sets it.
                try setProfileWeightFromNewestEntry(&user, in: txn)
            }
            let profileWeightUpdated = weightBefore != user.weightKg
            try saveUser(&user, profileChanged: profileWeightUpdated, now: now, in: &txn)
            response.entry = entry
            response.profileWeightUpdated = profileWeightUpdated
            response.profileWeightKg = user.weightKg
            return response
        }
    }

    /// Sets the profile's weight from the member's newest entry; with no entry left, the
    /// weight stays as it was and no entry is marked as having set it.
    private func setProfileWeightFromNewestEntry(_ user: inout Workout_Store_V1_StoredUser, in txn: borrowing some TransactionReading & ~Copyable) throws {
        let newest = try txn.scanRecords(
            tables.weightsByTime, in: tables.weights,
            ScanRequest(range: .prefix(UUID(bytes: user.userID).orderedKey), direction: .backward, limit: 1)).elements.first
        user.weightEntryID = newest?.value.id ?? Data()
        user.weightMeasuredAtMs = newest?.value.measuredAtMs ?? 0
        if let newest { user.weightKg = newest.value.weightKg }
    }

    /// Deletes a weight entry (idempotent); if it had set the profile's weight, the next
    /// newest entry sets it now (with none left, the profile keeps its weight).
    package func deleteWeight(_ caller: Caller, _ request: Workout_V1_DeleteWeightRequest) async throws -> Workout_V1_DeleteWeightResponse {
        let id = try Bounds.recordID(request.id, field: "id")
        let now = clock.nowMilliseconds()
        return try await write(notifying: caller.userID) { [self] txn in
            var user = try authorize(caller, in: txn, now: now)
            var response = Workout_V1_DeleteWeightResponse()
            guard let old = try txn.delete(UserRecordKey(user: caller.userID, id: id), from: tables.weights) else { return response }
            try fileTombstone(.weight, id: id, previousRevision: old.revision, user: &user, now: now, in: &txn)
            let setProfile = user.weightEntryID == old.id
            if setProfile { try setProfileWeightFromNewestEntry(&user, in: txn) }
            try saveUser(&user, profileChanged: setProfile, now: now, in: &txn)
            response.deleted = true
            return response
        }
    }
}
