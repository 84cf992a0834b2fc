public import Foundation
import WorkoutProtocol

/// One record of an import batch (``WorkoutClient/importRecords(_:)``): a record as the
/// member would log it live.
public enum ImportRecord: Sendable, Hashable, Codable {
    /// A workout, as ``WorkoutClient/logWorkout(_:)`` takes it.
    case workout(Workout)
    /// A meal with its items, as ``WorkoutClient/logMeal(_:)`` takes it.
    case meal(Meal)
    /// A weigh-in, as ``WorkoutClient/logWeight(_:)`` takes it.
    case weight(WeightEntry)
    /// A source's step count for a day, as ``WorkoutClient/reportSteps(_:)`` takes it.
    case steps(StepsReport)

    /// The kind of record, for counts and messages.
    public var kind: ImportKind {
        switch self {
        case .workout: .workout
        case .meal: .meal
        case .weight: .weight
        case .steps: .steps
        }
    }

    /// The instant the record is about (when it was done, eaten, measured; for steps, noon
    /// of the day in UTC), for date ranges.
    public var date: Date {
        switch self {
        case .workout(let workout): workout.performedAt
        case .meal(let meal): meal.eatenAt
        case .weight(let entry): entry.measuredAt
        case .steps(let report):
            Date(timeIntervalSince1970: Double(report.day.epochDay) * 86_400 + 43_200)
        }
    }
}

/// The kinds of record an import brings in.
public enum ImportKind: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case workout, meal, weight, steps

    /// The kind's name for one record, for counts: "workout", "meal", "weigh-in", "steps report".
    public var singular: String {
        switch self {
        case .workout: "workout"
        case .meal: "meal"
        case .weight: "weigh-in"
        case .steps: "steps report"
        }
    }

    /// The kind's name in the plural, for counts: "workouts", "meals", "weigh-ins", "steps reports".
    public var plural: String {
        switch self {
        case .workout: "workouts"
        case .meal: "meals"
        case .weight: "weigh-ins"
        case .steps: "steps reports"
        }
    }

    public static func < (lhs: ImportKind, rhs: ImportKind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

// MARK: Wire

extension ImportRecord {
    /// This record as the wire message.
    ///
    /// - Throws: ``WorkoutError`` for a count that does not fit the wire.
    func wire() throws(WorkoutError) -> Workout_V1_ImportRecord {
        var message = Workout_V1_ImportRecord()
        switch self {
        case .workout(let workout): message.workout = try workout.wire()
        case .meal(let meal): message.meal = meal.wire
        case .weight(let entry): message.weightEntry = entry.wire
        case .steps(let report): message.steps = try report.wire()
        }
        return message
    }
}
