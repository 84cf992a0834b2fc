import Foundation
import Testing
import TestSupport
import WorkoutRules

/// 2026-09-21T14:13:20Z, the clock the cases are checked against.
private let now: Int64 = 1_790_000_000_000
/// An hour before `now`: a valid event time.
private let earlier: Int64 = now - 3_600_000

/// A record with one field out of bounds: the field's wire and Swift names, and the message
/// with `{}` where the field's name goes.
struct RecordCase: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let wire: String
    let swift: String
    let message: String
    let check: @Sendable (RecordFieldNames) throws(DomainError) -> Void

    init(_ name: String, _ wire: String, _ swift: String, _ message: String, _ check: @escaping @Sendable (RecordFieldNames) throws(DomainError) -> Void) {
        self.testDescription = name
        self.wire = wire
        self.swift = swift
        self.message = message
        self.check = check
    }
}

private func workout(
    type: String = "running", duration: Int = 1_800, calories: Double = 300, exercises: Int = 0, notes: String = "",
    at: Int64 = earlier, zone: String = "", _ names: RecordFieldNames
) throws(DomainError) {
    try RecordValidation.workout(
        type: type, durationSeconds: duration, caloriesBurned: calories, exercisesCompleted: exercises, notes: notes,
        performedAtMs: at, timeZone: zone, names: names, now: now)
}

private let rice = FoodItemFields(name: "rice", calories: 200, proteinG: 4, carbsG: 45, fatG: 0.5, servings: 0)

private func meal(name: String = "", items: [FoodItemFields] = [rice], at: Int64 = earlier, zone: String = "", _ names: RecordFieldNames) throws(DomainError) {
    try RecordValidation.meal(eatenAtMs: at, name: name, timeZone: zone, items: items, names: names, now: now)
}

private func item(_ change: (inout FoodItemFields) -> Void) -> [FoodItemFields] {
    var item = rice
    change(&item)
    return [rice, item]
}

private func weight(kg: Double = 70, at: Int64 = earlier, note: String = "", zone: String = "", _ names: RecordFieldNames) throws(DomainError) {
    try RecordValidation.weight(weightKg: kg, measuredAtMs: at, note: note, timeZone: zone, names: names, now: now)
}

private func steps(
    _ day: (Int32, Int32, Int32) = (2026, 9, 21), source: String = "phone", count: Int = 9_100, at: Int64 = earlier, _ names: RecordFieldNames
) throws(DomainError) {
    try RecordValidation.steps(year: day.0, month: day.1, day: day.2, source: source, steps: count, reportedAtMs: at, names: names, now: now)
}

private let timeMessage = "{} must be between 946684800000 (2000-01-01T00:00:00Z) and \(now + 86_400_000) (server time + 1 day), in milliseconds since 1970"

