import Foundation
import LMDB
import Storage
package import WorkoutProtocol

/// Daily steps: one figure per (local day, source); a source's later report replaces its
/// earlier one, an older report is ignored, and the day's figure is the maximum over sources,
/// so a walk seen by both phone and watch is not counted twice.
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
        let report = request.report
        let day = try LocalDay(wire: report.day, field: "report.day")
        let latestDay = LocalDay.containing(instant: now, in: TimeZone(identifier: "UTC")!).adding(days: 1)
        guard day <= latestDay else {
            throw DomainError.invalid("report.day", "report.day must not be after \(latestDay) (got \(day))")
        }
        try Bounds.text(report.source, field: "report.source", bytes: 1...64)
        try Bounds.integer(report.steps, field: "report.steps", range: 0...200_000)
        try Bounds.eventTime(report.reportedAtMs, field: "report.reported_at_ms", now: now)
        return try await write(notifying: caller.userID) { [self] txn in
            var user = try authorize(caller, in: txn, now: now)
            let key = UserStepsKey(user: caller.userID, epochDay: day.epochDay, source: report.source)
            var response = Workout_V1_ReportStepsResponse()
            let existing = try txn.get(key, from: tables.steps)
            // An older report is ignored; an identical one (a retry) changes nothing, not even the revision.
            if let existing, !StepsRule.shouldReplace(existingReportedAt: existing.reportedAtMs, newReportedAt: report.reportedAtMs)
                || (existing.reportedAtMs == report.reportedAtMs && existing.steps == report.steps) {
                response.day = try stepsDay(user: caller.userID, day: day, in: txn)
                return response
            }
            let sources = try stepsReports(user: caller.userID, day: day, in: txn)
            if existing == nil && sources.count >= Self.maxStepsSourcesPerDay {
                throw DomainError.invalid(
                    "report.source",
                    "report.source: \(day) already has steps from \(sources.count) sources, the most a day may have; "
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
            try saveUser(&user, profileChanged: false, now: now, in: &txn)
            response.day = try stepsDay(user: caller.userID, day: day, in: txn)
            response.applied = true
            return response
        }
    }

    /// Every source's report for one day.
    func stepsReports(user: UUID, day: LocalDay, in txn: borrowing some TransactionReading & ~Copyable) throws -> [Workout_V1_StepsReport] {
        try txn.scan(tables.steps, ScanRequest(range: .prefix(UserDayKey(user: user, epochDay: day.epochDay).orderedKey))).elements.map(\.value)
    }

    /// One day's steps with its sources.
    func stepsDay(user: UUID, day: LocalDay, in txn: borrowing some TransactionReading & ~Copyable) throws -> Workout_V1_StepsDay {
        let reports = try stepsReports(user: user, day: day, in: txn)
        var result = Workout_V1_StepsDay()
        result.day = day.wire
        result.sources = reports
        result.steps = StepsRule.dayTotal(reports.map(\.steps))
        result.revision = reports.map(\.revision).max() ?? 0
        return result
    }
}
