import Foundation
import LMDB
import Storage
import WorkoutProtocol
import WorkoutRules

/// Steps samples: a phone's steps by interval (Health Auto Export's `step_count` points, a
/// Health Connect record), kept per `(day, source, start)` so that pushes of partial windows,
/// in any order and overlapping, add up to the same day as one whole push. A source's figure
/// for a day is the sum of its samples of that day, stored as that source's steps report, so
/// every reader of steps (the day's largest source, summaries, goals, the change log) sees it
/// like any report.
extension HouseholdStore {
    /// The most samples one source may keep for one day: one a minute, twice over.
    package static let maxStepsSamplesPerSourceDay = 2_880

    /// Validates a steps sample from a request.
    ///
    /// - Parameter field: The request field holding it (`steps_sample`), named in the error
    ///   with the sample's own field after it.
    func validatedStepsSample(_ sample: Workout_V1_StepsSample, field: String, now: Int64) throws -> (day: LocalDay, sample: Workout_V1_StepsSample) {
        let day = try RecordValidation.stepsSample(
            year: sample.day.year, month: sample.day.month, day: sample.day.day, source: sample.source,
            startMs: sample.startMs, endMs: sample.endMs, steps: Int(sample.steps),
            names: RecordFieldNames(.wire, prefix: field), now: now)
        var clean = Workout_V1_StepsSample()
        clean.day = day.wire
        clean.source = sample.source
        clean.startMs = sample.startMs
        clean.endMs = sample.endMs
        clean.steps = sample.steps
        return (day, clean)
    }

    /// Keeps a validated sample: stored when new, replacing the sample of the same start when its
    /// figures differ, nothing when it is the same.
    ///
    /// - Parameters:
    ///   - field: The request field holding it, named when its source's day already has
    ///     ``maxStepsSamplesPerSourceDay`` samples and this one is new.
    ///   - kept: How many samples each source's day holds, as counted so far in this write
    ///     (each is counted once, by one scan, when a new sample first needs it).
    /// - Returns: Whether anything was written (the caller then sums the source's day again).
    func keepStepsSample(
        _ sample: Workout_V1_StepsSample, field: String, day: LocalDay, user: UUID, kept: inout [UserStepsKey: Int],
        in txn: inout WriteTransaction
    ) throws -> Bool {
        let key = StepsSampleKey(user: user, epochDay: day.epochDay, source: sample.source, startMs: sample.startMs)
        let existing = try txn.get(key, from: tables.stepsSamples)
        if existing == sample { return false }
        if existing == nil {
            let sourceDay = UserStepsKey(user: user, epochDay: day.epochDay, source: sample.source)
            let count = try kept[sourceDay] ?? txn.scanKeys(tables.stepsSamples, ScanRequest(
                range: StepsSampleKey.range(user: user, epochDay: day.epochDay, source: sample.source),
                limit: Self.maxStepsSamplesPerSourceDay)).elements.count
            kept[sourceDay] = count + 1
            guard count < Self.maxStepsSamplesPerSourceDay else {
                throw DomainError.invalid(
                    field + ".start_ms",
                    "\(field): \(sample.source) already has \(count) steps samples on \(day), the most a source's day may have; "
                        + "send coarser samples (an hour each) or a day's total as a steps report")
            }
        }
        try txn.put(sample, forKey: key, in: tables.stepsSamples)
        return true
    }

    /// Sums a source's samples of a day into its steps report of that day, when the sum differs
    /// from the report: dated `now`, or just after the stored report when that one is later (a
    /// device's clock ahead), so the sum replaces it.
    ///
    /// - Parameter field: The request field to name when the day has too many sources.
    /// - Returns: Whether the source's report changed.
    func sumStepsSamples(
        of source: String, day: LocalDay, field: String, user: inout Workout_Store_V1_StoredUser, now: Int64, in txn: inout WriteTransaction
    ) throws -> Bool {
        let userID = UUID(bytes: user.userID)
        var total: UInt64 = 0
        _ = try txn.scanRawPage(tables.stepsSamples.database, ScanRequest(
            range: StepsSampleKey.range(user: userID, epochDay: day.epochDay, source: source))) { _, value in
            total += UInt64(try Workout_V1_StepsSample(storedBytes: value).steps)
            return .take
        }
        let steps = UInt32(min(total, UInt64(RecordLimits.stepsPerDay.upperBound)))
        let existing = try txn.get(UserStepsKey(user: userID, epochDay: day.epochDay, source: source), from: tables.steps)
        if existing?.steps == steps { return false }
        var report = Workout_V1_StepsReport()
        report.day = day.wire
        report.source = source
        report.steps = steps
        report.reportedAtMs = max(now, (existing?.reportedAtMs ?? now) + 1)
        return try insertStepsReport(report, field: field, day: day, user: &user, now: now, in: &txn)
    }
}