@Suite("One record validation, in wire and Swift names")
struct RecordValidationTests {
    static let cases: [RecordCase] = [
        RecordCase("an empty workout type", "workout_type", "type", "{} must be 1 to 64 bytes long (got 0 bytes)") { names throws(DomainError) in try workout(type: "", names) },
        RecordCase("a 65-byte workout type", "workout_type", "type", "{} must be 1 to 64 bytes long (got 65 bytes)") { names throws(DomainError) in
            try workout(type: String(repeating: "t", count: 65), names)
        },
        RecordCase("a control character in a workout type", "workout_type", "type", "{} must not contain control characters (found U+0007)") { names throws(DomainError) in
            try workout(type: "run\u{7}", names)
        },
        RecordCase("a workout of no time", "duration_seconds", "durationSeconds", "{} must be between 1 and 86400 (got 0)") { names throws(DomainError) in try workout(duration: 0, names) },
        RecordCase("a negative duration", "duration_seconds", "durationSeconds", "{} must be between 1 and 86400 (got -60)") { names throws(DomainError) in try workout(duration: -60, names) },
        RecordCase("a workout over a day", "duration_seconds", "durationSeconds", "{} must be between 1 and 86400 (got 86401)") { names throws(DomainError) in try workout(duration: 86_401, names) },
        RecordCase("negative energy burned", "calories_burned", "caloriesBurned", "{} must be between 0 and 20000 (got -1)") { names throws(DomainError) in try workout(calories: -1, names) },
        RecordCase("NaN energy burned", "calories_burned", "caloriesBurned", "{} must be a finite number between 0 and 20000 (got nan)") { names throws(DomainError) in try workout(calories: .nan, names) },
        RecordCase("a negative exercise count", "exercises_completed", "exercisesCompleted", "{} must be between 0 and 1000 (got -1)") { names throws(DomainError) in try workout(exercises: -1, names) },
        RecordCase("1,001 exercises", "exercises_completed", "exercisesCompleted", "{} must be between 0 and 1000 (got 1001)") { names throws(DomainError) in try workout(exercises: 1_001, names) },
        RecordCase("1,001 bytes of notes", "notes", "notes", "{} must be at most 1000 bytes long (got 1001 bytes)") { names throws(DomainError) in
            try workout(notes: String(repeating: "n", count: 1_001), names)
        },
        RecordCase("a workout before 2000", "performed_at_ms", "performedAt", timeMessage + " (got 946684799999)") { names throws(DomainError) in try workout(at: 946_684_799_999, names) },
        RecordCase("a workout in an unknown zone", "time_zone", "timeZone", "{} must be an IANA time zone this server knows, such as Europe/Berlin (got \"Mars/Base\")") { names throws(DomainError) in
            try workout(zone: "Mars/Base", names)
        },
        RecordCase("a meal after tomorrow", "eaten_at_ms", "eatenAt", timeMessage + " (got \(now + 86_400_001))") { names throws(DomainError) in try meal(at: now + 86_400_001, names) },
        RecordCase("a 129-byte meal name", "name", "name", "{} must be at most 128 bytes long (got 129 bytes)") { names throws(DomainError) in try meal(name: String(repeating: "m", count: 129), names) },
        RecordCase("101 food items", "items", "items", "{} must hold at most 100 items (got 101)") { names throws(DomainError) in try meal(items: Array(repeating: rice, count: 101), names) },
        RecordCase("an unnamed food item", "items[1].name", "items[1].name", "{} must be 1 to 128 bytes long (got 0 bytes)") { names throws(DomainError) in try meal(items: item { $0.name = "" }, names) },
        RecordCase("10,001 kcal in an item", "items[1].calories", "items[1].calories", "{} must be between 0 and 10000 (got 10001)") { names throws(DomainError) in
            try meal(items: item { $0.calories = 10_001 }, names)
        },
        RecordCase("negative protein", "items[1].protein_g", "items[1].proteinG", "{} must be between 0 and 1000 (got -5)") { names throws(DomainError) in try meal(items: item { $0.proteinG = -5 }, names) },
        RecordCase("infinite carbohydrates", "items[1].carbs_g", "items[1].carbsG", "{} must be a finite number between 0 and 1000 (got inf)") { names throws(DomainError) in
            try meal(items: item { $0.carbsG = .infinity }, names)
        },
        RecordCase("1,001 g of fat", "items[1].fat_g", "items[1].fatG", "{} must be between 0 and 1000 (got 1001)") { names throws(DomainError) in try meal(items: item { $0.fatG = 1_001 }, names) },
        RecordCase("0.009 servings", "items[1].servings", "items[1].servings", "{} must be 0 (not stated) or between 0.01 and 100 (got 0.009)") { names throws(DomainError) in
            try meal(items: item { $0.servings = 0.009 }, names)
        },
        RecordCase("a weigh-in of 9.9 kg", "weight_kg", "weightKg", "{} must be between 10 and 500 (got 9.9)") { names throws(DomainError) in try weight(kg: 9.9, names) },
        RecordCase("a weigh-in of 500.1 kg", "weight_kg", "weightKg", "{} must be between 10 and 500 (got 500.1)") { names throws(DomainError) in try weight(kg: 500.1, names) },
        RecordCase("a weigh-in before 2000", "measured_at_ms", "measuredAt", timeMessage + " (got 0)") { names throws(DomainError) in try weight(at: 0, names) },
        RecordCase("a line break in a weigh-in's note", "note", "note", "{} must not contain control characters (found U+000A)") { names throws(DomainError) in try weight(note: "a\nb", names) },
        RecordCase("a 257-byte note", "note", "note", "{} must be at most 256 bytes long (got 257 bytes)") { names throws(DomainError) in try weight(note: String(repeating: "w", count: 257), names) },
        RecordCase("a location no version knows", "location", "location", "{} must be indoor, outdoor or not stated (got 7)") { names throws(DomainError) in
            try RecordValidation.workoutDetail(WorkoutDetailFields(location: 7), names: names)
        },
        RecordCase("February 30", "day", "day", "{} must be a real date from 2000-01-01 to 2100-12-31 (got year 2026, month 2, day 30)") { names throws(DomainError) in try steps((2026, 2, 30), names) },
        RecordCase("steps two days ahead", "day", "day", "{} must not be after 2026-09-22 (got 2026-09-23)") { names throws(DomainError) in try steps((2026, 9, 23), names) },
        RecordCase("an empty steps source", "source", "source", "{} must be 1 to 64 bytes long (got 0 bytes)") { names throws(DomainError) in try steps(source: "", names) },
        RecordCase("a control character in a steps source", "source", "source", "{} must not contain control characters (found U+0001)") { names throws(DomainError) in
            try steps(source: "a\u{1}", names)
        },
        RecordCase("-1 steps", "steps", "steps", "{} must be between 0 and 200000 (got -1)") { names throws(DomainError) in try steps(count: -1, names) },
        RecordCase("200,001 steps", "steps", "steps", "{} must be between 0 and 200000 (got 200001)") { names throws(DomainError) in try steps(count: 200_001, names) },
        RecordCase("steps reported before 2000", "reported_at_ms", "reportedAt", timeMessage + " (got 1)") { names throws(DomainError) in try steps(at: 1, names) },
    ]

