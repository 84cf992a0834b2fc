package import Foundation
import WorkoutProtocol
import WorkoutRules

/// What the Android apps HC Webhook and Life Dashboard Companion post from Health Connect,
/// turned into the records of `Logging.ImportRecords`. Both post one JSON object with an array
/// per record type, in snake_case, every instant in UTC (`2026-12-02T19:00:00.123Z`, Java's
/// `Instant.toString()`); HC Webhook adds each record's provenance (`metadata.data_origin`, the
/// package of the app that wrote it to Health Connect), Life Dashboard Companion does not.
///
/// * `steps` (`count`, `start_time`, `end_time`): one steps sample per record, of the app that
///   wrote it (its name for the well-known packages, else the package; `Health Connect` without
///   provenance), on the member's local day of its start: kept per `(day, source, start)` and
///   summed per source and day, as Health Auto Export's samples are, so a push of new records
///   adds, an overlapping one changes nothing, a corrected record replaces only itself.
/// * `weight` (`kilograms`, `time`): one weigh-in per record.
/// * `nutrition` (`calories`, `protein_grams`, `carbs_grams`, `fat_grams`, `name`, the times):
///   one meal with one food item per record, typed by the member's local hour of its start.
/// * `exercise` (`type`, the times, `duration_seconds`, `distance_meters`, `steps`): a workout,
///   its type through ``HealthConnectExerciseTypes`` (Health Connect's number or name).
///
/// Ids are derived from each record's type, source, times and figures, so the apps' repeated
/// and overlapping pushes store nothing twice (the formats carry no record id). Every other
/// array (heart rate, sleep, distance, calories burned, hydration …) is counted by its name and
/// skipped, as is a record without the fields it needs.
package struct HealthConnectPush: Sendable {
    /// The records, each named by its place in the push (`steps[3]`).
    package var entries: [IngestEntry]
    /// Records skipped, by array name.
    package var skipped: [String: Int]

    /// Where the ids of this format are derived.
    static let namespace = "workout health-connect v1"
    /// The source of a record that names no app.
    static let unnamedSource = "Health Connect"

    /// The records of a posted body, their local days and hours in `zone` (the member's).
    ///
    /// - Throws: ``CallFailure`` INVALID_ARGUMENT when the body is not a JSON object.
    package init(json body: [UInt8], zone: TimeZone) throws(CallFailure) {
        let payload: Payload
        do {
            payload = try JSONDecoder().decode(Payload.self, from: Data(body))
        } catch {
            throw CallFailure(.invalidArgument, "the body is not a Health Connect push (a JSON object with arrays such as \"steps\": [{\"count\", \"start_time\", \"end_time\"}]): \(Self.describe(error))")
        }
        var entries: [IngestEntry] = []
        var skipped = payload.others
        func skip(_ kind: String) { skipped[kind, default: 0] += 1 }

        for (index, element) in payload.steps.enumerated() {
            guard let steps = element.value, let count = steps.count, count.isFinite, count >= 0, count <= Double(UInt32.max),
                  let start = steps.start.flatMap(IngestTimestamp.init)
            else { skip("steps"); continue }
            var sample = Workout_V1_StepsSample()
            sample.day = LocalDay.containing(instant: start.milliseconds, in: zone).wire
            sample.source = Self.source(steps.metadata)
            sample.startMs = start.milliseconds
            if let end = steps.end.flatMap(IngestTimestamp.init), end.milliseconds > start.milliseconds {
                sample.endMs = end.milliseconds
            }
            sample.steps = UInt32(count.rounded())
            var record = Workout_V1_ImportRecord()
            record.stepsSample = sample
            entries.append(IngestEntry(field: "steps[\(index)]", record: record))
        }

        for (index, element) in payload.weight.enumerated() {
            guard let weight = element.value, let kilograms = weight.kilograms, kilograms.isFinite,
                  let time = weight.time.flatMap(IngestTimestamp.init)
            else { skip("weight"); continue }
            let source = Self.source(weight.metadata)
            var entry = Workout_V1_WeightEntry()
            entry.weightKg = (kilograms * 100).rounded() / 100
            entry.id = IngestRecordID.derived(namespace: Self.namespace, "weight|\(source)|\(time.milliseconds)|\(entry.weightKg)")
            entry.measuredAtMs = time.milliseconds
            entry.note = Self.note(source)
            var record = Workout_V1_ImportRecord()
            record.weightEntry = entry
            entries.append(IngestEntry(field: "weight[\(index)]", record: record))
        }

        for (index, element) in payload.nutrition.enumerated() {
            guard let food = element.value, let start = food.start.flatMap(IngestTimestamp.init) else { skip("nutrition"); continue }
            let figures = [food.calories, food.proteinGrams, food.carbsGrams, food.fatGrams]
            guard figures.contains(where: { $0 != nil }), figures.allSatisfy({ $0.map { $0.isFinite && $0 >= 0 } ?? true }) else {
                skip("nutrition")
                continue
            }
            let source = Self.source(food.metadata)
            var item = Workout_V1_FoodItem()
            let name = food.name.map { IngestSource.name($0, otherwise: "") } ?? ""
            item.name = String(decoding: Array((name.isEmpty ? "Food from \(source)" : name).utf8.prefix(128)), as: UTF8.self)
            item.calories = ((food.calories ?? 0) * 10).rounded() / 10
            item.proteinG = ((food.proteinGrams ?? 0) * 10).rounded() / 10
            item.carbsG = ((food.carbsGrams ?? 0) * 10).rounded() / 10
            item.fatG = ((food.fatGrams ?? 0) * 10).rounded() / 10
            var meal = Workout_V1_Meal()
            meal.id = IngestRecordID.derived(
                namespace: Self.namespace,
                "meal|\(source)|\(start.milliseconds)|\(food.end ?? "")|\(item.name)|\(item.calories)|\(item.proteinG)|\(item.carbsG)|\(item.fatG)")
            let localHour = Int((start.milliseconds + LocalDay.offsetMilliseconds(at: start.milliseconds, in: zone)) / 3_600_000 % 24 + 24) % 24
            meal.mealType = switch HealthUnits.mealSlot(hour: localHour) {
            case .breakfast: .breakfast
            case .lunch: .lunch
            case .dinner: .dinner
            case .snack: .snack
            }
            meal.eatenAtMs = start.milliseconds
            meal.items = [item]
            var record = Workout_V1_ImportRecord()
            record.meal = meal
            entries.append(IngestEntry(field: "nutrition[\(index)]", record: record))
        }

        for (index, element) in payload.exercise.enumerated() {
            guard let session = element.value, let written = session.type, let type = HealthConnectExerciseTypes.workoutType(for: written),
                  let start = session.start.flatMap(IngestTimestamp.init)
            else { skip("exercise"); continue }
            let end = session.end.flatMap(IngestTimestamp.init)
            let seconds = session.durationSeconds ?? end.map { Double($0.milliseconds - start.milliseconds) / 1_000 } ?? 0
            guard seconds.isFinite, seconds >= 1, seconds <= Double(UInt32.max) else { skip("exercise"); continue }
            let source = Self.source(session.metadata)
            var workout = Workout_V1_Workout()
            workout.workoutType = type
            workout.durationSeconds = UInt32(seconds.rounded())
            workout.performedAtMs = start.milliseconds
            if let metres = session.distanceMeters, metres.isFinite, RecordLimits.workoutDistanceMetres.contains(metres.rounded()) {
                workout.distanceM = metres.rounded()
            }
            if let steps = session.steps, steps.isFinite, RecordLimits.workoutSteps.contains(Int(exactly: steps.rounded()) ?? -1) {
                workout.steps = UInt32(steps.rounded())
            }
            workout.notes = Self.note(source)
            workout.location = HealthConnectExerciseTypes.place(for: written).flatMap { Workout_V1_WorkoutLocation(rawValue: $0.rawValue) } ?? .unspecified
            workout.id = IngestRecordID.derived(
                namespace: Self.namespace,
                "workout|\(source)|\(written)|\(start.milliseconds)|\(end?.milliseconds ?? 0)|\(workout.durationSeconds)|\(workout.distanceM)|\(workout.steps)")
            var record = Workout_V1_ImportRecord()
            record.workout = workout
            entries.append(IngestEntry(field: "exercise[\(index)]", record: record))
        }
        self.entries = entries
        self.skipped = skipped
    }

    // MARK: Sources

    /// The names of the apps that write most of a household's Health Connect data, by package.
    static let appNames: [String: String] = [
        "com.google.android.apps.fitness": "Google Fit",
        "com.google.android.apps.healthdata": "Health Connect",
        "com.sec.android.app.shealth": "Samsung Health",
        "com.fitbit.FitbitMobile": "Fitbit",
        "com.garmin.android.apps.connectmobile": "Garmin Connect",
        "com.withings.wiscale2": "Withings",
        "com.strava": "Strava",
        "com.myfitnesspal.android": "MyFitnessPal",
        "com.ouraring.oura": "Oura",
        "fi.polar.polarflow": "Polar Flow",
    ]

    /// The source of a record: the app that wrote it, by name where it is well known.
    private static func source(_ metadata: Metadata?) -> String {
        let origin = IngestSource.name(metadata?.dataOrigin, otherwise: unnamedSource)
        return appNames[origin] ?? origin
    }

    /// A record's note: where it came from.
    private static func note(_ source: String) -> String {
        source == unnamedSource ? unnamedSource : "\(unnamedSource) (\(source))"
    }

    /// A decoding error in a few words: the path and what was wrong, not Foundation's dump.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "it is not JSON" }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty: return "it is not JSON"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context), .keyNotFound(_, let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return path.isEmpty ? "it is not a JSON object" : "\(path.dropFirst()) is not what the format holds there"
        @unknown default: return "it is not JSON"
        }
    }

    // MARK: The posted JSON, as far as it is read

    /// The push: the arrays read, and a count of every other array's elements by its name.
    private struct Payload: Decodable {
        var steps: [Tolerant<StepsRecord>] = []
        var weight: [Tolerant<WeightRecord>] = []
        var nutrition: [Tolerant<NutritionRecord>] = []
        var exercise: [Tolerant<ExerciseRecord>] = []
        var others: [String: Int] = [:]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            for key in container.allKeys {
                switch key.stringValue {
                case "steps": steps = try container.decode([Tolerant<StepsRecord>].self, forKey: key)
                case "weight": weight = try container.decode([Tolerant<WeightRecord>].self, forKey: key)
                case "nutrition": nutrition = try container.decode([Tolerant<NutritionRecord>].self, forKey: key)
                case "exercise": exercise = try container.decode([Tolerant<ExerciseRecord>].self, forKey: key)
                default:
                    // `timestamp`, `app_version`, `source`: not records. An array of another
                    // type: counted.
                    if let list = try? container.decode([Ignored].self, forKey: key), !list.isEmpty {
                        // At most 64 names are spelled out; the answer stays small whatever is sent.
                        let name = others.count < 64 || others[String(key.stringValue.prefix(64))] != nil ? String(key.stringValue.prefix(64)) : "other"
                        others[name, default: 0] += list.count
                    }
                }
            }
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// An element read on its own: one of another shape is `nil` (and skipped), never a reason
    /// to refuse the push.
    private struct Tolerant<Value: Decodable>: Decodable {
        var value: Value?
        init(from decoder: any Decoder) throws { value = try? Value(from: decoder) }
    }

    /// Anything, read and dropped.
    private struct Ignored: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    /// HC Webhook's provenance of a record.
    private struct Metadata: Decodable {
        var dataOrigin: String?
        enum CodingKeys: String, CodingKey { case dataOrigin = "data_origin" }
    }

    private struct StepsRecord: Decodable {
        var count: Double?
        var start: String?
        var end: String?
        var metadata: Metadata?
        enum CodingKeys: String, CodingKey { case count, start = "start_time", end = "end_time", metadata }
    }

    private struct WeightRecord: Decodable {
        var kilograms: Double?
        var time: String?
        var metadata: Metadata?
    }

    private struct NutritionRecord: Decodable {
        var calories: Double?
        var proteinGrams: Double?
        var carbsGrams: Double?
        var fatGrams: Double?
        var name: String?
        var start: String?
        var end: String?
        var metadata: Metadata?
        enum CodingKeys: String, CodingKey {
            case calories, proteinGrams = "protein_grams", carbsGrams = "carbs_grams", fatGrams = "fat_grams", name
            case start = "start_time", end = "end_time", metadata
        }
    }

    private struct ExerciseRecord: Decodable {
        /// Health Connect's number (as a string or a number) or name.
        var type: String?
        var start: String?
        var end: String?
        var durationSeconds: Double?
        var distanceMeters: Double?
        var steps: Double?
        var metadata: Metadata?
        enum CodingKeys: String, CodingKey {
            case type, start = "start_time", end = "end_time", durationSeconds = "duration_seconds"
            case distanceMeters = "distance_meters", steps, metadata
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let text = try? container.decodeIfPresent(String.self, forKey: .type) {
                type = text
            } else if let number = try? container.decodeIfPresent(Int.self, forKey: .type) {
                type = String(number)
            }
            start = try? container.decodeIfPresent(String.self, forKey: .start)
            end = try? container.decodeIfPresent(String.self, forKey: .end)
            durationSeconds = try? container.decodeIfPresent(Double.self, forKey: .durationSeconds)
            distanceMeters = try? container.decodeIfPresent(Double.self, forKey: .distanceMeters)
            steps = try? container.decodeIfPresent(Double.self, forKey: .steps)
            metadata = try? container.decodeIfPresent(Metadata.self, forKey: .metadata)
        }
    }
}
