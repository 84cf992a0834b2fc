public import Foundation
import WorkoutProtocol

/// The meals of one local day, midnight to midnight in a time zone (`Queries.MealsOfDay`),
/// with the day's nutrition totals.
public struct MealsOfDay: Sendable, Hashable, Codable {
    /// The day asked for.
    public var day: LocalDate
    /// The IANA zone whose midnights bound the day.
    public var timeZone: String
    /// The first instant of the day in that zone (inclusive).
    public var dayStart: Date
    /// The first instant of the next day (exclusive); 23 or 25 hours after ``dayStart``
    /// on daylight-saving days.
    public var dayEnd: Date
    /// The meals eaten from ``dayStart`` up to ``dayEnd``, oldest first.
    public var meals: [Meal]
    /// Sums over all those meals' items.
    public var totals: NutritionTotals

    /// Creates the meals of a day (the server makes them; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - day: The day.
    ///   - timeZone: The zone used.
    ///   - dayStart: The day's first instant.
    ///   - dayEnd: The next day's first instant.
    ///   - meals: The meals, oldest first.
    ///   - totals: Sums over the meals' items; computed from `meals` when `nil`.
    public init(
        day: LocalDate, timeZone: String, dayStart: Date, dayEnd: Date, meals: [Meal] = [],
        totals: NutritionTotals? = nil
    ) {
        self.day = day
        self.timeZone = timeZone
        self.dayStart = dayStart
        self.dayEnd = dayEnd
        self.meals = meals
        self.totals = totals ?? NutritionTotals(summing: meals.flatMap(\.items))
    }
}

// MARK: Wire

extension MealsOfDay {
    /// Creates the meals of a day from the wire (`MealsOfDayResponse`; a malformed day is
    /// clamped, see ``LocalDate/init(clampingWire:)``).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_MealsOfDayResponse) {
        self.init(
            day: LocalDate(clampingWire: wire.day), timeZone: wire.timeZone,
            dayStart: Date(wireMilliseconds: wire.dayStartMs), dayEnd: Date(wireMilliseconds: wire.dayEndMs),
            meals: wire.meals.map(Meal.init(wire:)), totals: NutritionTotals(wire: wire.totals)
        )
    }
}