    @Test("A field out of bounds is refused with the same message, named on the wire under the request's field", arguments: cases)
    func wireNames(_ record: RecordCase) {
        let field = "workout." + record.wire
        let error = failure { () throws(DomainError) in try record.check(RecordFieldNames(.wire, prefix: "workout")) }
        #expect(error == .invalid(field, record.message.replacingOccurrences(of: "{}", with: field)))
    }

    @Test("A field out of bounds is refused with the same message, named by its Swift property path", arguments: cases)
    func swiftNames(_ record: RecordCase) {
        let error = failure { () throws(DomainError) in try record.check(RecordFieldNames(.swift, prefix: nil)) }
        #expect(error == .invalid(record.swift, record.message.replacingOccurrences(of: "{}", with: record.swift)))
    }

    @Test("Records at every bound pass")
    func atTheBounds() throws {
        let names = RecordFieldNames(.wire, prefix: "workout")
        try workout(type: String(repeating: "t", count: 64), duration: 86_400, calories: 20_000, exercises: 1_000,
                    notes: String(repeating: "\n", count: 1_000), at: now + 86_400_000, zone: "Europe/Berlin", names)
        try workout(duration: 1, calories: 0, exercises: 0, at: 946_684_800_000, names)
        let full = FoodItemFields(name: String(repeating: "f", count: 128), calories: 10_000, proteinG: 1_000, carbsG: 1_000, fatG: 1_000, servings: 100)
        try meal(name: String(repeating: "m", count: 128), items: Array(repeating: full, count: 100), names)
        try meal(items: [FoodItemFields(name: "salt", calories: 0, proteinG: 0, carbsG: 0, fatG: 0, servings: 0.01)], names)
        try weight(kg: 10, note: String(repeating: "w", count: 256), names)
        try weight(kg: 500, names)
        try steps((2026, 9, 22), source: String(repeating: "s", count: 64), count: 200_000, names)
        try steps(count: 0, names)
    }
}

/// Runs a validation expected to fail and returns its error.
private func failure(_ body: () throws(DomainError) -> Void) -> DomainError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}
