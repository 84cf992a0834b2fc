package import Foundation
import WorkoutRules

/// The server's bounds (PROTOCOL.md §20, the shared rules' `RecordLimits` and `Bounds`),
/// checked on the client before a record is sent: an import reports a record the server would
/// refuse with its line and skips it instead of failing its whole batch, and the session model
/// does not guess a waiting write the server will refuse into its figures.
package enum RecordChecks {
    /// 2000-01-01T00:00:00Z, the earliest event time the server takes.
    static let earliest = Date(timeIntervalSince1970: TimeInterval(Bounds.earliestEventTime) / 1_000)

    /// Why the server would refuse `record`, or `nil` when it is within bounds.
    ///
    /// - Parameters:
    ///   - record: The record.
    ///   - now: The time (the server takes event times up to a day ahead of its own).
    package static func problem(with record: ImportRecord, now: Date = Date()) -> String? {
        switch record {
        case .workout(let workout):
            if let problem = time(workout.performedAt, now: now) { return problem }
            let limits = RecordLimits.self
            if !limits.workoutTypeBytes.contains(workout.type.utf8.count) { return "the workout type must be \(span(limits.workoutTypeBytes)) bytes" }
            if workout.durationSeconds > limits.workoutDurationSeconds.upperBound {
                return "the workout lasts \(hours(workout.durationSeconds)); the server takes at most \(hours(limits.workoutDurationSeconds.upperBound))"
            }
            if workout.durationSeconds < limits.workoutDurationSeconds.lowerBound { return "the workout has no duration" }
            if !limits.workoutCalories.contains(workout.caloriesBurned) || !workout.caloriesBurned.isFinite {
                return "the workout's energy (\(workout.caloriesBurned) kcal) is outside \(span(limits.workoutCalories)) kcal"
            }
            if !limits.workoutExercises.contains(workout.exercisesCompleted) { return "exercises must be \(span(limits.workoutExercises))" }
            if workout.notes.utf8.count > limits.workoutNotesBytes.upperBound { return "the notes are longer than \(limits.workoutNotesBytes.upperBound) bytes" }
            return zone(workout.timeZone)
        case .meal(let meal):
            if let problem = time(meal.eatenAt, now: now) { return problem }
            let limits = RecordLimits.self
            if meal.name.utf8.count > limits.mealNameBytes.upperBound { return "the meal's name is longer than \(limits.mealNameBytes.upperBound) bytes" }
            if meal.items.count > limits.mealItemsMax { return "the meal has \(meal.items.count) items; at most \(limits.mealItemsMax)" }
            for item in meal.items {
                if !limits.foodNameBytes.contains(item.name.utf8.count) { return "a food item's name must be \(span(limits.foodNameBytes)) bytes" }
                if !limits.foodCalories.contains(item.calories) || !item.calories.isFinite {
                    return "\(item.name): energy \(item.calories) kcal is outside \(span(limits.foodCalories)) kcal"
                }
                for (name, grams) in [("protein", item.proteinG), ("carbohydrates", item.carbsG), ("fat", item.fatG)]
                where !limits.foodGrams.contains(grams) || !grams.isFinite {
                    return "\(item.name): \(name) \(grams) g is outside \(span(limits.foodGrams)) g"
                }
                if let servings = item.servings, !limits.foodServings.contains(servings) {
                    return "\(item.name): servings must be \(span(limits.foodServings))"
                }
            }
            return zone(meal.timeZone)
        case .weight(let entry):
            if let problem = time(entry.measuredAt, now: now) { return problem }
            if !RecordLimits.weightKg.contains(entry.weightKg) || !entry.weightKg.isFinite {
                return "a weight of \(entry.weightKg) kg is outside \(span(RecordLimits.weightKg)) kg"
            }
            if entry.note.utf8.count > RecordLimits.weightNoteBytes.upperBound { return "the note is longer than \(RecordLimits.weightNoteBytes.upperBound) bytes" }
            return zone(entry.timeZone)
        case .steps(let report):
            if report.steps < 0 { return "a negative step count (\(report.steps))" }
            if report.steps > RecordLimits.stepsPerDay.upperBound {
                return "\(report.steps) steps in a day is more than the server takes (\(RecordLimits.stepsPerDay.upperBound))"
            }
            if !RecordLimits.stepsSourceBytes.contains(report.source.utf8.count) { return "the steps' source must be \(span(RecordLimits.stepsSourceBytes)) bytes" }
            if report.day.year < Int(LocalDay.validYears.lowerBound) { return "the day \(report.day) is before \(LocalDay.validYears.lowerBound)" }
            if report.day > LocalDate(now, in: TimeZone(identifier: "UTC")!).adding(days: 1) { return "the day \(report.day) is in the future" }
            return time(report.reportedAt, now: now)
        }
    }

    private static func time(_ date: Date, now: Date) -> String? {
        if date < earliest { return "the time \(date) is before 2000" }
        if date > now.addingTimeInterval(TimeInterval(Bounds.eventTimeLeeway) / 1_000) { return "the time \(date) is in the future" }
        return nil
    }

    private static func zone(_ name: String?) -> String? {
        guard let name else { return nil }
        return (try? TimeZoneCatalog.zone(named: name, field: "time_zone")) == nil ? "unknown time zone \"\(name)\"" : nil
    }

    /// "1 to 64", "0.01 to 100", "0 to 20000": a bound as the messages say it.
    private static func span<T: Comparable>(_ range: ClosedRange<T>) -> String {
        func text(_ value: T) -> String {
            if let double = value as? Double, double == double.rounded() { return String(Int(double)) }
            return "\(value)"
        }
        return "\(text(range.lowerBound)) to \(text(range.upperBound))"
    }

    private static func hours(_ seconds: Int) -> String {
        seconds % 3600 == 0 ? "\(seconds / 3600) h" : String(format: "%.1f h", Double(seconds) / 3600)
    }
}
