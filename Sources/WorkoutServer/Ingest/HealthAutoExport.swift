import Foundation
import WorkoutProtocol
import WorkoutRules

/// What the iOS app Health Auto Export posts to a REST API (its JSON export: `data.metrics`,
/// each `{name, units, data: [{qty, date, source}]}`, and `data.workouts`), turned into the
/// records of `Logging.ImportRecords`, with the same rules as the Apple Health import:
///
/// * `step_count`: one steps sample per point (its source, its start, the local day written),
///   which the server keeps per `(day, source, start)` and sums per source and day: a "since
///   last sync" export holding only a day's later samples adds them, an overlapping export
///   changes nothing, a corrected sample replaces only itself. The day's figure is the largest
///   source's (never added across sources), as for live reports; a source naming several
///   joined by `|` (the app's own merge of phone and watch) is one source of its own.
/// * `weight_body_mass` (or `body_mass`): one weigh-in per sample, in kg, lb, g or st.
/// * `dietary_energy`, `protein`, `carbohydrates`, `total_fat`: the samples of one source at
///   one time are one meal with one food item (kcal or kJ; g, mg or kg), typed by the hour.
/// * `workouts`: the type through ``HealthWorkoutTypes`` (the Apple Health import's table), the
///   duration, the active energy, and (version 2) the distance in metres.
///
/// Ids are derived from each record's kind, source and times, so the app's repeated and
/// overlapping exports store nothing twice. Metrics it does not know are counted and skipped.
/// Dates are `yyyy-MM-dd HH:mm:ss Z` (or ISO 8601 with an offset): the local day is the one
/// written, in its own offset.
package struct HealthAutoExport: Sendable {
    /// The records, each named by where it came from (`step_count[3]`, `workouts[0]`).
    package var entries: [IngestEntry]
    /// Samples or workouts skipped, by metric name (`heart_rate`, or `workouts` for a workout
    /// without a usable start or duration).
    package var skipped: [String: Int]

    /// The records of a posted body.
    ///
    /// - Throws: ``CallFailure`` INVALID_ARGUMENT when the body is not Health Auto Export's
    ///   JSON (no `data` object).
    package init(json body: [UInt8]) throws(CallFailure) {
        let payload: Payload
        do {
            payload = try JSONDecoder().decode(Payload.self, from: Data(body))
        } catch {
            throw CallFailure(.invalidArgument, "the body is not Health Auto Export's JSON (an object with \"data\": {\"metrics\": [...], \"workouts\": [...]}): \(error)")
        }
        var records: [IngestEntry] = []
        var skipped: [String: Int] = [:]
        var food: [FoodKey: FoodEntry] = [:]
        for metric in payload.data.metrics ?? [] {
            let name = metric.name.lowercased()
            let points = metric.data ?? []
            switch name {
            case "step_count":
                for (index, point) in points.enumerated() {
                    guard let qty = point.qty, qty.isFinite, qty >= 0, let time = point.date.flatMap(IngestTimestamp.init) else {
                        skipped[name, default: 0] += 1
                        continue
                    }
                    var sample = Workout_V1_StepsSample()
                    sample.day = time.day.wire
                    sample.source = Self.source(point.source)
                    sample.startMs = time.milliseconds
                    sample.steps = UInt32(min(qty.rounded(), Double(UInt32.max)))
                    var record = Workout_V1_ImportRecord()
                    record.stepsSample = sample
                    records.append(IngestEntry(field: "\(name)[\(index)]", record: record))
                }
            case "weight_body_mass", "body_mass":
                for (index, point) in points.enumerated() {
                    guard let qty = point.qty, let time = point.date.flatMap(IngestTimestamp.init),
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
                    records.append(IngestEntry(field: "\(name)[\(index)]", record: record))
                }
            case "dietary_energy", "protein", "carbohydrates", "total_fat":
                for point in points {
                    guard let qty = point.qty, qty.isFinite, qty >= 0, let time = point.date.flatMap(IngestTimestamp.init) else {
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
            records.append(IngestEntry(field: "the meal of \(key.source) at \(key.time)", record: record))
        }
        for (index, workout) in (payload.data.workouts ?? []).enumerated() {
            guard let start = workout.start.flatMap(IngestTimestamp.init), let name = workout.name,
                  let type = HealthWorkoutTypes.workoutType(forName: name)
            else {
                skipped["workouts", default: 0] += 1
                continue
            }
            let end = workout.end.flatMap(IngestTimestamp.init)
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
            // Version 2's summary, else the sum of its samples (version 2 with workout metrics),
            // else version 1's summary.
            if let kcal = workout.activeEnergyBurned?.kilocalories ?? workout.activeEnergy?.kilocalories {
                converted.caloriesBurned = (kcal * 10).rounded() / 10
            }
            // Version 2's detail, each when it is one and within the server's bounds.
            if let distance = workout.distance, let qty = distance.qty, qty.isFinite,
               let metres = HealthUnits.metres(qty, unit: distance.units ?? "km"), RecordLimits.workoutDistanceMetres.contains(metres.rounded()) {
                converted.distanceM = metres.rounded()
            }
            if let climb = workout.elevationUp, let qty = climb.qty, qty.isFinite,
               let metres = HealthUnits.metres(qty, unit: climb.units ?? "m"), RecordLimits.workoutElevationMetres.contains(metres.rounded()) {
                converted.elevationGainM = metres.rounded()
            }
            let average = (workout.heartRate?.avg ?? workout.avgHeartRate)?.beatsPerMinute
            let maximum = (workout.heartRate?.max ?? workout.maxHeartRate)?.beatsPerMinute
            if let average, let maximum, maximum < average {
                // Not a pair the server keeps (a maximum below the average): neither is kept.
            } else {
                if let average { converted.averageHeartRate = average }
                if let maximum { converted.maxHeartRate = maximum }
            }
            if let steps = workout.stepCount?.total, steps.isFinite, RecordLimits.workoutSteps.contains(Int(steps.rounded())) {
                converted.steps = UInt32(steps.rounded())
            }
            // Where: version 2's `isIndoor`, else its `location`, else the Workout app's name.
            let place: WorkoutPlace? = workout.isIndoor.map { $0 ? .indoor : .outdoor }
                ?? workout.location.flatMap { ["indoor": WorkoutPlace.indoor, "outdoor": .outdoor][$0.lowercased()] }
                ?? HealthWorkoutTypes.place(forName: name)
            converted.location = place.flatMap { Workout_V1_WorkoutLocation(rawValue: $0.rawValue) } ?? .unspecified
            converted.notes = "Health Auto Export"
            var record = Workout_V1_ImportRecord()
            record.workout = converted
            records.append(IngestEntry(field: "workouts[\(index)]", record: record))
        }
        entries = records
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

        /// The quantity as energy, when it is one.
        var kilocalories: Double? {
            guard let qty, qty.isFinite, qty >= 0 else { return nil }
            return HealthUnits.kilocalories(qty, unit: units ?? "kcal")
        }

        /// The quantity as a heart rate the server keeps, when it is one.
        var beatsPerMinute: UInt32? {
            guard let qty, qty.isFinite, RecordLimits.workoutHeartRate.contains(Int(qty.rounded())) else { return nil }
            return UInt32(qty.rounded())
        }
    }

    /// A workout's quantity as a summary (`{"qty", "units"}`) or as its samples
    /// (`[{"qty", "units", "date"}]`, version 2 with workout metrics), summed.
    private struct SummedQuantity: Decodable {
        var samples: [Quantity]

        init(from decoder: any Decoder) throws {
            if let one = try? Quantity(from: decoder) {
                samples = [one]
            } else {
                var list = try decoder.unkeyedContainer()
                var samples: [Quantity] = []
                while !list.isAtEnd {
                    if (try? list.decodeNil()) == true { continue }
                    if let sample = try? list.decode(Quantity.self) {
                        samples.append(sample)
                        continue
                    }
                    // A sample of another shape counts nothing and is stepped over; the others
                    // still add up. (A decoder that cannot step over it ends the list here.)
                    guard (try? list.decode(Ignored.self)) != nil else { break }
                }
                self.samples = samples
            }
        }

        /// The energy of the samples in kcal; `nil` when none is energy.
        var kilocalories: Double? {
            let values = samples.compactMap(\.kilocalories)
            return values.isEmpty ? nil : values.reduce(0, +)
        }

        /// The sum of the samples' quantities; `nil` when there is none.
        var total: Double? {
            let values = samples.compactMap(\.qty).filter { $0.isFinite && $0 >= 0 }
            return values.isEmpty ? nil : values.reduce(0, +)
        }
    }

    /// Anything, read and dropped.
    private struct Ignored: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    /// Version 2's heart-rate summary.
    private struct HeartRate: Decodable {
        var avg: Quantity?
        var max: Quantity?
    }

    /// A workout. Every field is optional and read on its own: a field of a shape this build
    /// does not know is left unread, never a reason to refuse the push.
    private struct WorkoutEntry: Decodable {
        var id: String?
        var name: String?
        var start: String?
        var end: String?
        var duration: Double?
        /// Version 2's active energy.
        var activeEnergyBurned: Quantity?
        /// Version 1's (a summary), or version 2's samples.
        var activeEnergy: SummedQuantity?
        /// Version 2's distance covered.
        var distance: Quantity?
        /// Version 2's elevation climbed.
        var elevationUp: Quantity?
        /// Version 2's heart rate: the summary, or its fields alone.
        var heartRate: HeartRate?
        var avgHeartRate: Quantity?
        var maxHeartRate: Quantity?
        /// Version 2's step samples.
        var stepCount: SummedQuantity?
        /// Version 2's place: `isIndoor`, and `location` (`Indoor`, `Outdoor`, `Pool`).
        var isIndoor: Bool?
        var location: String?

        enum CodingKeys: String, CodingKey {
            case id, name, start, end, duration, activeEnergyBurned, activeEnergy, distance, elevationUp, heartRate, avgHeartRate, maxHeartRate
            case stepCount, isIndoor, location
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try? container.decodeIfPresent(String.self, forKey: .id)
            name = try? container.decodeIfPresent(String.self, forKey: .name)
            start = try? container.decodeIfPresent(String.self, forKey: .start)
            end = try? container.decodeIfPresent(String.self, forKey: .end)
            duration = try? container.decodeIfPresent(Double.self, forKey: .duration)
            activeEnergyBurned = try? container.decodeIfPresent(Quantity.self, forKey: .activeEnergyBurned)
            activeEnergy = try? container.decodeIfPresent(SummedQuantity.self, forKey: .activeEnergy)
            distance = try? container.decodeIfPresent(Quantity.self, forKey: .distance)
            elevationUp = try? container.decodeIfPresent(Quantity.self, forKey: .elevationUp)
            heartRate = try? container.decodeIfPresent(HeartRate.self, forKey: .heartRate)
            avgHeartRate = try? container.decodeIfPresent(Quantity.self, forKey: .avgHeartRate)
            maxHeartRate = try? container.decodeIfPresent(Quantity.self, forKey: .maxHeartRate)
            stepCount = try? container.decodeIfPresent(SummedQuantity.self, forKey: .stepCount)
            isIndoor = try? container.decodeIfPresent(Bool.self, forKey: .isIndoor)
            location = try? container.decodeIfPresent(String.self, forKey: .location)
        }
    }

    private struct FoodKey: Hashable {
        var source: String
        var time: String
    }

    private struct FoodEntry {
        var time: IngestTimestamp
        var kcal = 0.0
        var proteinG = 0.0
        var carbsG = 0.0
        var fatG = 0.0
    }

    private static func source(_ source: String?) -> String {
        IngestSource.name(source, otherwise: "Health Auto Export")
    }

    private static func derivedID(_ name: String) -> Data {
        IngestRecordID.derived(namespace: "workout health-auto-export v1", name)
    }
}
