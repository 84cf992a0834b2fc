import Foundation
import WorkoutClient

/// One change of `workout watch` as one line of text:
/// `#42 07:31 workout      running, 30 min, 250 kcal, at 2025-06-01 07:00`.
enum ChangeLine {
    /// The line for `change`.
    ///
    /// - Parameters:
    ///   - change: The change.
    ///   - zone: The zone times are shown in.
    static func describe(_ change: Change, in zone: TimeZone) -> String {
        let (kind, summary) = describe(change.item, in: zone)
        let padded = kind.count < 12 ? kind + String(repeating: " ", count: 12 - kind.count) : kind
        return "#\(change.revision) \(Format.clock(change.changedAt, in: zone)) \(padded) \(summary)"
    }

    /// A kind (`workout`, `meal`, …) and a summary for an item.
    static func describe(_ item: Change.Item?, in zone: TimeZone) -> (kind: String, summary: String) {
        switch item {
        case .workout(let workout):
            var parts = [workout.type, Format.duration(seconds: workout.durationSeconds)]
            if workout.caloriesBurned > 0 { parts.append(Format.kcal(workout.caloriesBurned)) }
            parts.append("at \(Format.dateTime(workout.performedAt, in: zone))")
            return ("workout", parts.joined(separator: ", "))
        case .meal(let meal):
            let name = meal.name.isEmpty ? "" : " \"\(meal.name)\""
            return ("meal", "\(meal.mealType.rawValue)\(name), \(Format.count(meal.items.count, "item")), \(Format.kcal(meal.totals.calories)), at \(Format.dateTime(meal.eatenAt, in: zone))")
        case .weight(let entry):
            return ("weight", "\(Format.kilograms(entry.weightKg)) at \(Format.dateTime(entry.measuredAt, in: zone))")
        case .steps(let day):
            return ("steps", "\(Format.grouped(day.steps)) on \(day.day)")
        case .achievement(let achievement):
            let state = achievement.unlocked ? "unlocked (+\(achievement.points) points)" : "\(achievement.progress)/\(achievement.target)"
            return ("achievement", "\(achievement.title) \(state)")
        case .profile(let profile):
            return ("profile", "\(profile.displayName.isEmpty ? profile.firstName : profile.displayName) updated")
        case .deleted(let kind, let id):
            return ("deleted", "\(kind.rawValue) \(Format.id(id))")
        case nil:
            return ("unknown", "a change this version of workout does not know")
        }
    }
}
