import Foundation
import LMDB
import Storage
package import WorkoutProtocol
import WorkoutRules

/// `Logging.ImportRecords`: a member brings their history in, in batches.
///
/// A batch is one write of the group commit, like any Log* call: the records are applied in
/// the order given with the rules of LogWorkout, LogMeal, LogWeight and ReportSteps (validation,
/// idempotency by id, per-day figures, indexes, change log, the profile's weight), and the
/// streak and the achievements are settled once at the end of the batch instead of after each
/// workout, and the steps-goal runs once over the days the batch's steps touched. Streaks only
/// grow and achievements depend only on the workout count, the longest streak and the longest
/// steps-goal run, which only grow while records are added, so the totals, points, level and
/// achievements come out exactly as if each record had been logged live; only the order of the
/// revisions differs (the achievements' changes come after the batch's records).
extension HouseholdStore {
    /// The most records one batch may hold.
    package static let maxImportBatchRecords = 1_000

    /// One validated record of a batch.
    private enum ValidatedImport: Sendable {
        case workout(UUID, Workout_V1_Workout)
        case meal(UUID, Workout_V1_Meal)
        case weight(UUID, Workout_V1_WeightEntry)
        case steps(LocalDay, Workout_V1_StepsReport)
        case stepsSample(LocalDay, Workout_V1_StepsSample)
    }

    /// Imports one batch of the caller's records.
    ///
    /// - Parameter request: 1...``maxImportBatchRecords`` records, each one kind.
    /// - Returns: What the batch stored, what it left unchanged, the achievements it unlocked,
    ///   the totals and the revision after it.
    /// - Throws: ``DomainError``: `invalidArgument` naming the record's field
    ///   (`records[3].workout.duration_seconds`); `alreadyExists` for an id reused with other
    ///   content or taken by a deleted record (the field names the record); `resourceExhausted`
    ///   with a retry-after when the member sent more batches than the pacer allows. Nothing of
    ///   the batch is written when it throws.
    package func importRecords(_ caller: Caller, _ request: Workout_V1_ImportRecordsRequest) async throws -> Workout_V1_ImportRecordsResponse {
        let now = clock.nowMilliseconds()
        guard (1...Self.maxImportBatchRecords).contains(request.records.count) else {
            throw DomainError.invalid("records", "records must hold 1 to \(Self.maxImportBatchRecords) records (got \(request.records.count))")
        }
        let batch = try request.records.enumerated().map { index, record in
            try validatedImport(record, index: index, now: now)
        }
        try importPacer.admit(member: caller.userID, now: now)
        return try await write(notifying: caller.userID) { [self] txn in
            var user = try authorize(caller, in: txn, now: now)
            let revisionBefore = user.revision
            var response = Workout_V1_ImportRecordsResponse()
            var addedDays: [LocalDay] = []
            var stepsDays: ClosedRange<LocalDay>?
            var sampledDays: Set<SampledDay> = []
            var keptSamples: [UserStepsKey: Int] = [:]
            for (index, record) in batch.enumerated() {
                do {
                    switch record {
                    case .workout(let id, let workout):
                        let logged = try insertWorkout(workout, id: id, user: &user, now: now, in: &txn, updatingStreakAndAchievements: false)
                        if logged.replayed {
                            response.unchanged += 1
                        } else {
                            response.workouts += 1
                            addedDays.append(try LocalDay(wire: logged.workout.localDay, field: "workout.local_day"))
                        }
                    case .meal(let id, let meal):
                        if try insertMeal(meal, id: id, user: &user, now: now, in: &txn).replayed { response.unchanged += 1 } else { response.meals += 1 }
                    case .weight(let id, let entry):
                        if try insertWeight(entry, id: id, user: &user, now: now, in: &txn).replayed { response.unchanged += 1 } else { response.weightEntries += 1 }
                    case .steps(let day, let report):
                        if try insertStepsReport(report, field: "steps", day: day, user: &user, now: now, in: &txn) {
                            response.stepsReports += 1
                            stepsDays = stepsDays.map { min($0.lowerBound, day)...max($0.upperBound, day) } ?? day...day
                        } else {
                            response.unchanged += 1
                        }
                    case .stepsSample(let day, let sample):
                        if try keepStepsSample(sample, field: "steps_sample", day: day, user: caller.userID, kept: &keptSamples, in: &txn) {
                            response.stepsSamples += 1
                            sampledDays.insert(SampledDay(day: day, source: sample.source, record: index))
                        } else {
                            response.unchanged += 1
                        }
                    }
                } catch let error as DomainError {
                    throw DomainError(
                        error.code, "records[\(index)]: \(error.message)",
                        field: error.field.map { "records[\(index)].\(Self.importField($0))" })
                }
            }
            // Each source's day whose samples changed is summed once, after the whole batch.
            for sampled in sampledDays.sorted(by: { ($0.day, $0.source) < ($1.day, $1.source) }) {
                do {
                    if try sumStepsSamples(of: sampled.source, day: sampled.day, field: "steps_sample", user: &user, now: now, in: &txn) {
                        response.stepsReports += 1
                    }
                } catch let error as DomainError {
                    throw DomainError(
                        error.code, "records[\(sampled.record)]: \(error.message)", field: error.field.map { "records[\(sampled.record)].\($0)" })
                }
                stepsDays = stepsDays.map { min($0.lowerBound, sampled.day)...max($0.upperBound, sampled.day) } ?? sampled.day...sampled.day
            }
            response.unlocked = try settleStreakAndAchievements(addedDays: addedDays, user: &user, now: now, in: &txn)
            if let stepsDays { response.unlocked += try settleStepsGoalRuns(changed: stepsDays, user: &user, now: now, in: &txn) }
            if user.revision != revisionBefore { try saveUser(&user, profileChanged: false, now: now, in: &txn) }
            response.totals = totals(of: user, now: now)
            response.revision = user.revision
            return response
        }
    }

