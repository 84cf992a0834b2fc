public import Foundation
import SyntheticHealthExport

/// The small Apple Health export the import tests read, and what it holds: a workout of every
/// activity type the mapping lists (one a day, in a row), steps of three sources over three
/// days, weigh-ins in kg and lb, food entries, records around the daylight-saving changes of
/// Europe/Berlin and on both sides of the date line, heart-rate records (not imported), and
/// malformed records (a 90-hour workout, negative steps, an unreadable date, an unknown unit).
public struct HealthExportFixture: Sendable {
    /// The lines of the records that must be skipped, with a word their reason contains.
    public var skippedLines: [(line: Int, reason: String)] = []
    /// Workouts that must be imported.
    public var workouts = 0
    /// Weigh-ins that must be imported.
    public var weights = 0
    /// Steps reports (source and day) that must be imported.
    public var stepsReports = 0
    /// Meals (food entries) that must be imported.
    public var meals = 0
    /// (source, day, steps) of every steps report.
    public var steps: [(source: String, day: String, steps: Int)] = []
    /// The line of the Auckland workout (zone Pacific/Auckland, local day 2024-06-15).
    public var aucklandLine = 0

    /// The first day of the workouts of every type (they run one a day from here).
    public static let firstDay = Date(timeIntervalSince1970: 1_704_067_200)  // 2024-01-01T00:00:00Z

