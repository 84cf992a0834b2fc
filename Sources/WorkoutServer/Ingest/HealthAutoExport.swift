import Crypto
import Foundation
package import WorkoutProtocol
import WorkoutRules

/// What the iOS app Health Auto Export posts to a REST API (its JSON export: `data.metrics`,
/// each `{name, units, data: [{qty, date, source}]}`, and `data.workouts`), turned into the
/// records of `Logging.ImportRecords`, with the same rules as the Apple Health import:
///
/// * `step_count`: summed per source and local day into one steps report each (never added
///   across sources: the day's figure is the largest source's, as for live reports); the
///   report is dated by the source's latest sample, so a later export of the same day with more
///   steps replaces it and the same export again changes nothing.
/// * `weight_body_mass` (or `body_mass`): one weigh-in per sample, in kg, lb, g or st.
/// * `dietary_energy`, `protein`, `carbohydrates`, `total_fat`: the samples of one source at
///   one time are one meal with one food item (kcal or kJ; g, mg or kg), typed by the hour.
/// * `workouts`: the type through ``HealthWorkoutTypes`` (the Apple Health import's table), the
///   duration, the active energy, and (version 2) the distance in metres.
///
/// Ids are derived from each record's kind, source and times, so the app's repeated and
/// overlapping exports store nothing twice. Metrics it does not know are counted and skipped.
/// Dates are `yyyy-MM-dd HH:mm:ss Z`: the local day is the one written, in its own offset.
package struct HealthAutoExport: Sendable {
    /// The records, in batches that ImportRecords takes.
    package var batches: [[Workout_V1_ImportRecord]]
    /// Samples or workouts skipped, by metric name (`heart_rate`, or `workouts` for a workout
    /// without a usable start or duration).
    package var skipped: [String: Int]

    /// The records of a posted body.
    ///
    /// - Throws: ``CallFailure`` INVALID_ARGUMENT when the body is not Health Auto Export's
    ///   JSON (no `data` object).
    package init(json body: [UInt8], batchSize: Int) throws(CallFailure) {
        let payload: Payload
        do {
            payload = try JSONDecoder().decode(Payload.self, from: Data(body))
        } catch {
            throw CallFailure(.invalidArgument, "the body is not Health Auto Export's JSON (an object with \"data\": {\"metrics\": [...], \"workouts\": [...]}): \(error)")
        }
        var records: [Workout_V1_ImportRecord] = []
        var skipped: [String: Int] = [:]
        var steps: [StepsKey: (count: Double, latest: Int64)] = [:]
        var food: [FoodKey: FoodEntry] = [:]
        for metric in payload.data.metrics ?? [] {
            let name = metric.name.lowercased()
            let points = metric.data ?? []
            switch name {
            case "step_count":
                for point in points {
                    guard let qty = point.qty, qty.isFinite, qty >= 0, let time = point.date.flatMap(Stamp.init) else {
                        skipped[name, default: 0] += 1
                        continue
                    }
                    let key = StepsKey(day: time.day, source: Self.source(point.source))
                    let total = steps[key] ?? (0, time.milliseconds)
                    steps[key] = (total.count + qty, max(total.latest, time.milliseconds))
                }
            case "weight_body_mass", "body_mass":
                for point in points {
                    guard let qty = point.qty, let time = point.date.flatMap(Stamp.init),
                          qty.isFinite, let kilograms = HealthUnits.kilograms(qty, unit: metric.units ?? "kg")
                    else {
                        skipped[name, default: 0] += 1
                        continue
                    }
                    var entry = Workout_V1_WeightEntry()
                    entry.id = Self.derivedID("weight|\(Self.source(point.source))|\(time.text)|\(qty)|\(metric.units ?? "")")
                    entry.weightKg = (kilograms * 100).rounded() / 100
                    entry.measuredAtMs = time.milliseconds
                    entry.note = "Health Auto Export"
                    var record = Workout_V1_ImportRecord()
                    record.weightEntry = entry
                    records.append(record)
                }
            case "dietary_energy", "protein", "carbohydrates", "total_fat":
                for point in points {
                    guard let qty = point.qty, qty.isFinite, qty >= 0, let time = point.date.flatMap(Stamp.init) else {
                        skipped[name, default: 0] += 1
                        continue
                    }
                    let key = FoodKey(source: Self.source(point.source), time: time.text)
                    var entry = food[key] ?? FoodEntry(time: time)
                    let unit = metric.units ?? ""
                    switch name {
                    case "dietary_energy":
                        guard let kcal = HealthUnits.kilocalories(qty, unit: unit) else {
                            skipped[name, default: 0] += 1
                            continue
                        }
                        entry.kcal += kcal
                    case "protein": entry.proteinG += HealthUnits.grams(qty, unit: unit)
                    case "carbohydrates": entry.carbsG += HealthUnits.grams(qty, unit: unit)
                    default: entry.fatG += HealthUnits.grams(qty, unit: unit)
                    }
                    food[key] = entry
                }
            default:
                skipped[name, default: 0] += max(points.count, 1)
            }
        }
        for (key, total) in steps.sorted(by: { ($0.key.day, $0.key.source) < ($1.key.day, $1.key.source) }) {
            var report = Workout_V1_StepsReport()
            report.day.year = key.day.year
            report.day.month = key.day.month
            report.day.day = key.day.day
            report.source = key.source
            report.steps = UInt32(min(total.count.rounded(), Double(UInt32.max)))
            report.reportedAtMs = total.latest
            var record = Workout_V1_ImportRecord()
            record.steps = report
            records.append(record)
        }
        for (key, entry) in food.sorted(by: { ($0.key.time, $0.key.source) < ($1.key.time, $1.key.source) }) {
            var item = Workout_V1_FoodItem()
            item.name = String(decoding: Array("Food from \(key.source)".utf8.prefix(128)), as: UTF8.self)
            item.calories = (entry.kcal * 10).rounded() / 10
            item.proteinG = (entry.proteinG * 10).rounded() / 10
            item.carbsG = (entry.carbsG * 10).rounded() / 10
            item.fatG = (entry.fatG * 10).rounded() / 10
            var meal = Workout_V1_Meal()
            meal.id = Self.derivedID("meal|\(key.source)|\(key.time)")
            meal.mealType = switch HealthUnits.mealSlot(hour: entry.time.hour) {
            case .breakfast: .breakfast
            case .lunch: .lunch
            case .dinner: .dinner
            case .snack: .snack
            }
            meal.eatenAtMs = entry.time.milliseconds
            meal.items = [item]
            var record = Workout_V1_ImportRecord()
            record.meal = meal
            records.append(record)
        }
        for workout in payload.data.workouts ?? [] {
            guard let start = workout.start.flatMap(Stamp.init), let name = workout.name,
                  let type = HealthWorkoutTypes.workoutType(forName: name)
            else {
                skipped["workouts", default: 0] += 1
                continue
            }
            let end = workout.end.flatMap(Stamp.init)
            let seconds = workout.duration ?? end.map { Double($0.milliseconds - start.milliseconds) / 1_000 } ?? 0
            guard seconds.isFinite, seconds >= 1 else {
                skipped["workouts", default: 0] += 1
                continue
            }
            var converted = Workout_V1_Workout()
            converted.id = Self.derivedID("workout|\(workout.id ?? "")|\(name)|\(start.text)|\(workout.end ?? "")")
            converted.workoutType = type
            converted.durationSeconds = UInt32(min(seconds.rounded(), Double(UInt32.max)))
            converted.performedAtMs = start.milliseconds
            let energy = workout.activeEnergyBurned ?? workout.activeEnergy
            if let energy, let qty = energy.qty, qty.isFinite, qty >= 0, let kcal = HealthUnits.kilocalories(qty, unit: energy.units ?? "kcal") {
                converted.caloriesBurned = (kcal * 10).rounded() / 10
            }
            // The distance (version 2), when it is one and within the server's bounds.
            if let distance = workout.distance, let qty = distance.qty, qty.isFinite,
               let metres = HealthUnits.metres(qty, unit: distance.units ?? "km"), RecordLimits.workoutDistanceMetres.contains(metres.rounded()) {
                converted.distanceM = metres.rounded()
            }
            converted.notes = "Health Auto Export"
            var record = Workout_V1_ImportRecord()
            record.workout = converted
            records.append(record)
        }
        let size = max(1, batchSize)
        batches = stride(from: 0, to: records.count, by: size).map { Array(records[$0..<min($0 + size, records.count)]) }
        self.skipped = skipped
    }

    // MARK: The posted JSON, as far as it is read

    private struct Payload: Decodable {
        var data: Body
    }

    private struct Body: Decodable {
        var metrics: [Metric]?
        var workouts: [WorkoutEntry]?
    }

    private struct Metric: Decodable {
        var name: String
        var units: String?
        var data: [Point]?
    }

    /// A sample; fields of other shapes (heart rate's Min/Avg/Max, sleep's) are not read.
    private struct Point: Decodable {
        var qty: Double?
        var date: String?
        var source: String?

        enum CodingKeys: String, CodingKey { case qty, date, source }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            qty = try? container.decodeIfPresent(Double.self, forKey: .qty)
            date = try? container.decodeIfPresent(String.self, forKey: .date)
            source = try? container.decodeIfPresent(String.self, forKey: .source)
        }
    }

    private struct Quantity: Decodable {
        var qty: Double?
        var units: String?
    }

    private struct WorkoutEntry: Decodable {
        var id: String?
        var name: String?
        var start: String?
        var end: String?
        var duration: Double?
        /// Version 2's active energy.
        var activeEnergyBurned: Quantity?
        /// Version 1's.
        var activeEnergy: Quantity?
        /// Version 2's distance covered.
        var distance: Quantity?
    }

    private struct StepsKey: Hashable {
        var day: LocalDay
        var source: String
    }

    private struct FoodKey: Hashable {
        var source: String
        var time: String
    }

    private struct FoodEntry {
        var time: Stamp
        var kcal = 0.0
        var proteinG = 0.0
        var carbsG = 0.0
        var fatG = 0.0
    }

    /// A `yyyy-MM-dd HH:mm:ss Z` date: its instant, and the local day and hour it names.
    private struct Stamp {
        var text: String
        var milliseconds: Int64
        var day: LocalDay
        var hour: Int

        init?(_ text: String) {
            let parts = text.split(separator: " ")
            guard parts.count == 3 else { return nil }
            let date = parts[0].split(separator: "-").compactMap { Int32($0) }
            let time = parts[1].split(separator: ":").compactMap { Int($0) }
            let zone = parts[2]
            guard date.count == 3, time.count == 3, zone.count == 5, let sign = zone.first, sign == "+" || sign == "-",
                  let zoneHours = Int(zone.dropFirst().prefix(2)), let zoneMinutes = Int(zone.suffix(2)),
                  (0..<24).contains(time[0]), (0..<60).contains(time[1]), (0..<61).contains(time[2]),
                  let day = LocalDay(year: date[0], month: date[1], day: date[2])
            else { return nil }
            let offset = (zoneHours * 3_600 + zoneMinutes * 60) * (sign == "-" ? -1 : 1)
            let local = Int64(day.epochDay) * LocalDay.millisecondsPerDay + Int64((time[0] * 3_600 + time[1] * 60 + time[2]) * 1_000)
            self.text = text
            milliseconds = local - Int64(offset) * 1_000
            self.day = day
            hour = time[0]
        }
    }

    // MARK: Rules

    private static func source(_ source: String?) -> String {
        var name = source?.trimmingCharacters(in: .whitespaces) ?? ""
        if name.isEmpty { name = "Health Auto Export" }
        name.unicodeScalars.removeAll { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }
        while name.utf8.count > 64 { name.removeLast() }
        return name
    }

    /// A name-based id (16 bytes shaped as a version-8 UUID) of a record of this source.
    private static func derivedID(_ name: String) -> Data {
        var id = Array(SHA256.hash(data: Array("workout health-auto-export v1\u{0}\(name)".utf8)).prefix(16))
        id[6] = (id[6] & 0x0F) | 0x80
        id[8] = (id[8] & 0x3F) | 0x80
        return Data(id)
    }
}
