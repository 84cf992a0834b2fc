import WorkoutProtocol

/// A day's progress towards the member's goals, its ISO week's, and the weight trend
/// (`Goals.Progress`): what a screen needs to draw its rings.
public struct GoalsProgress: Sendable, Hashable, Codable {
    /// The requested day.
    public var day: DayProgress
    /// Its week.
    public var week: WeekProgress
    /// The weight trend up to the day.
    public var weight: WeightTrend

    /// Creates progress (the server makes it; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - day: The day.
    ///   - week: Its week.
    ///   - weight: The weight trend.
    public init(day: DayProgress, week: WeekProgress, weight: WeightTrend) {
        self.day = day
        self.week = week
        self.weight = weight
    }
}

/// The ISO week (Monday to Sunday) holding a day.
public struct WeekProgress: Sendable, Hashable, Codable {
    /// Monday.
    public var start: LocalDate
    /// Sunday.
    public var end: LocalDate
    /// The weekly goals (active minutes, workouts) in effect on the requested day, by the
    /// week's sums.
    public var goals: [GoalProgress]
    /// The seven days, Monday first, each by its own goals.
    public var days: [DayProgress]
    /// Per daily goal: on how many days up to today it was met.
    public var daysMet: [DaysMet]

    /// Creates a week (the server makes them; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - start: Monday.
    ///   - end: Sunday.
    ///   - goals: Weekly goals.
    ///   - days: The seven days.
    ///   - daysMet: Days met per daily goal.
    public init(start: LocalDate, end: LocalDate, goals: [GoalProgress], days: [DayProgress], daysMet: [DaysMet]) {
        self.start = start
        self.end = end
        self.goals = goals
        self.days = days
        self.daysMet = daysMet
    }
}

/// The smoothed weight up to a day and where it leads (PROTOCOL.md, "Weight trend").
public struct WeightTrend: Sendable, Hashable, Codable {
    /// The smoothed weight, kg; `nil` when no weigh-in lies in the 90 days up to the day.
    public var trendKg: Double?
    /// The change per week, kg (negative: losing), over the last 28 days.
    public var changePerWeekKg: Double
    /// The target weight in effect, kg, if any.
    public var targetKg: Double?
    /// The day to reach it by, if set.
    public var targetBy: LocalDate?
    /// The day the target is reached at the current rate, if it is.
    public var projected: LocalDate?
    /// Whether the trend is within 0.25 kg of the target.
    public var reached: Bool

    /// Creates a trend (the server makes them; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - trendKg: The smoothed weight.
    ///   - changePerWeekKg: kg per week.
    ///   - targetKg: The target.
    ///   - targetBy: Its day.
    ///   - projected: When it is reached at this rate.
    ///   - reached: Whether it is reached.
    public init(trendKg: Double?, changePerWeekKg: Double = 0, targetKg: Double? = nil, targetBy: LocalDate? = nil,
                projected: LocalDate? = nil, reached: Bool = false) {
        self.trendKg = trendKg
        self.changePerWeekKg = changePerWeekKg
        self.targetKg = targetKg
        self.targetBy = targetBy
        self.projected = projected
        self.reached = reached
    }
}

// MARK: Wire

extension GoalsProgress {
    /// Progress from the wire.
    init(wire: Workout_V1_ProgressResponse) {
        let week = wire.week
        let trend = wire.weight
        self.init(
            day: DayProgress(wire: wire.day),
            week: WeekProgress(
                start: LocalDate(clampingWire: week.start), end: LocalDate(clampingWire: week.end),
                goals: week.goals.compactMap(GoalProgress.init(wire:)), days: week.days.map(DayProgress.init(wire:)),
                daysMet: week.daysMet.compactMap { count in
                    GoalKind(wire: count.kind).map { DaysMet(kind: $0, daysWithGoal: Int(count.daysWithGoal), daysMet: Int(count.daysMet)) }
                }),
            weight: WeightTrend(
                trendKg: trend.hasTrend_p ? trend.trendKg : nil, changePerWeekKg: trend.changePerWeekKg,
                targetKg: trend.targetKg > 0 ? trend.targetKg : nil, targetBy: trend.hasTargetBy ? LocalDate(clampingWire: trend.targetBy) : nil,
                projected: trend.hasProjected ? LocalDate(clampingWire: trend.projected) : nil, reached: trend.reached))
    }
}
