package import Foundation
import WorkoutRules

/// The server's own record validation (the shared rules' `RecordValidation`), applied on the
/// client before a record is sent, queued, imported or saved from a form: a value out of bounds
/// is refused with the field at fault in Swift terms, never clamped into range. The messages are
/// the server's, word for word, with Swift names for its fields and dates for its milliseconds,
/// as a refusal from the server reads once the client has translated it.
package enum RecordChecks {
    /// The refusal of `record`, or `nil` when every field is within bounds.
    ///
    /// - Parameters:
    ///   - record: The record.
    ///   - prefix: What its fields are named under: the argument of the call that sends it
    ///     (`workout`, `entry`, `report`), or `nil` for its bare property names.
    ///   - now: The time (the server takes event times up to a day ahead of its own).
    /// - Returns: An `INVALID_ARGUMENT` error naming the field (``WorkoutError/field`` in Swift
    ///   terms, ``WorkoutError/wireField`` as the server names it), or `nil`.
    package static func error(in record: ImportRecord, prefix: String?, now: Date = Date()) -> WorkoutError? {
        do throws(DomainError) {
            try validate(record, names: RecordFieldNames(.swift, prefix: prefix), now: now)
            return nil
        } catch {
            var wireField: String?
            do throws(DomainError) {
                try validate(record, names: RecordFieldNames(.wire, prefix: prefix), now: now)
            } catch {
                wireField = error.field
            }
            return WorkoutError(
                code: .invalidArgument, message: SwiftTimeWords.rewriting(error.message), field: error.field,
                wireField: wireField)
        }
    }

    /// Throws the refusal of `record`, if any (see ``error(in:prefix:now:)``).
    ///
    /// - Parameters:
    ///   - record: The record.
    ///   - prefix: What its fields are named under, or `nil` for bare property names.
    ///   - now: The time.
    /// - Throws: `WorkoutError` `INVALID_ARGUMENT` naming the first field out of bounds.
    package static func check(_ record: ImportRecord, prefix: String?, now: Date = Date()) throws(WorkoutError) {
        if let error = error(in: record, prefix: prefix, now: now) { throw error }
    }

    /// Why the server would refuse `record` (the refusal's message, its fields named by their
    /// property paths: `durationSeconds must be between 1 and 86400 (got 324000)`), or `nil`
    /// when it is within bounds: what an import reports for a record it skips, and what keeps
    /// the session model from counting a waiting write the server will refuse.
    ///
    /// - Parameters:
    ///   - record: The record.
    ///   - now: The time (the server takes event times up to a day ahead of its own).
    package static func problem(with record: ImportRecord, now: Date = Date()) -> String? {
        error(in: record, prefix: nil, now: now)?.message
    }

    /// Applies the shared validation to `record`'s fields as the wire carries them.
    private static func validate(_ record: ImportRecord, names: RecordFieldNames, now: Date) throws(DomainError) {
        let now = now.wireMilliseconds
        switch record {
        case .workout(let workout):
            try RecordValidation.workout(
                type: workout.type, durationSeconds: workout.durationSeconds, caloriesBurned: workout.caloriesBurned,
                exercisesCompleted: workout.exercisesCompleted, notes: workout.notes, performedAtMs: workout.performedAt.wireMilliseconds,
                timeZone: workout.timeZone ?? "", names: names, now: now)
            try RecordValidation.workoutDetail(
                WorkoutDetailFields(distanceM: workout.distanceM ?? 0, elevationGainM: workout.elevationGainM ?? 0,
                                    averageHeartRate: workout.averageHeartRate ?? 0, maxHeartRate: workout.maxHeartRate ?? 0, steps: workout.steps ?? 0,
                                    location: workout.location?.wire.rawValue ?? 0),
                names: names)
        case .meal(let meal):
            try RecordValidation.meal(
                eatenAtMs: meal.eatenAt.wireMilliseconds, name: meal.name, timeZone: meal.timeZone ?? "",
                items: meal.items.map {
                    // An item from a library food: its name and figures are the server's to fill in.
                    $0.foodID != nil
                        ? FoodItemFields(name: $0.name.isEmpty ? "-" : $0.name, calories: 0, proteinG: 0, carbsG: 0, fatG: 0, servings: 0)
                        : FoodItemFields(name: $0.name, calories: $0.calories, proteinG: $0.proteinG, carbsG: $0.carbsG, fatG: $0.fatG, servings: $0.servings ?? 0)
                },
                names: names, now: now)
        case .weight(let entry):
            try RecordValidation.weight(
                weightKg: entry.weightKg, measuredAtMs: entry.measuredAt.wireMilliseconds, note: entry.note,
                timeZone: entry.timeZone ?? "", names: names, now: now)
        case .steps(let report):
            try RecordValidation.steps(
                year: Int32(clamping: report.day.year), month: Int32(report.day.month), day: Int32(report.day.day), source: report.source,
                steps: report.steps, reportedAtMs: report.reportedAt.wireMilliseconds, names: names, now: now)
        }
    }
}
