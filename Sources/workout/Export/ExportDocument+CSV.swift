import Foundation
import WorkoutClient

/// The CSV form of an export: one table, one row per record, its `kind` in the first column.
///
/// Columns (every row has all of them; a column that does not apply is empty):
///
/// | column | workout | meal | food_item | weight | steps | achievement |
/// |---|---|---|---|---|---|---|
/// | `kind` | `workout` | `meal` | `food_item` | `weight` | `steps` | `achievement` |
/// | `id` | id | id | (its position in the meal, from 1) | id | | achievement id |
/// | `parent_id` | | | the meal's id | | | |
/// | `time` | performed at | eaten at | the meal's | measured at | | unlocked at |
/// | `day` | local day | local day | the meal's | local day | the day | |
/// | `type` | workout type | meal type | | | | `unlocked` or `locked` |
/// | `name` | | meal name | food name | | | title |
/// | `amount`, `unit` | | | servings, `servings` | kilograms, `kg` | steps, `steps` | progress, `of <target>` |
/// | `duration_seconds` | duration | | | | | |
/// | `calories` | burned | the meal's total | the item's | | | |
/// | `protein_g`, `carbs_g`, `fat_g` | | the meal's totals | the item's | | | |
/// | `exercises` | exercises completed | | | | | |
/// | `points` | | | | | | points it gives |
/// | `note` | notes | | | note | sources, `phone=8500; cli=8000` | description |
/// | `time_zone` | the zone it was logged in | the zone it was logged in | | the zone it was logged in | | |
///
/// Two more rows come first: `profile` (id = user id, time = created, type = role, name,
/// note = email, unit = time zone) and `totals` (amount = level with unit `level`, points,
/// calories burned, duration_seconds active, exercises = total workouts, note = streaks).
/// Times are ISO 8601 in UTC (`2025-06-01T05:30:00Z`), days `YYYY-MM-DD`, numbers with a
/// decimal point and no thousands separator. Records end with CRLF; fields are quoted as
/// RFC 4180 says (``CSV``). The JSON export is the complete one; this is for spreadsheets.
extension ExportDocument {
    /// The header row's columns.
    static let csvColumns = [
        "kind", "id", "parent_id", "time", "day", "type", "name", "amount", "unit", "duration_seconds",
        "calories", "protein_g", "carbs_g", "fat_g", "exercises", "points", "note", "time_zone",
        "distance_m", "elevation_gain_m", "average_heart_rate", "max_heart_rate", "steps", "location",
    ]

    /// The document as CSV text, header first.
    func csv() -> String {
        var text = CSV.record(Self.csvColumns)
        for row in csvRows() {
            text += CSV.record(Self.csvColumns.map { row[$0] ?? "" })
        }
        return text
    }

    /// The rows, as column → value.
    func csvRows() -> [[String: String]] {
        var rows: [[String: String]] = []
        if let profile {
            rows.append([
                "kind": "profile", "id": Format.id(profile.id), "time": Self.time(profile.createdAt),
                "type": profile.role.rawValue, "name": [profile.firstName, profile.lastName].filter { !$0.isEmpty }.joined(separator: " "),
                "note": profile.email, "unit": profile.timeZone,
            ])
        }
        if let totals {
            rows.append([
                "kind": "totals", "amount": String(totals.level), "unit": "level", "points": String(totals.points),
                "calories": Self.number(totals.totalCaloriesBurned), "duration_seconds": String(totals.totalActiveSeconds),
                "exercises": String(totals.totalWorkouts),
                "note": "current streak \(Format.count(totals.currentStreakDays, "day")); longest \(Format.count(totals.longestStreakDays, "day"))",
            ])
        }
        for workout in workouts {
            rows.append([
                "kind": "workout", "id": Format.id(workout.id), "time": Self.time(workout.performedAt),
                "day": workout.localDay?.description ?? "", "type": workout.type,
                "duration_seconds": String(workout.durationSeconds), "calories": Self.number(workout.caloriesBurned),
                "exercises": String(workout.exercisesCompleted), "note": workout.notes, "time_zone": workout.timeZone ?? "",
                "distance_m": workout.distanceM.map(Self.number) ?? "", "elevation_gain_m": workout.elevationGainM.map(Self.number) ?? "",
                "average_heart_rate": workout.averageHeartRate.map(String.init) ?? "", "max_heart_rate": workout.maxHeartRate.map(String.init) ?? "",
                "steps": workout.steps.map(String.init) ?? "", "location": workout.location?.rawValue ?? "",
            ])
        }
        for meal in meals {
            let time = Self.time(meal.eatenAt)
            let day = meal.localDay?.description ?? ""
            rows.append([
                "kind": "meal", "id": Format.id(meal.id), "time": time, "day": day, "type": meal.mealType.rawValue,
                "name": meal.name, "calories": Self.number(meal.totals.calories),
                "protein_g": Self.number(meal.totals.proteinG), "carbs_g": Self.number(meal.totals.carbsG),
                "fat_g": Self.number(meal.totals.fatG), "time_zone": meal.timeZone ?? "",
            ])
            for (index, item) in meal.items.enumerated() {
                rows.append([
                    "kind": "food_item", "id": String(index + 1), "parent_id": Format.id(meal.id), "time": time, "day": day,
                    "name": item.name, "amount": item.servings.map { Self.number($0) } ?? "",
                    "unit": item.servings == nil ? "" : "servings", "calories": Self.number(item.calories),
                    "protein_g": Self.number(item.proteinG), "carbs_g": Self.number(item.carbsG), "fat_g": Self.number(item.fatG),
                ])
            }
        }
        for entry in weights {
            rows.append([
                "kind": "weight", "id": Format.id(entry.id), "time": Self.time(entry.measuredAt),
                "day": entry.localDay?.description ?? "", "amount": Self.number(entry.weightKg), "unit": "kg", "note": entry.note,
                "time_zone": entry.timeZone ?? "",
            ])
        }
        for day in steps {
            rows.append([
                "kind": "steps", "day": day.day.description, "amount": String(day.steps), "unit": "steps",
                "note": day.sources.map { "\($0.source)=\($0.steps)" }.joined(separator: "; "),
            ])
        }
        for achievement in achievements {
            rows.append([
                "kind": "achievement", "id": achievement.id, "time": achievement.unlockedAt.map(Self.time) ?? "",
                "type": achievement.unlocked ? "unlocked" : "locked", "name": achievement.title,
                "amount": String(achievement.progress), "unit": "of \(achievement.target)",
                "points": String(achievement.points), "note": achievement.details,
            ])
        }
        return rows
    }

    /// An instant in ISO 8601, UTC: whole seconds, or milliseconds when it has them (so an
    /// import of the file gives back the same instant).
    static func time(_ date: Date) -> String {
        Format.instant(date)
    }

    /// A number with up to three decimals, no trailing zeros, no grouping.
    static func number(_ value: Double) -> String {
        Format.number(value, decimals: 3)
    }
}