    /// Writes the fixture to `path`.
    ///
    /// - Parameter activityTypes: The `HKWorkoutActivityType…` suffixes to log one workout each of.
    public static func write(to path: String, activityTypes: [String]) throws -> HealthExportFixture {
        var fixture = HealthExportFixture()
        let writer = try HealthExportWriter(path: path)
        let berlin = "Europe/Berlin"
        func date(_ base: Date, _ zone: String) -> String { HealthExportWriter.healthDate(base, offsetSeconds: HealthExportWriter.offset(zone, at: base)) }

        // Steps: three sources, three days, several samples each; one day's samples cross 23:00 local.
        for (dayIndex, day) in ["2024-02-01", "2024-02-02", "2024-02-03"].enumerated() {
            let midnight = firstDay.addingTimeInterval(Double(31 + dayIndex) * 86_400 - 3_600)  // 00:00 in Berlin (UTC+1)
            for (source, perSample, samples) in [("Anna's iPhone", 500, 6), ("Anna's Apple Watch", 450, 7), ("Pedometer+", 100, 2)] {
                for sample in 0..<samples {
                    let start = midnight.addingTimeInterval(Double(8 + sample * 2) * 3_600)
                    writer.record(
                        type: "HKQuantityTypeIdentifierStepCount", source: source, unit: "count", value: String(perSample + dayIndex),
                        start: date(start, berlin), end: date(start.addingTimeInterval(300), berlin))
                }
                fixture.steps.append((source, day, (perSample + dayIndex) * samples))
                fixture.stepsReports += 1
            }
        }
        // Weigh-ins, kg and lb.
        writer.record(type: "HKQuantityTypeIdentifierBodyMass", source: "Scale", unit: "kg", value: "72.5",
                      start: date(firstDay.addingTimeInterval(86_400 * 40 + 25_200), berlin), end: date(firstDay.addingTimeInterval(86_400 * 40 + 25_200), berlin))
        writer.record(type: "HKQuantityTypeIdentifierBodyMass", source: "Health", unit: "lb", value: "160",
                      start: date(firstDay.addingTimeInterval(86_400 * 41 + 25_200), berlin), end: date(firstDay.addingTimeInterval(86_400 * 41 + 25_200), berlin))
        fixture.weights += 2
        // Food: energy and macros of one entry at one time; a second entry with a meal hint.
        for (offset, meal) in [(8.0, nil), (19.5, "Dinner")] as [(Double, String?)] {
            let at = date(firstDay.addingTimeInterval(86_400 * 42 + offset * 3_600), berlin)
            var metadata = [("HKFoodType", "Porridge")]
            if let meal { metadata = [("HKFoodType", "Curry"), ("HKFoodMeal", meal)] }
            writer.record(type: "HKQuantityTypeIdentifierDietaryEnergyConsumed", source: "MyFitnessPal", unit: "kcal", value: "420", start: at, end: at, metadata: metadata)
            writer.record(type: "HKQuantityTypeIdentifierDietaryProtein", source: "MyFitnessPal", unit: "g", value: "14", start: at, end: at, metadata: metadata)
            writer.record(type: "HKQuantityTypeIdentifierDietaryCarbohydrates", source: "MyFitnessPal", unit: "g", value: "61", start: at, end: at, metadata: metadata)
            writer.record(type: "HKQuantityTypeIdentifierDietaryFatTotal", source: "MyFitnessPal", unit: "g", value: "9", start: at, end: at, metadata: metadata)
            fixture.meals += 1
        }
        // Not imported.
        for beat in 0..<5 {
            let at = date(firstDay.addingTimeInterval(Double(beat) * 60), berlin)
            writer.record(type: "HKQuantityTypeIdentifierHeartRate", source: "Anna's Apple Watch", unit: "count/min", value: "61", start: at, end: at)
        }
        // Malformed.
        let bad = date(firstDay.addingTimeInterval(86_400 * 50), berlin)
        fixture.skippedLines.append((writer.record(type: "HKQuantityTypeIdentifierStepCount", source: "Anna's iPhone", unit: "count", value: "-40", start: bad, end: bad), "negative"))
        fixture.skippedLines.append((writer.record(type: "HKQuantityTypeIdentifierBodyMass", source: "Scale", unit: "kg", value: "71", start: "yesterday", end: "today"), "startDate"))
        fixture.skippedLines.append((writer.record(type: "HKQuantityTypeIdentifierBodyMass", source: "Scale", unit: "furlong", value: "71", start: bad, end: bad), "unit"))
        fixture.skippedLines.append((writer.workout(activity: "HKWorkoutActivityTypeRunning", source: "Watch", minutes: 5_400, kcal: 9_000, start: bad, end: bad), "durationSeconds must be between 1 and 86400 (got 324000)"))

        // Workouts: one of every type, a day apart from 2024-01-01 at 07:00 Berlin time; every
        // third with its energy as WorkoutStatistics, every second with HKTimeZone.
        for (index, type) in activityTypes.enumerated() {
            let start = firstDay.addingTimeInterval(Double(index) * 86_400 + 6 * 3_600)
            writer.workout(
                activity: "HKWorkoutActivityType" + type, source: "Anna's Apple Watch", minutes: 30 + Double(index % 20),
                kcal: 200 + Double(index), start: date(start, berlin), end: date(start.addingTimeInterval(1_800), berlin),
                timeZone: index % 2 == 0 ? berlin : nil, energyAsStatistics: index % 3 == 0)
            fixture.workouts += 1
        }
        // Daylight saving: 2024-03-31 01:30 +0100 and 03:30 +0200 in Berlin (the clock skips 02:00–03:00).
        let springForward = Date(timeIntervalSince1970: 1_711_845_000)  // 2024-03-31T00:30:00Z
        writer.workout(activity: "HKWorkoutActivityTypeRunning", source: "Watch", minutes: 20, kcal: 150,
                       start: date(springForward, berlin), end: date(springForward.addingTimeInterval(1_200), berlin), timeZone: berlin)
        writer.workout(activity: "HKWorkoutActivityTypeWalking", source: "Watch", minutes: 20, kcal: 80,
                       start: date(springForward.addingTimeInterval(3_600), berlin), end: date(springForward.addingTimeInterval(4_800), berlin), timeZone: berlin)
        // The date line: 07:00 in Auckland on 2024-06-15 is 2024-06-14 in UTC; 20:00 in Pago Pago
        // on 2024-06-15 is 2024-06-16 in UTC.
        let auckland = Date(timeIntervalSince1970: 1_718_391_600)  // 2024-06-14T19:00:00Z
        fixture.aucklandLine = writer.workout(
            activity: "HKWorkoutActivityTypeHiking", source: "Watch", minutes: 90, kcal: 600,
            start: date(auckland, "Pacific/Auckland"), end: date(auckland.addingTimeInterval(5_400), "Pacific/Auckland"), timeZone: "Pacific/Auckland")
        let pagoPago = Date(timeIntervalSince1970: 1_718_517_600)  // 2024-06-16T06:00:00Z
        writer.workout(activity: "HKWorkoutActivityTypeSwimming", source: "Watch", minutes: 40, kcal: 300,
                       start: date(pagoPago, "Pacific/Pago_Pago"), end: date(pagoPago.addingTimeInterval(2_400), "Pacific/Pago_Pago"))
        fixture.workouts += 4
        try writer.finish()
        return fixture
    }
}
