// RecordValidation: the one check of a record's fields (PROTOCOL.md section 20), which the
// server's domain applies to a request, and the client to a record before it sends or queues
// it, an import before it puts it in a batch, and an app's form before it saves. Each field
// is checked against `RecordLimits` by `Bounds`, in the order the server always checked them,
// so the first field at fault (and its message) is the same wherever the check runs.
//
// Only the names differ: the server names a field by its path in the request message
// (`workout.duration_seconds`, `meal.items[3].protein_g`), the client in the Swift terms of
// its value (`workout.durationSeconds`, `items[3].proteinG`). `RecordFieldNames` is that
// choice; the messages are otherwise word for word the same.

import Foundation

/// How a record's fields are named in an error: the wire's request paths, or Swift's property
/// paths, under an optional prefix (the request field or Swift argument holding the record).
package struct RecordFieldNames: Sendable {
    /// The two naming schemes.
    package enum Scheme: Sendable {
        /// Proto field names (`duration_seconds`), as the server names them.
        case wire
        /// Swift property names (`durationSeconds`), as the client's value types name them.
        case swift
    }

    /// The scheme the names follow.
    package let scheme: Scheme
    /// What the record's own fields are under (`workout`, `records[3].steps`), or `nil` for the
    /// record's bare property names.
    package let prefix: String?

    /// Creates a naming.
    ///
    /// - Parameters:
    ///   - scheme: Wire or Swift names.
    ///   - prefix: The path of the record itself, or `nil` for bare names.
    package init(_ scheme: Scheme, prefix: String?) {
        self.scheme = scheme
        self.prefix = prefix
    }

    /// The path of one field.
    ///
    /// - Parameters:
    ///   - wire: Its name on the wire, e.g. `items[3].protein_g`.
    ///   - swift: Its Swift name, e.g. `items[3].proteinG`.
    /// - Returns: The name in this scheme, after the prefix.
    package func callAsFunction(_ wire: String, _ swift: String) -> String {
        let name = scheme == .wire ? wire : swift
        guard let prefix, !prefix.isEmpty else { return name }
        return prefix + "." + name
    }

    /// A field whose name is the same in both schemes (`notes`, `source`).
    ///
    /// - Parameter name: The field's name.
    /// - Returns: Its path.
    package func callAsFunction(_ name: String) -> String {
        self(name, name)
    }
}

/// A food item's figures, as ``RecordValidation/meal(eatenAtMs:name:timeZone:items:names:now:)``
/// checks them.
/// A workout's optional detail, as the checks see it (0 = not stated).
package struct WorkoutDetailFields: Sendable {
    /// Metres.
    package var distanceM: Double
    /// Metres climbed.
    package var elevationGainM: Double
    /// Beats a minute.
    package var averageHeartRate: Int
    /// Beats a minute.
    package var maxHeartRate: Int
    /// Steps.
    package var steps: Int
    /// Where: 0 not stated, 1 indoors, 2 outdoors (the wire's `WorkoutLocation`).
    package var location: Int

    /// Creates the detail; every figure defaults to 0 (not stated).
    package init(distanceM: Double = 0, elevationGainM: Double = 0, averageHeartRate: Int = 0, maxHeartRate: Int = 0, steps: Int = 0, location: Int = 0) {
        self.distanceM = distanceM
        self.elevationGainM = elevationGainM
        self.averageHeartRate = averageHeartRate
        self.maxHeartRate = maxHeartRate
        self.steps = steps
        self.location = location
    }
}

package struct FoodItemFields: Sendable {
    /// The item's name.
    package var name: String
    /// Its energy, kcal.
    package var calories: Double
    /// Its protein, g.
    package var proteinG: Double
    /// Its carbohydrates, g.
    package var carbsG: Double
    /// Its fat, g.
    package var fatG: Double
    /// Its servings; 0 means not stated.
    package var servings: Double

    /// Creates an item's figures.
    ///
    /// - Parameters:
    ///   - name: The item's name.
    ///   - calories: Its energy, kcal.
    ///   - proteinG: Its protein, g.
    ///   - carbsG: Its carbohydrates, g.
    ///   - fatG: Its fat, g.
    ///   - servings: Its servings; 0 means not stated.
    package init(name: String, calories: Double, proteinG: Double, carbsG: Double, fatG: Double, servings: Double) {
        self.name = name
        self.calories = calories
        self.proteinG = proteinG
        self.carbsG = carbsG
        self.fatG = fatG
        self.servings = servings
    }
}

