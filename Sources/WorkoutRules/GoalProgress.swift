// GoalProgress: how far a member is towards their goals on a day and in its ISO week.
//
// Every day is judged by the goals in effect on it (``GoalHistory``), against what the day
// recorded (``DayFigures``). A goal's rule depends on its kind:
//
//   energy, carbs, fat       met when the day's figure is within 10 % of the target
//   protein, daily steps     met when the day's figure reaches the target
//   weekly minutes, workouts met when the week's sum reaches the target
//
// so a day with nothing recorded shows its targets and meets none. `remaining` is
// target − actual: negative is how far over. A week's weekly goals are those in effect on
// the requested day, judged by the sums of all seven days (the days still to come have
// nothing yet). Days met count only days up to the member's today: a day still to come
// is not yet failed.

/// How far one goal is.
package struct GoalStanding: Equatable, Sendable {
    /// Which goal.
    package var kind: GoalKind
    /// The target, in the goal's unit.
    package var target: Double
    /// The figure so far.
    package var actual: Double
    /// Whether the goal was met.
    package var met: Bool

    /// target − actual: what remains, or (negative) how far over.
    package var remaining: Double { target - actual }

    /// Judges `actual` against `target` by the rule of `kind`.
    package init(kind: GoalKind, target: Double, actual: Double) {
        self.kind = kind
        self.target = target
        self.actual = actual
        switch kind {
        case .energy, .carbs, .fat: met = actual > 0 && abs(actual - target) <= 0.1 * target
        case .protein, .dailySteps, .weeklyActiveMinutes, .weeklyWorkouts: met = actual >= target
        case .targetWeight: met = false
        }
    }
}

/// The daily goals of one day.
package struct DayStanding: Equatable, Sendable {
    /// The day.
    package var day: LocalDay
    /// One standing per daily goal in effect, in ``GoalKind/daily`` order.
    package var goals: [GoalStanding]
}

/// On how many days of a week one daily goal was met.
package struct DaysMet: Equatable, Sendable {
    /// Which goal.
    package var kind: GoalKind
    /// Days (up to today) the goal was in effect.
    package var daysWithGoal: UInt32
    /// Days it was met.
    package var daysMet: UInt32
}

/// The ISO week holding a day.
package struct WeekStanding: Equatable, Sendable {
    /// Monday.
    package var start: LocalDay
    /// Sunday.
    package var end: LocalDay
    /// The weekly goals in effect on the requested day, judged by the week's sums.
    package var goals: [GoalStanding]
    /// The seven days, Monday first.
    package var days: [DayStanding]
    /// Per daily goal in effect on some day up to today, in ``GoalKind`` order.
    package var daysMet: [DaysMet]
}

/// A member's goal history: which set was in effect on which day.
package struct GoalHistory: Equatable, Sendable {
    /// The entries, oldest first: each set applies from its day until the next entry's.
    package private(set) var entries: [(from: LocalDay, goals: GoalSet)]

    /// A history from entries in any order (a later duplicate day wins).
    package init(_ entries: [(from: LocalDay, goals: GoalSet)]) {
        var byDay: [LocalDay: GoalSet] = [:]
        for entry in entries { byDay[entry.from] = entry.goals }
        self.entries = byDay.sorted { $0.key < $1.key }.map { (from: $0.key, goals: $0.value) }
    }

    /// The set in effect on `day`: the newest entry from `day` or before; none before the first.
    package func goals(on day: LocalDay) -> GoalSet {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].from <= day { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? .none : entries[low - 1].goals
    }

    package static func == (lhs: GoalHistory, rhs: GoalHistory) -> Bool {
        lhs.entries.map(\.from) == rhs.entries.map(\.from) && lhs.entries.map(\.goals) == rhs.entries.map(\.goals)
    }
}

/// The progress rules.
package enum GoalProgressRules {
    /// A day's figure for a daily goal.
    package static func dailyFigure(_ kind: GoalKind, _ figures: DayFigures) -> Double {
        switch kind {
        case .energy: figures.caloriesEaten
        case .protein: figures.proteinGrams
        case .carbs: figures.carbsGrams
        case .fat: figures.fatGrams
        case .dailySteps: Double(figures.steps)
        case .weeklyActiveMinutes: Double(figures.activeSeconds) / 60
        case .weeklyWorkouts: Double(figures.workouts)
        case .targetWeight: 0
        }
    }

    /// Judges one day by its goals.
    package static func day(_ day: LocalDay, figures: DayFigures, goals: GoalSet) -> DayStanding {
        DayStanding(day: day, goals: GoalKind.daily.compactMap { kind in
            goals.dailyTarget(kind).map { GoalStanding(kind: kind, target: $0, actual: dailyFigure(kind, figures)) }
        })
    }

    /// Judges the ISO week holding `day`.
    ///
    /// - Parameters:
    ///   - day: The requested day.
    ///   - figures: Each day's figures (zeros for a day without records).
    ///   - history: The member's goal history.
    ///   - today: The member's today, in their zone: later days are not counted as met or not.
    package static func week(of day: LocalDay, figures: (LocalDay) -> DayFigures, history: GoalHistory, today: LocalDay) -> WeekStanding {
        let start = day.isoWeekStart
        let dates = (0..<7).map { start.adding(days: Int32($0)) }
        var sums = DayFigures.zero
        var days: [DayStanding] = []
        var counts: [GoalKind: DaysMet] = [:]
        for date in dates {
            let dayFigures = figures(date)
            sums.add(dayFigures)
            let standing = Self.day(date, figures: dayFigures, goals: history.goals(on: date))
            days.append(standing)
            guard date <= today else { continue }
            for goal in standing.goals {
                var count = counts[goal.kind] ?? DaysMet(kind: goal.kind, daysWithGoal: 0, daysMet: 0)
                count.daysWithGoal += 1
                if goal.met { count.daysMet += 1 }
                counts[goal.kind] = count
            }
        }
        let goals = history.goals(on: day)
        let weekly = GoalKind.weekly.compactMap { kind in
            goals.weeklyTarget(kind).map { GoalStanding(kind: kind, target: $0, actual: dailyFigure(kind, sums)) }
        }
        return WeekStanding(start: start, end: start.adding(days: 6), goals: weekly, days: days,
                            daysMet: counts.values.sorted { $0.kind < $1.kind })
    }
}
