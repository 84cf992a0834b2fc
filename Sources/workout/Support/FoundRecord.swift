import Foundation
import WorkoutClient

/// One of the member's workouts, meals or weigh-ins, in its current state, as
/// ``RecordFinder`` finds it.
enum FoundRecord: Sendable, Encodable {
    /// A workout.
    case workout(Workout)
    /// A meal.
    case meal(Meal)
    /// A weigh-in.
    case weight(WeightEntry)

    /// The record from a change, when it is a workout, meal or weigh-in.
    init?(_ item: Change.Item) {
        switch item {
        case .workout(let workout): self = .workout(workout)
        case .meal(let meal): self = .meal(meal)
        case .weight(let entry): self = .weight(entry)
        default: return nil
        }
    }

    /// Its kind.
    var kind: RecordKindArgument {
        switch self {
        case .workout: .workout
        case .meal: .meal
        case .weight: .weight
        }
    }

    /// Its id.
    var id: UUID {
        switch self {
        case .workout(let workout): workout.id
        case .meal(let meal): meal.id
        case .weight(let entry): entry.id
        }
    }

    /// When it happened.
    var time: Date {
        switch self {
        case .workout(let workout): workout.performedAt
        case .meal(let meal): meal.eatenAt
        case .weight(let entry): entry.measuredAt
        }
    }

    /// One line about it: "running, 30 min, 2025-06-01 07:30".
    ///
    /// - Parameter zone: The zone its time is shown in.
    func summary(in zone: TimeZone) -> String {
        let when = Format.dateTime(time, in: zone)
        switch self {
        case .workout(let workout):
            return "\(workout.type), \(Format.duration(seconds: workout.durationSeconds)), \(when)"
        case .meal(let meal):
            let title = meal.name.isEmpty ? meal.mealType.rawValue : "\(meal.mealType.rawValue) \"\(meal.name)\""
            return "\(title), \(Format.kcal(meal.totals.calories)), \(when)"
        case .weight(let entry):
            return "\(Format.kilograms(entry.weightKg)), \(when)"
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .workout(let workout): try workout.encode(to: encoder)
        case .meal(let meal): try meal.encode(to: encoder)
        case .weight(let entry): try entry.encode(to: encoder)
        }
    }
}
