import Foundation
import WorkoutClient
import WorkoutOffline

/// A queued write the server refused when the outbox delivered it (`workout sync`, or a later
/// `workout log` sending what waited), said in the words of the command that queued it:
/// "--minutes must be at most 1,440 (24 hours)", never `workout.durationSeconds`, seconds or
/// milliseconds since 1970.
///
/// No second table of words: a value out of bounds is found again by the very checks `log` and
/// `edit` make before sending (``InputBounds``), on the write's own values, so the message is
/// the one the command would have printed; any other refusal (a bound only the server's clock
/// decides, a record that changed meanwhile) goes through the mapping of live refusals,
/// ``CLIError/init(_:context:)``.
enum RefusedWrite {
    /// The refusal as `workout` says it.
    ///
    /// - Parameters:
    ///   - refusal: The server's refusal.
    ///   - write: The write it refused.
    ///   - server: The server, `host:port`.
    ///   - zone: The zone times are shown in.
    /// - Returns: E.g. `invalid input: the weight must be between 10 and 500 kg (got 720)`.
    static func message(_ refusal: WriteRefusal, of write: PendingWrite, server: String, zone: TimeZone) -> String {
        if refusal.code == .invalidArgument || refusal.code == .outOfRange {
            do {
                try checkBounds(write, now: refusal.refusedAt, zone: zone)
            } catch {
                return error.message
            }
        }
        return CLIError(refusal.error, context: .init(
            server: server, action: "\(write.action.rawValue) \(PendingEntryReport.kind(write))",
            fieldOptions: fieldOptions(write))).message
    }

    /// Checks a write's values as the command that makes it checks its options.
    ///
    /// - Parameters:
    ///   - write: The write.
    ///   - now: The time to judge `--at` by (when the server refused it).
    ///   - zone: The zone times are shown in.
    /// - Throws: ``CLIError`` as ``InputBounds`` words it.
    static func checkBounds(_ write: PendingWrite, now: Date, zone: TimeZone) throws(CLIError) {
        let logs = write.action == .log
        switch write {
        case .logWorkout(let workout), .updateWorkout(let workout, _):
            try InputBounds.minutes(Double(workout.durationSeconds) / 60)
            try InputBounds.workoutCalories(workout.caloriesBurned)
            try InputBounds.exercises(workout.exercisesCompleted)
            try InputBounds.workoutText(type: workout.type, typeName: logs ? "the kind of workout" : "--type", notes: workout.notes)
            try InputBounds.time(.instant(workout.performedAt), now: now, in: zone)
        case .logMeal(let meal), .updateMeal(let meal, _):
            try InputBounds.meal(name: meal.name, items: meal.items)
            try InputBounds.time(.instant(meal.eatenAt), now: now, in: zone)
        case .logWeight(let entry), .updateWeight(let entry, _):
            try InputBounds.weight(entry.weightKg, logs ? "the weight" : "--weight")
            try InputBounds.weightNote(entry.note)
            try InputBounds.time(.instant(entry.measuredAt), now: now, in: zone)
        case .reportSteps(let report):
            try InputBounds.steps(report.steps, source: report.source)
        case .deleteWorkout, .deleteMeal, .deleteWeight:
            break
        }
    }

    /// The fields set by an argument, named as ``InputBounds`` names it, or (`edit`) by
    /// another option than `log`'s.
    private static func fieldOptions(_ write: PendingWrite) -> [String: String] {
        switch write {
        case .logWorkout: ["workout.workout_type": "the kind of workout"]
        case .updateWorkout: ["workout.workout_type": "--type"]
        case .logWeight: ["entry.weight_kg": "the weight"]
        case .updateWeight: ["entry.weight_kg": "--weight"]
        case .reportSteps: ["report.steps": "the number of steps"]
        default: [:]
        }
    }
}