/// The checks of a record's fields, one function per kind of record, each throwing the first
/// field out of bounds as `DomainError.invalid(field, message)`. A value out of bounds is
/// refused, never clamped. Ids and the server's enumerations (a meal's type) are the caller's.
package enum RecordValidation {
    /// Checks a workout's fields.
    ///
    /// - Parameters:
    ///   - type: The kind of workout: 1...64 bytes, no control characters.
    ///   - durationSeconds: 1...86,400.
    ///   - caloriesBurned: Finite, 0...20,000.
    ///   - exercisesCompleted: 0...1,000.
    ///   - notes: 0...1,000 bytes (control characters allowed: line breaks).
    ///   - performedAtMs: From 2000 to a day past `now`, in milliseconds since 1970.
    ///   - timeZone: An IANA zone the catalog knows, or empty for the member's.
    ///   - names: How fields are named.
    ///   - now: The current time, in milliseconds since 1970.
    /// - Throws: `DomainError.invalid` naming the first field at fault.
    package static func workout(
        type: String, durationSeconds: Int, caloriesBurned: Double, exercisesCompleted: Int, notes: String,
        performedAtMs: Int64, timeZone: String, names: RecordFieldNames, now: Int64
    ) throws(DomainError) {
        try Bounds.text(type, field: names("workout_type", "type"), bytes: RecordLimits.workoutTypeBytes)
        try Bounds.integer(durationSeconds, field: names("duration_seconds", "durationSeconds"), range: RecordLimits.workoutDurationSeconds)
        try Bounds.number(caloriesBurned, field: names("calories_burned", "caloriesBurned"), range: RecordLimits.workoutCalories)
        try Bounds.integer(exercisesCompleted, field: names("exercises_completed", "exercisesCompleted"), range: RecordLimits.workoutExercises)
        try Bounds.text(notes, field: names("notes"), bytes: RecordLimits.workoutNotesBytes, allowControlCharacters: true)
        try Bounds.eventTime(performedAtMs, field: names("performed_at_ms", "performedAt"), now: now)
        try zone(timeZone, names: names)
    }

    /// Checks a workout's detail: distance, elevation, heart rates, steps and location, each 0
    /// when not stated.
    ///
    /// - Throws: `DomainError.invalid` naming the first field at fault.
    package static func workoutDetail(_ detail: WorkoutDetailFields, names: RecordFieldNames) throws(DomainError) {
        try Bounds.number(detail.distanceM, field: names("distance_m", "distanceM"), range: RecordLimits.workoutDistanceMetres, allowZeroAsUnset: true)
        try Bounds.number(detail.elevationGainM, field: names("elevation_gain_m", "elevationGainM"), range: RecordLimits.workoutElevationMetres)
        try Bounds.integer(detail.averageHeartRate, field: names("average_heart_rate", "averageHeartRate"), range: RecordLimits.workoutHeartRate, allowZeroAsUnset: true)
        try Bounds.integer(detail.maxHeartRate, field: names("max_heart_rate", "maxHeartRate"), range: RecordLimits.workoutHeartRate, allowZeroAsUnset: true)
        if detail.maxHeartRate != 0, detail.maxHeartRate < detail.averageHeartRate {
            let field = names("max_heart_rate", "maxHeartRate")
            throw .invalid(field, "\(field) must not be below the average heart rate (got \(detail.maxHeartRate), average \(detail.averageHeartRate))")
        }
        try Bounds.integer(detail.steps, field: names("steps"), range: RecordLimits.workoutSteps)
        guard (0...2).contains(detail.location) else {
            let field = names("location")
            throw .invalid(field, "\(field) must be indoor, outdoor or not stated (got \(detail.location))")
        }
    }

    /// Checks a meal's fields and its items'.
    ///
    /// - Parameters:
    ///   - eatenAtMs: From 2000 to a day past `now`, in milliseconds since 1970.
    ///   - name: 0...128 bytes, no control characters.
    ///   - timeZone: An IANA zone the catalog knows, or empty for the member's.
    ///   - items: At most 100; each named (1...128 bytes), its figures finite and in bounds.
    ///   - names: How fields are named.
    ///   - now: The current time, in milliseconds since 1970.
    /// - Throws: `DomainError.invalid` naming the first field at fault.
    package static func meal(
        eatenAtMs: Int64, name: String, timeZone: String, items: [FoodItemFields], names: RecordFieldNames, now: Int64
    ) throws(DomainError) {
        try Bounds.eventTime(eatenAtMs, field: names("eaten_at_ms", "eatenAt"), now: now)
        try Bounds.text(name, field: names("name"), bytes: RecordLimits.mealNameBytes)
        try zone(timeZone, names: names)
        guard items.count <= RecordLimits.mealItemsMax else {
            let field = names("items")
            throw .invalid(field, "\(field) must hold at most \(RecordLimits.mealItemsMax) items (got \(items.count))")
        }
        for (index, item) in items.enumerated() {
            let at = "items[\(index)]."
            try Bounds.text(item.name, field: names(at + "name"), bytes: RecordLimits.foodNameBytes)
            try Bounds.number(item.calories, field: names(at + "calories"), range: RecordLimits.foodCalories)
            try Bounds.number(item.proteinG, field: names(at + "protein_g", at + "proteinG"), range: RecordLimits.foodGrams)
            try Bounds.number(item.carbsG, field: names(at + "carbs_g", at + "carbsG"), range: RecordLimits.foodGrams)
            try Bounds.number(item.fatG, field: names(at + "fat_g", at + "fatG"), range: RecordLimits.foodGrams)
            try Bounds.number(item.servings, field: names(at + "servings"), range: RecordLimits.foodServings, allowZeroAsUnset: true)
        }
    }

    /// Checks a weigh-in's fields.
    ///
    /// - Parameters:
    ///   - weightKg: Finite, 10...500.
    ///   - measuredAtMs: From 2000 to a day past `now`, in milliseconds since 1970.
    ///   - note: 0...256 bytes, no control characters.
    ///   - timeZone: An IANA zone the catalog knows, or empty for the member's.
    ///   - names: How fields are named.
    ///   - now: The current time, in milliseconds since 1970.
    /// - Throws: `DomainError.invalid` naming the first field at fault.
    package static func weight(
        weightKg: Double, measuredAtMs: Int64, note: String, timeZone: String, names: RecordFieldNames, now: Int64
    ) throws(DomainError) {
        try Bounds.number(weightKg, field: names("weight_kg", "weightKg"), range: RecordLimits.weightKg)
        try Bounds.eventTime(measuredAtMs, field: names("measured_at_ms", "measuredAt"), now: now)
        try Bounds.text(note, field: names("note"), bytes: RecordLimits.weightNoteBytes)
        try zone(timeZone, names: names)
    }

    /// Checks a steps report's fields.
    ///
    /// - Parameters:
    ///   - year: The day's year.
    ///   - month: The day's month.
    ///   - day: The day of the month: with `year` and `month` a real date from 2000 to 2100,
    ///     at most the UTC day after `now`.
    ///   - source: 1...64 bytes, no control characters.
    ///   - steps: 0...200,000.
    ///   - reportedAtMs: From 2000 to a day past `now`, in milliseconds since 1970.
    ///   - names: How fields are named.
    ///   - now: The current time, in milliseconds since 1970.
    /// - Returns: The day.
    /// - Throws: `DomainError.invalid` naming the first field at fault.
    @discardableResult
    package static func steps(
        year: Int32, month: Int32, day: Int32, source: String, steps: Int, reportedAtMs: Int64, names: RecordFieldNames, now: Int64
    ) throws(DomainError) -> LocalDay {
        let localDay = try stepsDay(year: year, month: month, day: day, field: names("day"), now: now)
        try Bounds.text(source, field: names("source"), bytes: RecordLimits.stepsSourceBytes)
        try Bounds.integer(steps, field: names("steps"), range: RecordLimits.stepsPerDay)
        try Bounds.eventTime(reportedAtMs, field: names("reported_at_ms", "reportedAt"), now: now)
        return localDay
    }

    /// Checks a steps sample: its day (within a day of its start's UTC day, and not after
    /// tomorrow's UTC date), source, start and end, and count.
    ///
    /// - Returns: The sample's local day.
    package static func stepsSample(
        year: Int32, month: Int32, day: Int32, source: String, startMs: Int64, endMs: Int64, steps: Int,
        names: RecordFieldNames, now: Int64
    ) throws(DomainError) -> LocalDay {
        let dayField = names("day")
        let localDay = try stepsDay(year: year, month: month, day: day, field: dayField, now: now)
        try Bounds.text(source, field: names("source"), bytes: RecordLimits.stepsSourceBytes)
        try Bounds.integer(steps, field: names("steps"), range: RecordLimits.stepsPerSample)
        let startField = names("start_ms", "start")
        try Bounds.eventTime(startMs, field: startField, now: now)
        let startDay = LocalDay.containing(instant: startMs, in: TimeZone(identifier: "UTC")!)
        guard abs(localDay.epochDay - startDay.epochDay) <= 1 else {
            throw .invalid(dayField, "\(dayField) must be within a day of \(startField)'s date, \(startDay) in UTC (got \(localDay))")
        }
        if endMs != 0 {
            let endField = names("end_ms", "end")
            guard endMs >= startMs, endMs - startMs <= RecordLimits.longestStepsSampleMilliseconds else {
                throw .invalid(endField, "\(endField) must be 0 or from \(startField) to a day after it (got \(endMs), \(startField) \(startMs))")
            }
        }
        return localDay
    }

    /// The local day a steps report or sample counts for: a valid date no later than tomorrow's
    /// UTC date (no time zone is further ahead).
    private static func stepsDay(year: Int32, month: Int32, day: Int32, field: String, now: Int64) throws(DomainError) -> LocalDay {
        let localDay = try LocalDay(validating: year, month: month, day: day, field: field)
        let latestDay = LocalDay.containing(instant: now, in: TimeZone(identifier: "UTC")!).adding(days: 1)
        guard localDay <= latestDay else {
            throw .invalid(field, "\(field) must not be after \(latestDay) (got \(localDay))")
        }
        return localDay
    }

    /// Checks a record's time zone: empty (the member's), or a name the catalog knows.
    private static func zone(_ name: String, names: RecordFieldNames) throws(DomainError) {
        if !name.isEmpty { _ = try TimeZoneCatalog.zone(named: name, field: names("time_zone", "timeZone")) }
    }
}
