public import Foundation
import WorkoutProtocol

/// A saved meal or workout ("my breakfast", "Tuesday run, 45 min"), logged again in one call
/// with ``WorkoutClient/logTemplate(_:at:recordID:)``.
public struct Template: Sendable, Hashable, Codable, Identifiable {
    /// What a template logs.
    public enum Content: Sendable, Hashable, Codable {
        /// A meal: its type, name and items (its id and time are those of each logging).
        case meal(Meal)
        /// A workout: its type, duration and figures (its id and time are those of each logging).
        case workout(Workout)
    }

    /// Client-made id.
    public var id: UUID
    /// 1...64 bytes, unique among the member's templates.
    public var name: String
    /// What it logs.
    public var content: Content
    /// When it was saved first (`nil` before it is stored).
    public var createdAt: Date?
    /// When it was saved last.
    public var updatedAt: Date?

    /// Creates a template to save.
    ///
    /// - Parameters:
    ///   - id: Its id (a new time-ordered one by default; an existing one replaces that template).
    ///   - name: Its name.
    ///   - content: The meal or workout it logs.
    public init(id: UUID = .timeOrdered(), name: String, content: Content) {
        self.id = id
        self.name = name
        self.content = content
    }
}

/// What logging a template (or a copy of a meal or workout) logged.
public enum LoggedFromTemplate: Sendable, Hashable {
    /// A meal.
    case meal(LoggedMeal)
    /// A workout.
    case workout(LoggedWorkout)
}

// MARK: Wire

extension Template {
    /// A template from the wire (one without content reads as an empty meal).
    init(wire: Workout_V1_Template) {
        let content: Content = switch wire.record {
        case .workout(let workout): .workout(Workout(wire: workout))
        case .meal(let meal): .meal(Meal(wire: meal))
        case nil: .meal(Meal(wire: Workout_V1_Meal()))
        }
        self.init(id: UUID(wireBytes: wire.id), name: wire.name, content: content)
        createdAt = Date(wireMillisecondsUnlessZero: wire.createdAtMs)
        updatedAt = Date(wireMillisecondsUnlessZero: wire.updatedAtMs)
    }

    /// The template as the wire message.
    ///
    /// - Throws: ``WorkoutError`` for a workout's count that does not fit the wire.
    func wire() throws(WorkoutError) -> Workout_V1_Template {
        var message = Workout_V1_Template()
        message.id = id.wireBytes
        message.name = name
        switch content {
        case .meal(let meal): message.meal = meal.wire
        case .workout(let workout): message.workout = try workout.wire()
        }
        return message
    }
}

extension LoggedFromTemplate {
    /// The answer from the wire.
    init(wire: Workout_V1_LogTemplateResponse) {
        switch wire.logged {
        case .workout(let workout): self = .workout(LoggedWorkout(wire: workout))
        case .meal(let meal): self = .meal(LoggedMeal(wire: meal))
        case nil: self = .meal(LoggedMeal(wire: Workout_V1_LogMealResponse()))
        }
    }
}
