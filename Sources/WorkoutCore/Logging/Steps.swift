import Foundation
import LMDB
import Storage
package import WorkoutProtocol
import WorkoutRules

/// Daily steps: one figure per (local day, source); a source's later report replaces its
/// earlier one, an older report is ignored, and the day's figure is one source's: the member's
/// most trusted source that reported, else the largest (``StepsRule``), so a walk seen by both
/// phone and watch is not counted twice.
extension HouseholdStore {
    /// The most sources one day may have: a day's reports travel together (ReportSteps'
    /// answer, a steps change, an export chunk), so they must fit the smallest frame.
    package static let maxStepsSourcesPerDay = 16

    /// Records a source's count for a day.
    ///
    /// - Throws: ``DomainError`` `invalidArgument` on a bad field, and on `report.source` for
    ///   a new source of a day that has ``maxStepsSourcesPerDay`` already.
    package func reportSteps(_ caller: Caller, _ request: Workout_V1_ReportStepsRequest) async throws -> Workout_V1_ReportStepsResponse {
        let now = clock.nowMilliseconds()
        let (day, report) = try validatedStepsReport(request.report, field: "report", now: now)
        return try await write(notifying: caller.userID) { [self] txn in
            var user = try authorize(caller, in: txn, now: now)
            var response = Workout_V1_ReportStepsResponse()
            response.applied = try insertStepsReport(report, field: "report", day: day, user: &user, now: now, in: &txn)
            if response.applied {
                response.unlocked = try settleStepsGoalRuns(changed: day...day, user: &user, now: now, in: &txn)
                try saveUser(&user, profileChanged: false, now: now, in: &txn)
            }
            response.day = try stepsDay(of: user, day: day, in: txn)
            return response
        }
    }

    /// Validates a steps report from a request.
    ///
    /// - Parameter field: The request field holding the report (`report`, `records[3].steps`),
    ///   named in the error with the report's own field after it.
    func validatedStepsReport(_ report: Workout_V1_StepsReport, field: String, now: Int64) throws -> (day: LocalDay, report: Workout_V1_StepsReport) {
        let day = try RecordValidation.steps(
            year: report.day.year, month: report.day.month, day: report.day.day, source: report.source, steps: Int(report.steps),
            reportedAtMs: report.reportedAtMs, names: RecordFieldNames(.wire, prefix: field), now: now)
        var clean = Workout_V1_StepsReport()
        clean.day = day.wire
        clean.source = report.source
        clean.steps = report.steps
        clean.reportedAtMs = report.reportedAtMs
        return (day, clean)
    }

    /// Applies a validated steps report to `user` inside `txn`: the source's figure for the
    /// day and the change log, unless the stored report of that source is later (or the same).
    /// The caller stores `user` afterwards when it returns `true`.
    ///
    /// - Parameter field: The request field holding the report, named when the day already has
    ///   ``maxStepsSourcesPerDay`` sources and this one is new.
    /// - Returns: Whether the report was stored (ReportSteps' `applied`).
    func insertStepsReport(
        _ report: Workout_V1_StepsReport, field: String, day: LocalDay, user: inout Workout_Store_V1_StoredUser, now: Int64, in txn: inout WriteTransaction
    ) throws -> Bool {
        let userID = UUID(bytes: user.userID)
        let key = UserStepsKey(user: userID, epochDay: day.epochDay, source: report.source)
        // An older report is ignored; an identical one (a retry) changes nothing, not even the revision.
        let existing = try txn.get(key, from: tables.steps)
        if let existing,
           !StepsRule.shouldReplace(existingReportedAt: existing.reportedAtMs, newReportedAt: report.reportedAtMs)
            || (existing.reportedAtMs == report.reportedAtMs && existing.steps == report.steps) {
            return false
        }
        let sources = try stepsReports(user: userID, day: day, in: txn)
        if existing == nil && sources.count >= Self.maxStepsSourcesPerDay {
            throw DomainError.invalid(
                field + ".source",
                "\(field).source: \(day) already has steps from \(sources.count) sources, the most a day may have; "
                    + "report under one of them (\(sources.map(\.source).sorted().joined(separator: ", ")))")
        }
        let previousRevision = sources.map(\.revision).max()
        var change = Workout_Store_V1_StoredChange()
        change.kind = .steps
        change.epochDay = day.epochDay
        change.changedAtMs = now
        var stored = Workout_V1_StepsReport()
        stored.day = day.wire
        stored.source = report.source
        stored.steps = report.steps
        stored.reportedAtMs = report.reportedAtMs
        stored.revision = try recordChange(change, replacing: previousRevision, user: &user, in: &txn)
        try txn.put(stored, forKey: key, in: tables.steps)
        return true
    }

    /// Every source's report for one day.
    func stepsReports(user: UUID, day: LocalDay, in txn: borrowing some TransactionReading & ~Copyable) throws -> [Workout_V1_StepsReport] {
        try txn.scan(tables.steps, ScanRequest(range: .prefix(UserDayKey(user: user, epochDay: day.epochDay).orderedKey))).elements.map(\.value)
    }

    /// One day's steps with its sources, the figure being the source ``StepsRule`` chooses with
    /// `member`'s priority.
    func stepsDay(of member: Workout_Store_V1_StoredUser, day: LocalDay, in txn: borrowing some TransactionReading & ~Copyable) throws -> Workout_V1_StepsDay {
        let reports = try stepsReports(user: UUID(bytes: member.userID), day: day, in: txn)
        return stepsDay(day, reports: reports, priority: member.stepsSourcePriority)
    }

    /// A day's steps from its sources' reports.
    func stepsDay(_ day: LocalDay, reports: [Workout_V1_StepsReport], priority: [String]) -> Workout_V1_StepsDay {
        var result = Workout_V1_StepsDay()
        result.day = day.wire
        result.sources = reports
        let figure = StepsRule.dayFigure(reports.map { ($0.source, $0.steps) }, priority: priority)
        result.steps = figure.steps
        result.countedSource = figure.source ?? ""
        result.revision = reports.map(\.revision).max() ?? 0
        return result
    }
}
