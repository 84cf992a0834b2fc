// Summaries: bucketing per-day figures into day or ISO-week periods.
//
// `Queries.Summaries` sums, per period of a range of local days, what was eaten,
// burned and walked. Each workout and meal counts on its own local day (the day in the
// zone it was logged in) and steps on their reported day, so the query code range-scans
// its indexes over `scanDays`, feeds every record to the accumulator by day, and asks for
// the periods. Periods are days, or ISO weeks (Monday to Sunday) where the first and
// last periods are the whole weeks containing `from` and `to`. Every period of the
// range is listed, oldest first, empty ones as zeros; a range of more than 400 periods
// is refused on `to_day`, as is `to` before `from`. Counts saturate instead of
// overflowing. Feeding a day outside `scanDays` is ignored (and reported), so a scan
// may be a little wider than needed.

/// What happened on one local day (or, summed, in one period).
package struct DayFigures: Equatable, Sendable {
    /// kcal eaten: the sum of the meals' food item calories.
    package var caloriesEaten: Double
    /// kcal burned: the sum of the workouts' calories burned.
    package var caloriesBurned: Double
    /// The number of workouts.
    package var workouts: UInt32
    /// The sum of the workouts' durations, in seconds.
    package var activeSeconds: UInt32
    /// Steps: for a day, the day's figure (the maximum over sources); for a period, the
    /// sum of its days' figures.
    package var steps: UInt32
    /// Protein eaten, grams.
    package var proteinGrams: Double
    /// Carbohydrates eaten, grams.
    package var carbsGrams: Double
    /// Fat eaten, grams.
    package var fatGrams: Double
    /// The number of meals.
    package var meals: UInt32

    /// All zeros: a day with nothing recorded.
    package static let zero = DayFigures()

    /// Creates figures; every figure defaults to zero.
    ///
    /// - Parameters:
    ///   - caloriesEaten: kcal eaten.
    ///   - caloriesBurned: kcal burned.
    ///   - workouts: Number of workouts.
    ///   - activeSeconds: Workout time, seconds.
    ///   - steps: Steps.
    ///   - proteinGrams: Protein, grams.
    ///   - carbsGrams: Carbohydrates, grams.
    ///   - fatGrams: Fat, grams.
    ///   - meals: Number of meals.
    package init(caloriesEaten: Double = 0, caloriesBurned: Double = 0, workouts: UInt32 = 0, activeSeconds: UInt32 = 0,
                 steps: UInt32 = 0, proteinGrams: Double = 0, carbsGrams: Double = 0, fatGrams: Double = 0, meals: UInt32 = 0) {
        self.caloriesEaten = caloriesEaten
        self.caloriesBurned = caloriesBurned
        self.workouts = workouts
        self.activeSeconds = activeSeconds
        self.steps = steps
        self.proteinGrams = proteinGrams
        self.carbsGrams = carbsGrams
        self.fatGrams = fatGrams
        self.meals = meals
    }

    /// Adds other figures to these, figure by figure (counts saturate at `UInt32.max`).
    ///
    /// - Parameter other: The figures to add.
    package mutating func add(_ other: DayFigures) {
        caloriesEaten += other.caloriesEaten
        caloriesBurned += other.caloriesBurned
        workouts = Self.saturatingSum(workouts, other.workouts)
        activeSeconds = Self.saturatingSum(activeSeconds, other.activeSeconds)
        steps = Self.saturatingSum(steps, other.steps)
        proteinGrams += other.proteinGrams
        carbsGrams += other.carbsGrams
        fatGrams += other.fatGrams
        meals = Self.saturatingSum(meals, other.meals)
    }

    private static func saturatingSum(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}

/// The length of a summary period.
package enum SummaryGranularity: Sendable, Hashable {
    /// One period per local day.
    case day
    /// One period per ISO week, Monday to Sunday.
    case week
}

/// The sums over one period.
package struct PeriodSummary: Equatable, Sendable {
    /// The first day of the period.
    package var start: LocalDay
    /// The last day of the period (inclusive); equals `start` for days.
    package var end: LocalDay
    /// The sums over the period's days.
    package var figures: DayFigures

    /// Creates a period summary.
    ///
    /// - Parameters:
    ///   - start: The first day.
    ///   - end: The last day, inclusive.
    ///   - figures: The sums.
    package init(start: LocalDay, end: LocalDay, figures: DayFigures) {
        self.start = start
        self.end = end
        self.figures = figures
    }
}

/// Sums per-day figures into the day or week periods of a range.
package struct SummaryAccumulator: Sendable {
    /// The most periods one summary may have.
    package static let maximumPeriods = 400

    /// The period length.
    package let granularity: SummaryGranularity
    /// Every day the periods cover: `from...to` for days, from the Monday of `from`'s
    /// week to the Sunday of `to`'s week for weeks. Scan records over these days.
    package let scanDays: ClosedRange<LocalDay>

    private let firstEpochDay: Int32
    private let periodLength: Int32
    private var sums: [DayFigures]

    /// Prepares the periods of a range.
    ///
    /// - Parameters:
    ///   - from: The first day of the range, inclusive.
    ///   - to: The last day of the range, inclusive.
    ///   - granularity: Days or ISO weeks.
    ///   - fromField: The path of the request field holding `from`.
    ///   - toField: The path of the request field holding `to`.
    /// - Throws: `DomainError.invalid(toField, …)` when `to` is before `from`, or the
    ///   range has more than 400 periods.
    package init(from: LocalDay, to: LocalDay, granularity: SummaryGranularity,
                 fromField: String = "from_day", toField: String = "to_day") throws(DomainError) {
        guard from <= to else {
            throw .invalid(toField, "\(toField) must not be before \(fromField) (got \(fromField) = \(from), \(toField) = \(to))")
        }
        let first: LocalDay, last: LocalDay, length: Int32
        switch granularity {
        case .day: (first, last, length) = (from, to, 1)
        case .week: (first, last, length) = (from.isoWeekStart, to.isoWeekStart.adding(days: 6), 7)
        }
        let count = Int((Int64(last.epochDay) - Int64(first.epochDay) + 1) / Int64(length))
        guard count <= Self.maximumPeriods else {
            let unit = granularity == .day ? "days" : "weeks"
            throw .invalid(toField, "\(toField) must be at most \(Self.maximumPeriods) \(unit) from \(fromField), counting both (got \(count) \(unit) from \(from) to \(to))")
        }
        self.granularity = granularity
        self.scanDays = first...last
        self.firstEpochDay = first.epochDay
        self.periodLength = length
        self.sums = Array(repeating: .zero, count: count)
    }

    /// The number of periods.
    package var periodCount: Int { sums.count }

    /// Adds one day's figures (or one record's share of them) to the period holding
    /// that day.
    ///
    /// - Parameters:
    ///   - figures: The figures to add.
    ///   - day: The local day they belong to.
    /// - Returns: `false` (and nothing added) when `day` is outside `scanDays`.
    @discardableResult
    package mutating func add(_ figures: DayFigures, on day: LocalDay) -> Bool {
        guard scanDays.contains(day) else { return false }
        sums[Int((day.epochDay - firstEpochDay) / periodLength)].add(figures)
        return true
    }

    /// Adds one workout.
    ///
    /// - Parameters:
    ///   - day: The workout's local day.
    ///   - caloriesBurned: Its calories burned.
    ///   - durationSeconds: Its duration in seconds.
    /// - Returns: `false` when `day` is outside `scanDays`.
    @discardableResult
    package mutating func addWorkout(on day: LocalDay, caloriesBurned: Double, durationSeconds: UInt32) -> Bool {
        add(DayFigures(caloriesBurned: caloriesBurned, workouts: 1, activeSeconds: durationSeconds), on: day)
    }

    /// Adds one meal, with the sums of its food items.
    ///
    /// - Parameters:
    ///   - day: The meal's local day.
    ///   - calories: The sum of its items' calories.
    ///   - proteinGrams: The sum of its items' protein.
    ///   - carbsGrams: The sum of its items' carbohydrates.
    ///   - fatGrams: The sum of its items' fat.
    /// - Returns: `false` when `day` is outside `scanDays`.
    @discardableResult
    package mutating func addMeal(on day: LocalDay, calories: Double, proteinGrams: Double, carbsGrams: Double, fatGrams: Double) -> Bool {
        add(DayFigures(caloriesEaten: calories, proteinGrams: proteinGrams, carbsGrams: carbsGrams, fatGrams: fatGrams, meals: 1), on: day)
    }

    /// Adds a day's step figure (already the one source's that counts, see
    /// `StepsRule.dayFigure`). Feed each day once.
    ///
    /// - Parameters:
    ///   - day: The reported day.
    ///   - steps: The day's figure.
    /// - Returns: `false` when `day` is outside `scanDays`.
    @discardableResult
    package mutating func addSteps(on day: LocalDay, steps: UInt32) -> Bool {
        add(DayFigures(steps: steps), on: day)
    }

    /// Every period of the range, oldest first, empty ones included as zeros.
    ///
    /// - Returns: One summary per period.
    package func periods() -> [PeriodSummary] {
        sums.indices.map { index in
            let start = LocalDay(epochDay: firstEpochDay + Int32(index) * periodLength)
            return PeriodSummary(start: start, end: start.adding(days: periodLength - 1), figures: sums[index])
        }
    }
}
