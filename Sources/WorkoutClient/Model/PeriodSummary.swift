import WorkoutProtocol

/// Sums over one period, a day or an ISO week (`Queries.Summaries`). Workouts and meals
/// count on their own local day, steps on their reported day.
public struct PeriodSummary: Sendable, Hashable, Codable {
    /// First day of the period.
    public var start: LocalDate
    /// Last day of the period (inclusive); equals ``start`` for days.
    public var end: LocalDate
    /// kcal eaten: the meals' items' calories.
    public var caloriesEaten: Double
    /// kcal burned: the workouts' calories burned.
    public var caloriesBurned: Double
    /// Number of workouts.
    public var workouts: Int
    /// Active time: the workouts' durations, in seconds.
    public var activeSeconds: Int
    /// Steps: the sum over the period's days of each day's figure.
    public var steps: Int
    /// Protein eaten, grams.
    public var proteinG: Double
    /// Carbohydrates eaten, grams.
    public var carbsG: Double
    /// Fat eaten, grams.
    public var fatG: Double
    /// Number of meals.
    public var meals: Int
    /// The period's goals, for its rings: a day's daily goals, a week's weekly goals (empty
    /// without goals).
    public var goals: [GoalProgress] = []

    /// Creates a period summary (the server makes them; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - start: First day.
    ///   - end: Last day; `start` when `nil`.
    ///   - caloriesEaten: kcal eaten.
    ///   - caloriesBurned: kcal burned.
    ///   - workouts: Number of workouts.
    ///   - activeSeconds: Active time, seconds.
    ///   - steps: Steps.
    ///   - proteinG: Protein, grams.
    ///   - carbsG: Carbohydrates, grams.
    ///   - fatG: Fat, grams.
    ///   - meals: Number of meals.
    public init(
        start: LocalDate, end: LocalDate? = nil, caloriesEaten: Double = 0, caloriesBurned: Double = 0,
        workouts: Int = 0, activeSeconds: Int = 0, steps: Int = 0, proteinG: Double = 0, carbsG: Double = 0,
        fatG: Double = 0, meals: Int = 0
    ) {
        self.start = start
        self.end = end ?? start
        self.caloriesEaten = caloriesEaten
        self.caloriesBurned = caloriesBurned
        self.workouts = workouts
        self.activeSeconds = activeSeconds
        self.steps = steps
        self.proteinG = proteinG
        self.carbsG = carbsG
        self.fatG = fatG
        self.meals = meals
    }
}

// MARK: Decoding

extension PeriodSummary {
    private enum CodingKeys: String, CodingKey {
        case start, end, caloriesEaten, caloriesBurned, workouts, activeSeconds, steps, proteinG, carbsG, fatG, meals, goals
    }

    /// Decodes a summary; one encoded before summaries carried goals has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            start: try container.decode(LocalDate.self, forKey: .start), end: try container.decode(LocalDate.self, forKey: .end),
            caloriesEaten: try container.decode(Double.self, forKey: .caloriesEaten),
            caloriesBurned: try container.decode(Double.self, forKey: .caloriesBurned), workouts: try container.decode(Int.self, forKey: .workouts),
            activeSeconds: try container.decode(Int.self, forKey: .activeSeconds), steps: try container.decode(Int.self, forKey: .steps),
            proteinG: try container.decode(Double.self, forKey: .proteinG), carbsG: try container.decode(Double.self, forKey: .carbsG),
            fatG: try container.decode(Double.self, forKey: .fatG), meals: try container.decode(Int.self, forKey: .meals))
        goals = try container.decodeIfPresent([GoalProgress].self, forKey: .goals) ?? []
    }
}

// MARK: Wire

extension PeriodSummary {
    /// Creates a period summary from the wire (malformed days are clamped, see
    /// ``LocalDate/init(clampingWire:)``).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_PeriodSummary) {
        self.init(
            start: LocalDate(clampingWire: wire.start), end: LocalDate(clampingWire: wire.end),
            caloriesEaten: wire.caloriesEaten, caloriesBurned: wire.caloriesBurned, workouts: Int(wire.workouts),
            activeSeconds: Int(wire.activeSeconds), steps: Int(wire.steps), proteinG: wire.proteinG,
            carbsG: wire.carbsG, fatG: wire.fatG, meals: Int(wire.meals)
        )
        goals = wire.goals.compactMap(GoalProgress.init(wire:))
    }
}
