import Foundation

/// The server's bounds (PROTOCOL.md §20), checked on the client before a record is sent, so a
/// record the server would refuse is reported with its line and skipped instead of failing
/// its whole batch.
enum ImportChecks {
    /// 2000-01-01T00:00:00Z, the earliest event time the server takes.
    static let earliest = Date(timeIntervalSince1970: 946_684_800)

    /// Why the server would refuse `record`, or `nil` when it is within bounds.
    ///
    /// - Parameters:
    ///   - record: The record.
    ///   - now: The time (the server takes event times up to a day ahead of its own).
    static func problem(with record: ImportRecord, now: Date = Date()) -> String? {
        switch record {
        case .workout(let workout):
            if let problem = time(workout.performedAt, now: now) { return problem }
            if !(1...64).contains(workout.type.utf8.count) { return "the workout type must be 1 to 64 bytes" }
            if workout.durationSeconds > 86_400 {
                return "the workout lasts \(hours(workout.durationSeconds)); the server takes at most 24 h"
            }
            if workout.durationSeconds < 1 { return "the workout has no duration" }
            if !(0...20_000).contains(workout.caloriesBurned) || !workout.caloriesBurned.isFinite {
                return "the workout's energy (\(workout.caloriesBurned) kcal) is outside 0 to 20000 kcal"
            }
            if !(0...1_000).contains(workout.exercisesCompleted) { return "exercises must be 0 to 1000" }
            if workout.notes.utf8.count > 1_000 { return "the notes are longer than 1000 bytes" }
            return zone(workout.timeZone)
        case .meal(let meal):
            if let problem = time(meal.eatenAt, now: now) { return problem }
            if meal.name.utf8.count > 128 { return "the meal's name is longer than 128 bytes" }
            if meal.items.count > 100 { return "the meal has \(meal.items.count) items; at most 100" }
            for item in meal.items {
                if !(1...128).contains(item.name.utf8.count) { return "a food item's name must be 1 to 128 bytes" }
                if !(0...10_000).contains(item.calories) || !item.calories.isFinite {
                    return "\(item.name): energy \(item.calories) kcal is outside 0 to 10000 kcal"
                }
                for (name, grams) in [("protein", item.proteinG), ("carbohydrates", item.carbsG), ("fat", item.fatG)]
                where !(0...1_000).contains(grams) || !grams.isFinite {
                    return "\(item.name): \(name) \(grams) g is outside 0 to 1000 g"
                }
                if let servings = item.servings, !(0.01...100).contains(servings) { return "\(item.name): servings must be 0.01 to 100" }
            }
            return zone(meal.timeZone)
        case .weight(let entry):
            if let problem = time(entry.measuredAt, now: now) { return problem }
            if !(10...500).contains(entry.weightKg) || !entry.weightKg.isFinite {
                return "a weight of \(entry.weightKg) kg is outside 10 to 500 kg"
            }
            if entry.note.utf8.count > 256 { return "the note is longer than 256 bytes" }
            return zone(entry.timeZone)
        case .steps(let report):
            if report.steps < 0 { return "a negative step count (\(report.steps))" }
            if report.steps > 200_000 { return "\(report.steps) steps in a day is more than the server takes (200000)" }
            if !(1...64).contains(report.source.utf8.count) { return "the steps' source must be 1 to 64 bytes" }
            if report.day.year < 2000 { return "the day \(report.day) is before 2000" }
            if report.day > LocalDate(now, in: TimeZone(identifier: "UTC")!).adding(days: 1) { return "the day \(report.day) is in the future" }
            return time(report.reportedAt, now: now)
        }
    }

    private static func time(_ date: Date, now: Date) -> String? {
        if date < earliest { return "the time \(date) is before 2000" }
        if date > now.addingTimeInterval(86_400) { return "the time \(date) is in the future" }
        return nil
    }

    private static func zone(_ name: String?) -> String? {
        guard let name else { return nil }
        return TimeZone(identifier: name) == nil ? "unknown time zone \"\(name)\"" : nil
    }

    private static func hours(_ seconds: Int) -> String {
        seconds % 3600 == 0 ? "\(seconds / 3600) h" : String(format: "%.1f h", Double(seconds) / 3600)
    }
}
