import WorkoutProtocol

/// How far one goal is, on a day or in a week (`Goals.Progress`).
public struct GoalProgress: Sendable, Hashable, Codable {
    /// Which goal.
    public var kind: GoalKind
    /// The target, in the goal's unit: kcal, grams, steps, minutes or workouts (a share of
    /// energy already turned into grams).
    public var target: Double
    /// The figure so far, in the same unit.
    public var actual: Double
    /// `target − actual`: what remains, or, when negative, how far over.
    public var remaining: Double
    /// Whether the goal was met (energy, carbs and fat: within 10 %; the others: reached).
    public var met: Bool

    /// Creates a progress figure (the server makes them; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - kind: Which goal.
    ///   - target: The target.
    ///   - actual: The figure so far.
    ///   - met: Whether it was met.
    public init(kind: GoalKind, target: Double, actual: Double, met: Bool) {
        self.kind = kind
        self.target = target
        self.actual = actual
        self.remaining = target - actual
        self.met = met
    }
}

/// The daily goals of one day, each judged by the goals in effect that day.
public struct DayProgress: Sendable, Hashable, Codable {
    /// The day.
    public var day: LocalDate
    /// One figure per daily goal in effect (energy, protein, carbs, fat, steps, in that order).
    public var goals: [GoalProgress]

    /// Creates a day's progress (the server makes them; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - day: The day.
    ///   - goals: Its figures.
    public init(day: LocalDate, goals: [GoalProgress]) {
        self.day = day
        self.goals = goals
    }

    /// The figure of one goal, if it was in effect.
    public subscript(kind: GoalKind) -> GoalProgress? { goals.first { $0.kind == kind } }
}

/// On how many days of a week one daily goal was met.
public struct DaysMet: Sendable, Hashable, Codable {
    /// Which goal.
    public var kind: GoalKind
    /// Days up to today the goal was in effect.
    public var daysWithGoal: Int
    /// Days it was met.
    public var daysMet: Int

    /// Creates a count (the server makes them; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - kind: Which goal.
    ///   - daysWithGoal: Days in effect.
    ///   - daysMet: Days met.
    public init(kind: GoalKind, daysWithGoal: Int, daysMet: Int) {
        self.kind = kind
        self.daysWithGoal = daysWithGoal
        self.daysMet = daysMet
    }
}

// MARK: Wire

extension GoalProgress {
    /// A figure from the wire; `nil` for a kind this library does not know.
    init?(wire: Workout_V1_GoalProgress) {
        guard let kind = GoalKind(wire: wire.kind) else { return nil }
        self.init(kind: kind, target: wire.target, actual: wire.actual, met: wire.met)
    }
}

extension DayProgress {
    /// A day from the wire.
    init(wire: Workout_V1_DayProgress) {
        self.init(day: LocalDate(clampingWire: wire.day), goals: wire.goals.compactMap(GoalProgress.init(wire:)))
    }
}
