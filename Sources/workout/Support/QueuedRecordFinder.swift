import Foundation
import WorkoutClient
import WorkoutOffline

/// Finds a workout, meal or weigh-in that waits in the member's outbox (logged or edited while
/// the server could not be reached) by its ID or a prefix of it, in the state its waiting
/// writes leave it.
///
/// `workout edit` and `workout delete` look here first: such a record is newer than the
/// server's copy, or the server has none yet. Its edit is then folded into the waiting write
/// and its delete cancels a waiting log (``Outbox``'s folding), so nothing is sent twice and a
/// record logged and deleted offline is never sent at all.
enum QueuedRecordFinder {
    /// The records of `kind` that the waiting writes leave, by ID: each log's or update's
    /// fields, the latest write winning; a record whose latest write is a delete is left out.
    ///
    /// - Parameters:
    ///   - kind: Workout, meal or weigh-in.
    ///   - entries: The outbox's entries, oldest first.
    /// - Returns: The records.
    static func records(_ kind: RecordKindArgument, in entries: [OutboxEntry]) -> [UUID: FoundRecord] {
        var records: [UUID: FoundRecord] = [:]
        for entry in entries where entry.write.recordKind == kind.kind {
            switch entry.write {
            case .logWorkout(let workout), .updateWorkout(let workout, _): records[workout.id] = .workout(workout)
            case .logMeal(let meal), .updateMeal(let meal, _): records[meal.id] = .meal(meal)
            case .logWeight(let entry), .updateWeight(let entry, _): records[entry.id] = .weight(entry)
            case .deleteWorkout(let id), .deleteMeal(let id), .deleteWeight(let id): records[id] = nil
            case .reportSteps: break
            }
        }
        return records
    }

    /// The waiting record of `kind` whose ID starts with `prefix`.
    ///
    /// - Parameters:
    ///   - kind: Workout, meal or weigh-in.
    ///   - prefix: The ID or its first digits.
    ///   - entries: The outbox's entries, oldest first.
    /// - Returns: The record, or `nil` when no waiting record matches.
    /// - Throws: ``CLIError`` (usage) when several waiting records match, listing them.
    static func find(
        _ kind: RecordKindArgument, _ prefix: RecordIDPrefix, in entries: [OutboxEntry], zone: TimeZone = .current
    ) throws(CLIError) -> FoundRecord? {
        let matches = records(kind, in: entries).values.filter { prefix.matches($0.id) }
        guard !matches.isEmpty else { return nil }
        return try RecordFinder.choose(kind, prefix, from: Array(matches), complete: true, zone: zone)
    }
}
