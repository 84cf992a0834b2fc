import Foundation
import WorkoutClient
import WorkoutOffline

/// A write waiting in the outbox, as `--json` prints it:
///
/// ```json
/// {"id": 3, "action": "log", "kind": "workout", "recordId": "0190…", "summary": "log workout 0190…",
///  "queuedAt": "…", "mayHaveBeenSent": false, "record": {…the workout…},
///  "refusal": {"code": 3, "status": "INVALID_ARGUMENT", "message": "…", "refusedAt": "…"}}
/// ```
struct PendingEntryReport: Encodable {
    /// The entry.
    let entry: OutboxEntry

    private enum CodingKeys: String, CodingKey {
        case id, action, kind, recordId, summary, queuedAt, mayHaveBeenSent, record, expectedRevision, refusal
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entry.id, forKey: .id)
        try container.encode(entry.write.action.rawValue, forKey: .action)
        try container.encode(Self.kind(entry.write), forKey: .kind)
        try container.encodeIfPresent(entry.write.recordID, forKey: .recordId)
        try container.encode(entry.write.summary, forKey: .summary)
        try container.encode(entry.queuedAt, forKey: .queuedAt)
        try container.encode(entry.mayHaveBeenSent, forKey: .mayHaveBeenSent)
        try container.encodeIfPresent(entry.refusal, forKey: .refusal)
        switch entry.write {
        case .logWorkout(let workout): try container.encode(workout, forKey: .record)
        case .updateWorkout(let workout, let revision):
            try container.encode(workout, forKey: .record)
            try container.encodeIfPresent(revision, forKey: .expectedRevision)
        case .logMeal(let meal): try container.encode(meal, forKey: .record)
        case .updateMeal(let meal, let revision):
            try container.encode(meal, forKey: .record)
            try container.encodeIfPresent(revision, forKey: .expectedRevision)
        case .logWeight(let entry): try container.encode(entry, forKey: .record)
        case .updateWeight(let entry, let revision):
            try container.encode(entry, forKey: .record)
            try container.encodeIfPresent(revision, forKey: .expectedRevision)
        case .reportSteps(let report): try container.encode(report, forKey: .record)
        case .deleteWorkout, .deleteMeal, .deleteWeight: break
        }
    }

    /// `workout`, `meal`, `weight` or `steps`.
    static func kind(_ write: PendingWrite) -> String {
        switch write.recordKind {
        case .workout: "workout"
        case .meal: "meal"
        case .weightEntry: "weight"
        case nil: "steps"
        }
    }

    /// One line for people: `#3  log workout running, 30 min  queued 2025-06-01 07:15` and, when
    /// refused, the reason (``RefusedWrite``).
    ///
    /// - Parameters:
    ///   - entry: The waiting write.
    ///   - server: The server it waits for, `host:port`.
    ///   - zone: The zone times are shown in.
    static func line(_ entry: OutboxEntry, server: String, zone: TimeZone) -> String {
        var text = "#\(entry.id)  \(describe(entry.write))  (queued \(Format.dateTime(entry.queuedAt, in: zone)))"
        if let refusal = entry.refusal {
            text += "\n      refused: \(RefusedWrite.message(refusal, of: entry.write, server: server, zone: zone))"
        }
        return text
    }

    /// The write for people: `log workout running, 30 min`, `log meal breakfast (2 items)`.
    static func describe(_ write: PendingWrite) -> String {
        switch write {
        case .logWorkout(let workout), .updateWorkout(let workout, _):
            "\(write.action.rawValue) workout \(workout.type), \(Format.duration(seconds: workout.durationSeconds)) [\(Format.id(workout.id))]"
        case .logMeal(let meal), .updateMeal(let meal, _):
            "\(write.action.rawValue) meal \(meal.mealType.rawValue)\(meal.name.isEmpty ? "" : " \"\(meal.name)\"") (\(Format.count(meal.items.count, "item"))) [\(Format.id(meal.id))]"
        case .logWeight(let entry), .updateWeight(let entry, _):
            "\(write.action.rawValue) weight \(Format.kilograms(entry.weightKg)) [\(Format.id(entry.id))]"
        case .deleteWorkout(let id): "delete workout [\(Format.id(id))]"
        case .deleteMeal(let id): "delete meal [\(Format.id(id))]"
        case .deleteWeight(let id): "delete weight [\(Format.id(id))]"
        case .reportSteps(let report): "report steps \(report.day) (\(report.source)): \(Format.grouped(report.steps))"
        }
    }
}
