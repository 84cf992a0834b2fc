public import Foundation
public import WorkoutClient

/// A write a member made that the server has not confirmed yet: what an ``Outbox`` keeps and
/// sends. Every case carries the record's client-generated id (or, for steps, its day and
/// source), so sending it again after a lost answer applies it once (the server answers
/// `replayed`).
public enum PendingWrite: Sendable, Hashable, Codable {
    /// `Logging.LogWorkout`.
    case logWorkout(Workout)
    /// `Logging.UpdateWorkout`: the full workout, applied only at `expectedRevision` when given.
    case updateWorkout(Workout, expectedRevision: UInt64?)
    /// `Logging.DeleteWorkout`, by id.
    case deleteWorkout(UUID)
    /// `Logging.LogMeal`.
    case logMeal(Meal)
    /// `Logging.UpdateMeal`: the full meal, applied only at `expectedRevision` when given.
    case updateMeal(Meal, expectedRevision: UInt64?)
    /// `Logging.DeleteMeal`, by id.
    case deleteMeal(UUID)
    /// `Logging.LogWeight`.
    case logWeight(WeightEntry)
    /// `Logging.UpdateWeight`: the full entry, applied only at `expectedRevision` when given.
    case updateWeight(WeightEntry, expectedRevision: UInt64?)
    /// `Logging.DeleteWeight`, by id.
    case deleteWeight(UUID)
    /// `Logging.ReportSteps`.
    case reportSteps(StepsReport)

    /// What the write does to which record: a log, an update or a delete of a workout, meal or
    /// weigh-in, or a steps report.
    public enum Action: String, Sendable, Hashable, Codable {
        /// Creates the record.
        case log
        /// Replaces the record's fields.
        case update
        /// Deletes the record.
        case delete
        /// Reports a day's steps.
        case report
    }

    /// Whether the write logs, updates or deletes its record, or reports steps.
    public var action: Action {
        switch self {
        case .logWorkout, .logMeal, .logWeight: .log
        case .updateWorkout, .updateMeal, .updateWeight: .update
        case .deleteWorkout, .deleteMeal, .deleteWeight: .delete
        case .reportSteps: .report
        }
    }

    /// The kind of record written; `nil` for a steps report (steps are per day, not records).
    public var recordKind: RecordKind? {
        switch self {
        case .logWorkout, .updateWorkout, .deleteWorkout: .workout
        case .logMeal, .updateMeal, .deleteMeal: .meal
        case .logWeight, .updateWeight, .deleteWeight: .weightEntry
        case .reportSteps: nil
        }
    }

    /// The id of the record written; `nil` for a steps report.
    public var recordID: UUID? {
        switch self {
        case .logWorkout(let workout), .updateWorkout(let workout, _): workout.id
        case .logMeal(let meal), .updateMeal(let meal, _): meal.id
        case .logWeight(let entry), .updateWeight(let entry, _): entry.id
        case .deleteWorkout(let id), .deleteMeal(let id), .deleteWeight(let id): id
        case .reportSteps: nil
        }
    }

    /// Checks the write's record against the server's bounds, as the typed call that sends it
    /// does (`logWorkout(_:)` and the others): an ``Outbox``
    /// refuses to queue a write the server would refuse, offline as online.
    ///
    /// - Parameter now: The time event times are checked against; now by default.
    /// - Throws: `WorkoutError` `INVALID_ARGUMENT` naming the field as the typed call's argument
    ///   path (`workout.durationSeconds`, `entry.weightKg`, `report.steps`). A delete has no
    ///   record to check.
    func validate(now: Date = Date()) throws(WorkoutError) {
        switch self {
        case .logWorkout(let workout), .updateWorkout(let workout, _): try RecordChecks.check(.workout(workout), prefix: "workout", now: now)
        case .logMeal(let meal), .updateMeal(let meal, _): try RecordChecks.check(.meal(meal), prefix: "meal", now: now)
        case .logWeight(let entry), .updateWeight(let entry, _): try RecordChecks.check(.weight(entry), prefix: "entry", now: now)
        case .reportSteps(let report): try RecordChecks.check(.steps(report), prefix: "report", now: now)
        case .deleteWorkout, .deleteMeal, .deleteWeight: break
        }
    }

    /// What the write is about, for folding later writes into it: the record (kind and id), or
    /// the day and source of a steps report.
    var subject: Subject {
        if case .reportSteps(let report) = self {
            return .steps(day: report.day, source: report.source)
        }
        // Every case but steps has a kind and an id.
        return .record(recordKind!, recordID!)
    }

    /// The record, or the steps day and source, a write is about.
    enum Subject: Hashable {
        /// A workout, meal or weigh-in.
        case record(RecordKind, UUID)
        /// One source's steps of one day.
        case steps(day: LocalDate, source: String)
    }

    /// This write with its record's fields replaced by those of `update` (an update of the same
    /// record), keeping what this write is: a log stays a log of the new fields, an update
    /// keeps its own expected revision (the one checked against the server's state before
    /// either edit). `nil` when `update` is not an update of the same kind.
    func folding(_ update: PendingWrite) -> PendingWrite? {
        switch (self, update) {
        case (.logWorkout, .updateWorkout(let workout, _)): .logWorkout(workout)
        case (.updateWorkout(_, let revision), .updateWorkout(let workout, _)): .updateWorkout(workout, expectedRevision: revision)
        case (.logMeal, .updateMeal(let meal, _)): .logMeal(meal)
        case (.updateMeal(_, let revision), .updateMeal(let meal, _)): .updateMeal(meal, expectedRevision: revision)
        case (.logWeight, .updateWeight(let entry, _)): .logWeight(entry)
        case (.updateWeight(_, let revision), .updateWeight(let entry, _)): .updateWeight(entry, expectedRevision: revision)
        case (.reportSteps, .reportSteps(let report)): .reportSteps(report)
        default: nil
        }
    }

    /// A short description for people, e.g. `log workout 0190a3c4-…` or `report steps 2025-06-01 (phone)`.
    public var summary: String {
        let kind: String =
            switch recordKind {
            case .workout: "workout"
            case .meal: "meal"
            case .weightEntry: "weigh-in"
            case nil: "steps"
            }
        if case .reportSteps(let report) = self {
            return "report steps \(report.day) (\(report.source)): \(report.steps)"
        }
        return "\(action.rawValue) \(kind) \(recordID!.uuidString.lowercased())"
    }
}
