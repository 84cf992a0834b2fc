import ArgumentParser
import WorkoutClient

/// The kind of record `workout edit` and `workout delete` act on: `workout`, `meal` or `weight`.
enum RecordKindArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// A workout.
    case workout
    /// A meal (with its items).
    case meal
    /// A weigh-in.
    case weight

    /// The client library's kind.
    var kind: RecordKind {
        switch self {
        case .workout: .workout
        case .meal: .meal
        case .weight: .weightEntry
        }
    }

    /// The record's name in messages: "workout", "meal", "weigh-in".
    var noun: String {
        switch self {
        case .workout: "workout"
        case .meal: "meal"
        case .weight: "weigh-in"
        }
    }

    /// Where the member finds the IDs of this kind.
    var listing: String {
        switch self {
        case .workout: "`workout history --json`"
        case .meal: "`workout today --day DAY --json`"
        case .weight: "`workout weight --json`"
        }
    }
}
