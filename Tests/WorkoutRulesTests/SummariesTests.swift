import Testing
import TestSupport
import WorkoutRules

@Suite("Summaries")
struct SummariesTests {
    @Test("Days are listed oldest first, empty days as zeros")
    func days() throws {
        var accumulator = try SummaryAccumulator(from: LocalDay("2026-03-28"), to: LocalDay("2026-03-31"), granularity: .day)
        #expect(accumulator.scanDays == LocalDay("2026-03-28")...LocalDay("2026-03-31"))
        accumulator.addWorkout(on: LocalDay("2026-03-29"), caloriesBurned: 300, durationSeconds: 1800)
        accumulator.addWorkout(on: LocalDay("2026-03-29"), caloriesBurned: 200.5, durationSeconds: 600)
        accumulator.addMeal(on: LocalDay("2026-03-29"), calories: 650, proteinGrams: 30, carbsGrams: 80, fatGrams: 20)
        accumulator.addSteps(on: LocalDay("2026-03-31"), steps: 8000)
        let afterRange = accumulator.addSteps(on: LocalDay("2026-04-01"), steps: 9999)
        let beforeRange = accumulator.addSteps(on: LocalDay("2026-03-27"), steps: 9999)
        #expect(!afterRange && !beforeRange)
        let periods = accumulator.periods()
        #expect(periods.map(\.start.description) == ["2026-03-28", "2026-03-29", "2026-03-30", "2026-03-31"])
        #expect(periods.allSatisfy { $0.start == $0.end })
        #expect(periods[0].figures == .zero)
        #expect(periods[1].figures == DayFigures(caloriesEaten: 650, caloriesBurned: 500.5, workouts: 2, activeSeconds: 2400,
                                                 proteinGrams: 30, carbsGrams: 80, fatGrams: 20, meals: 1))
        #expect(periods[2].figures == .zero)
        #expect(periods[3].figures == DayFigures(steps: 8000))
    }

    @Test("Weeks are whole ISO weeks, Monday to Sunday, covering both ends of the range")
    func weeks() throws {
        // Wednesday 2026-03-25 to Tuesday 2026-04-07: three weeks.
        var accumulator = try SummaryAccumulator(from: LocalDay("2026-03-25"), to: LocalDay("2026-04-07"), granularity: .week)
        #expect(accumulator.scanDays == LocalDay("2026-03-23")...LocalDay("2026-04-12"))
        #expect(accumulator.periodCount == 3)
        for day in ["2026-03-23", "2026-03-29"] { accumulator.addSteps(on: LocalDay(day), steps: 5000) }
        accumulator.addWorkout(on: LocalDay("2026-04-12"), caloriesBurned: 100, durationSeconds: 60)
        let periods = accumulator.periods()
        #expect(periods.map { "\($0.start)…\($0.end)" } == ["2026-03-23…2026-03-29", "2026-03-30…2026-04-05", "2026-04-06…2026-04-12"])
        #expect(periods[0].figures == DayFigures(steps: 10_000))
        #expect(periods[1].figures == .zero)
        #expect(periods[2].figures == DayFigures(caloriesBurned: 100, workouts: 1, activeSeconds: 60))
    }

    @Test("A one-day range in weeks is the whole week around it")
    func singleDayWeek() throws {
        let accumulator = try SummaryAccumulator(from: LocalDay("2026-01-01"), to: LocalDay("2026-01-01"), granularity: .week)
        #expect(accumulator.periods().map { "\($0.start)…\($0.end)" } == ["2025-12-29…2026-01-04"])
    }

    @Test("Up to 400 periods are allowed; 401 are refused on to_day", arguments: [
        (SummaryGranularity.day, "2026-01-01", "2027-02-04", true),   // 400 days
        (.day, "2026-01-01", "2027-02-05", false),                     // 401 days
        (.week, "2026-01-05", "2033-09-04", true),                     // 400 weeks, Monday to Sunday
        (.week, "2026-01-05", "2033-09-05", false),                    // 401 weeks
        (.week, "2026-01-11", "2033-08-29", true),                     // 400 weeks, Sunday to Monday
        (.week, "2026-01-11", "2033-09-05", false),                    // 401 weeks, Sunday to Monday
    ])
    func periodCap(granularity: SummaryGranularity, from: String, to: String, allowed: Bool) {
        do {
            let accumulator = try SummaryAccumulator(from: LocalDay(from), to: LocalDay(to), granularity: granularity)
            #expect(allowed)
            #expect(accumulator.periodCount == 400)
            #expect(accumulator.periods().count == 400)
        } catch {
            #expect(!allowed)
            #expect(error.code == .invalidArgument)
            #expect(error.field == "to_day")
            #expect(error.message.hasPrefix("to_day must be at most 400 "))
        }
    }

    @Test("A range that ends before it starts is refused on to_day")
    func reversed() {
        #expect(throws: DomainError.invalid("to_day", "to_day must not be before from_day (got from_day = 2026-03-02, to_day = 2026-03-01)")) {
            try SummaryAccumulator(from: LocalDay("2026-03-02"), to: LocalDay("2026-03-01"), granularity: .day)
        }
    }

    @Test("Counts saturate instead of overflowing")
    func saturation() throws {
        var accumulator = try SummaryAccumulator(from: LocalDay("2026-03-23"), to: LocalDay("2026-03-29"), granularity: .week)
        accumulator.add(DayFigures(workouts: .max, steps: .max), on: LocalDay("2026-03-23"))
        accumulator.add(DayFigures(workouts: 1, steps: 1), on: LocalDay("2026-03-24"))
        #expect(accumulator.periods()[0].figures.workouts == .max)
        #expect(accumulator.periods()[0].figures.steps == .max)
    }
}