    /// After workouts were inserted without their streak and achievements: the streak with
    /// the new days (added one by one while they extend it in order, else recomputed once
    /// from the stored days), then the achievements the totals now reach.
    ///
    /// - Returns: The achievements unlocked.
    func settleStreakAndAchievements(
        addedDays: [LocalDay], user: inout Workout_Store_V1_StoredUser, now: Int64, in txn: inout WriteTransaction
    ) throws -> [Workout_V1_Achievement] {
        guard !addedDays.isEmpty else { return [] }
        var summary: StreakSummary? = streak(of: user.totals)
        for day in addedDays {
            guard let current = summary else { break }
            summary = Streaks.adding(day, to: current)
        }
        apply(try summary ?? recomputeStreaks(of: UUID(bytes: user.userID), in: txn), to: &user.totals)
        return try unlockAchievements(user: &user, now: now, in: &txn)
    }

    /// A source's day whose samples a batch changed, with the first record that changed it (named
    /// if summing it fails).
    private struct SampledDay: Hashable {
        var day: LocalDay
        var source: String
        var record: Int

        static func == (lhs: SampledDay, rhs: SampledDay) -> Bool { lhs.day == rhs.day && lhs.source == rhs.source }
        func hash(into hasher: inout Hasher) {
            hasher.combine(day)
            hasher.combine(source)
        }
    }

    /// Why ImportRecords would refuse `record`, in words naming the field as its Log* request
    /// names it (`steps_sample.steps must be …`), or `nil`: what the phone bridges' ingest checks
    /// first, so one bad record of a push is counted and skipped, not the whole push refused.
    package func importRefusal(of record: Workout_V1_ImportRecord) -> String? {
        do {
            _ = try validatedRecord(record, now: clock.nowMilliseconds())
            return nil
        } catch let error as DomainError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    /// Validates record `index` of a batch, naming its fields `records[index].<kind>.<field>`.
    private func validatedImport(_ record: Workout_V1_ImportRecord, index: Int, now: Int64) throws -> ValidatedImport {
        let prefix = "records[\(index)]"
        do {
            return try validatedRecord(record, now: now)
        } catch let error as DomainError {
            throw DomainError(error.code, "\(prefix): \(error.message)", field: error.field.map { "\(prefix).\(Self.importField($0))" })
        }
    }

    /// Validates one record, its fields named as its Log* request names them.
    private func validatedRecord(_ record: Workout_V1_ImportRecord, now: Int64) throws -> ValidatedImport {
        switch record.record {
        case .workout(let workout):
            let (id, clean) = try validatedWorkout(workout, now: now)
            return .workout(id, clean)
        case .meal(let meal):
            let (id, clean) = try validatedMeal(meal, now: now)
            return .meal(id, clean)
        case .weightEntry(let entry):
            let (id, clean) = try validatedEntry(entry, now: now)
            return .weight(id, clean)
        case .steps(let report):
            let (day, clean) = try validatedStepsReport(report, field: "steps", now: now)
            return .steps(day, clean)
        case .stepsSample(let sample):
            let (day, clean) = try validatedStepsSample(sample, field: "steps_sample", now: now)
            return .stepsSample(day, clean)
        case nil:
            throw DomainError.invalid("record", "the record holds none of workout, meal, weight_entry, steps, steps_sample")
        }
    }

    /// A Log* request's field path as the same field of an import record: `entry.` (LogWeight's
    /// name for the weight entry) becomes `weight_entry.`; the others are the same.
    private static func importField(_ field: String) -> String {
        field.hasPrefix("entry.") ? "weight_entry." + field.dropFirst("entry.".count) : field
    }
}
