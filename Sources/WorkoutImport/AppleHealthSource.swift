import Foundation
import WorkoutClient
import WorkoutRules
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Apple Health's `export.xml` (the file inside the Health app's `export.zip`; the zip itself
/// is read too), as workouts, weigh-ins, steps and meals.
///
/// * `<Workout>`: its activity type through `HealthWorkoutTypes`, duration, energy (the
///   `totalEnergyBurned` attribute, or in newer exports the `<WorkoutStatistics>` of active
///   energy), start, and the zone of its `HKTimeZone` metadata when it has one (else the zone
///   of the offset the export wrote its time in); its distance (`totalDistance`, or the
///   statistics of a distance type), average and highest heart rate and steps (statistics),
///   and elevation climbed (`HKElevationAscended` metadata), each when present and in bounds;
///   indoors or outdoors from the `HKIndoorWorkout` metadata.
/// * `HKQuantityTypeIdentifierBodyMass` records: weigh-ins (kg, lb, g, st).
/// * `HKQuantityTypeIdentifierStepCount` samples: summed per source and local day into one
///   steps report each, as `ReportSteps` keeps them — the phone's and the watch's counts stay
///   apart and the server counts the larger, never both.
/// * `HKQuantityTypeIdentifierDietaryEnergyConsumed`, `…DietaryProtein`, `…DietaryFatTotal`,
///   `…DietaryCarbohydrates` samples of one source at one time: one meal with one food item
///   (named by its `HKFoodType` metadata), its type from a `HKFoodMeal`/`Meal` metadata entry
///   or the hour.
///
/// Every other record type is counted and reported once per type as not imported.
///
/// **Memory.** The XML is parsed as a stream (`XMLParser(stream:)`, libxml2's push parser fed
/// 4 KiB at a time), so memory does not grow with the file: workouts and weigh-ins are handed
/// on as they are read. What is held until the end is one entry per (source, day) of steps and
/// one per food entry — a few MB for ten years.
///
/// Ids are derived from each record's type, source and times (``ImportRecordID``), so the
/// same export imported twice stores everything once.
struct AppleHealthSource: ImportSource {
    /// The file: `export.xml`, or the Health app's `export.zip`.
    let path: String

    var totalBytes: Int64? { ImportSources.size(of: path) }

    func read(progress: ImportByteCounter, _ body: (ImportEvent) throws -> Void) throws {
        if path.lowercased().hasSuffix(".zip") {
            let entry = try ZipEntryStream(archive: path, entrySuffix: "export.xml", counter: progress)
            try parse(stream: entry, body)
            if let error = entry.readError { throw ImportSourceError("cannot read \(path): \(error)") }
        } else {
            let stream = ImportFileStream(path: path, counter: progress)
            try parse(stream: stream, body)
            if let error = stream.readError { throw ImportSourceError("cannot read \(path): \(error)") }
        }
    }

    private func parse(stream: InputStream, _ body: (ImportEvent) throws -> Void) throws {
        try withoutActuallyEscaping(body) { emit in
            let reader = HealthExportReader(emit: emit)
            let parser = XMLParser(stream: DoctypeBlankingStream(stream))
            parser.shouldResolveExternalEntities = false
            parser.delegate = reader
            reader.parser = parser
            let parsed = parser.parse()
            if let stop = reader.stop { throw stop }
            if !parsed {
                let reason = parser.parserError.map { "\($0.localizedDescription)" } ?? "malformed XML"
                try emit(.skipped(ImportIssue(
                    line: max(1, parser.lineNumber),
                    reason: "the file is not well-formed XML from here (\(reason)); nothing after this line was read")))
            } else if !reader.sawEnd {
                try emit(.skipped(ImportIssue(
                    line: max(1, parser.lineNumber),
                    reason: reader.sawStart
                        ? "the file ends before </HealthData>: it was cut off; everything before this line was read"
                        : "this is not an Apple Health export (no <HealthData>)")))
            }
            try reader.finish()
        }
    }
}

/// Hands on a stream with its `<!DOCTYPE …>` declaration (and its internal subset) turned
/// into spaces, line breaks kept, so line numbers stay those of the file.
///
/// The export's DTD declares attributes `#IMPLIED`; swift-corelibs-foundation's XMLParser
/// (Linux) dereferences the missing default value of such a declaration and crashes
/// (SIGSEGV in `strlen`) before any element is read. The importer needs nothing of the DTD.
/// The declaration is looked for in the first 1 MiB, where the Health app writes it.
private final class DoctypeBlankingStream: InputStream {
    private let base: InputStream
    private var head: [UInt8]?
    private var headPosition = 0
    private var baseFinished = false

    init(_ base: InputStream) {
        self.base = base
        super.init(data: Data())
    }

    override func open() { base.open() }
    override func close() { base.close() }
    override var hasBytesAvailable: Bool { head.map { headPosition < $0.count } ?? true || !baseFinished }
    override var streamStatus: Stream.Status { hasBytesAvailable ? .open : .atEnd }
    override var streamError: (any Error)? { base.streamError }

    /// Reads the first bytes (up to the declaration's end, at most 1 MiB) and blanks it.
    private func readHead() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let marker = Array("<!DOCTYPE".utf8)
        while bytes.count < 1 << 20 {
            let count = chunk.withUnsafeMutableBufferPointer { base.read($0.baseAddress!, maxLength: $0.count) }
            if count <= 0 {
                baseFinished = true
                break
            }
            bytes.append(contentsOf: chunk[0..<count])
            if let start = Self.find(marker, in: bytes), let end = Self.declarationEnd(in: bytes, from: start + marker.count) {
                for index in start...end where bytes[index] != 0x0A { bytes[index] = 0x20 }
                break
            }
            if bytes.count > 4096, Self.find(marker, in: bytes) == nil, bytes.contains(0x3C), Self.find(Array("<HealthData".utf8), in: bytes) != nil {
                break
            }
        }
        return bytes
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int = 0) -> Int? {
        guard bytes.count >= pattern.count, start <= bytes.count - pattern.count else { return nil }
        return (start...(bytes.count - pattern.count)).first { index in
            bytes[index] == pattern[0] && Array(bytes[index..<(index + pattern.count)]) == pattern
        }
    }

    /// The index of the `>` ending a declaration whose name ends at `start`: `]>` when it has
    /// an internal subset, else the first `>`.
    private static func declarationEnd(in bytes: [UInt8], from start: Int) -> Int? {
        guard let close = bytes[start...].firstIndex(of: 0x3E) else { return nil }
        guard let open = bytes[start...].firstIndex(of: 0x5B), open < close else { return close }
        var index = open + 1
        while index < bytes.count - 1 {
            if bytes[index] == 0x5D {
                var next = index + 1
                while next < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[next]) { next += 1 }
                if next < bytes.count, bytes[next] == 0x3E { return next }
            }
            index += 1
        }
        return nil
    }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        if head == nil { head = readHead() }
        if let head, headPosition < head.count {
            let count = min(length, head.count - headPosition)
            head.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + headPosition, count: count) }
            headPosition += count
            return count
        }
        guard !baseFinished else { return 0 }
        let count = base.read(buffer, maxLength: length)
        if count <= 0 { baseFinished = true }
        return count
    }
}

/// The XMLParser delegate that turns an export's elements into import events.
private final class HealthExportReader: NSObject, XMLParserDelegate {
    /// A `<Workout>` being read (its children carry the zone and, in newer exports, the energy).
    private struct PendingWorkout {
        var attributes: [String: String]
        var line: Int
        var timeZone: String?
        var statisticsEnergy: (value: Double, unit: String)?
        /// Distance from a `<WorkoutStatistics>` of a distance type, metres.
        var statisticsDistance: Double?
        /// Heart rate from `<WorkoutStatistics>` of HeartRate: average and maximum, a minute.
        var heartRate: (average: Double?, maximum: Double?)?
        /// Steps from a `<WorkoutStatistics>` of StepCount.
        var statisticsSteps: Double?
        /// Whether it was indoors, from the `HKIndoorWorkout` metadata (`1` or `0`).
        var indoor: Bool?
        /// Elevation climbed from the `HKElevationAscended` metadata, metres.
        var elevation: Double?
    }

    /// A dietary record being read (its children may name the food and the meal).
    private struct PendingDietary {
        var type: String
        var attributes: [String: String]
        var line: Int
        var metadata: [String: String] = [:]
    }

    /// The steps of one source on one day.
    private struct StepsKey: Hashable, Comparable {
        var day: LocalDate
        var source: String
        static func < (a: StepsKey, b: StepsKey) -> Bool { (a.day, a.source) < (b.day, b.source) }
    }

    private struct StepsTotal {
        var steps: Double = 0
        var latestEnd: Date
        var line: Int
    }

    /// One food entry: a source's dietary samples at one time.
    private struct FoodEntry {
        var source: String
        var start: String
        var time: HealthDate
        var line: Int
        var kcal: Double = 0
        var proteinG: Double = 0
        var carbsG: Double = 0
        var fatG: Double = 0
        var foodName: String?
        var mealHint: String?
    }

    private static let dietaryTypes: Set<String> = [
        "HKQuantityTypeIdentifierDietaryEnergyConsumed", "HKQuantityTypeIdentifierDietaryProtein",
        "HKQuantityTypeIdentifierDietaryFatTotal", "HKQuantityTypeIdentifierDietaryCarbohydrates",
    ]

    private let emit: (ImportEvent) throws -> Void
    weak var parser: XMLParser?
    /// The error `emit` threw, which stopped the parse.
    private(set) var stop: (any Error)?
    private(set) var sawStart = false
    private(set) var sawEnd = false

    private var workout: PendingWorkout?
    private var dietary: PendingDietary?
    private var steps: [StepsKey: StepsTotal] = [:]
    private var food: [String: FoodEntry] = [:]
    private var ignored: [String: Int] = [:]

    init(emit: @escaping (ImportEvent) throws -> Void) {
        self.emit = emit
    }

    private var line: Int { parser?.lineNumber ?? 0 }

    private func send(_ event: ImportEvent) {
        guard stop == nil else { return }
        do {
            try emit(event)
        } catch {
            stop = error
            parser?.abortParsing()
        }
    }

    private func skip(_ reason: String, kind: ImportKind?, at line: Int) {
        send(.skipped(ImportIssue(line: line, kind: kind, reason: reason)))
    }

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch element {
        case "HealthData":
            sawStart = true
        case "Record":
            let type = attributes["type"] ?? ""
            switch type {
            case "HKQuantityTypeIdentifierStepCount": stepSample(attributes)
            case "HKQuantityTypeIdentifierBodyMass": weight(attributes)
            case _ where Self.dietaryTypes.contains(type):
                dietary = PendingDietary(type: type, attributes: attributes, line: line)
            default:
                ignored[type.isEmpty ? "Record without a type" : type, default: 0] += 1
            }
        case "Workout":
            workout = PendingWorkout(attributes: attributes, line: line)
        case "MetadataEntry":
            guard let key = attributes["key"], let value = attributes["value"] else { return }
            if workout != nil, key == "HKTimeZone" { workout?.timeZone = value }
            if workout != nil, key == "HKElevationAscended" { workout?.elevation = HealthUnits.metres(quantity: value) }
            if workout != nil, key == "HKIndoorWorkout" { workout?.indoor = value == "1" ? true : value == "0" ? false : nil }
            if dietary != nil { dietary?.metadata[key] = value }
        case "WorkoutStatistics":
            guard workout != nil, let type = attributes["type"] else { return }
            let sum = attributes["sum"].flatMap(Double.init)
            switch type {
            case "HKQuantityTypeIdentifierActiveEnergyBurned":
                if let sum { workout?.statisticsEnergy = (sum, attributes["unit"] ?? "kcal") }
            case "HKQuantityTypeIdentifierDistanceWalkingRunning", "HKQuantityTypeIdentifierDistanceCycling",
                 "HKQuantityTypeIdentifierDistanceSwimming", "HKQuantityTypeIdentifierDistanceWheelchair",
                 "HKQuantityTypeIdentifierDistanceDownhillSnowSports":
                if let sum, let metres = HealthUnits.metres(sum, unit: attributes["unit"] ?? "km") { workout?.statisticsDistance = metres }
            case "HKQuantityTypeIdentifierHeartRate":
                workout?.heartRate = (attributes["average"].flatMap(Double.init), attributes["maximum"].flatMap(Double.init))
            case "HKQuantityTypeIdentifierStepCount":
                if let sum { workout?.statisticsSteps = sum }
            default:
                break
            }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        switch element {
        case "HealthData": sawEnd = true
        case "Workout":
            if let pending = workout { finishWorkout(pending) }
            workout = nil
        case "Record":
            if let pending = dietary { addDietary(pending) }
            dietary = nil
        default: break
        }
    }

    // MARK: Records

    private func finishWorkout(_ pending: PendingWorkout) {
        let attributes = pending.attributes
        let activity = attributes["workoutActivityType"] ?? ""
        guard let type = HealthWorkoutTypes.workoutType(for: activity) else {
            return skip("a workout without an activity type", kind: .workout, at: pending.line)
        }
        guard let startText = attributes["startDate"], let start = HealthDate(startText) else {
            return skip("a workout without a readable startDate", kind: .workout, at: pending.line)
        }
        let end = attributes["endDate"].flatMap(HealthDate.init)
        var seconds: Double
        if let duration = attributes["duration"].flatMap(Double.init) {
            switch attributes["durationUnit"] ?? "min" {
            case "s", "sec": seconds = duration
            case "hr", "h": seconds = duration * 3_600
            case "min": seconds = duration * 60
            case let unit: return skip("a workout's duration in an unknown unit \"\(unit)\"", kind: .workout, at: pending.line)
            }
        } else if let end {
            seconds = end.date.timeIntervalSince(start.date)
        } else {
            return skip("a workout without a duration", kind: .workout, at: pending.line)
        }
        guard seconds.isFinite, seconds > 0 else {
            return skip("a workout with a duration of \(seconds) s", kind: .workout, at: pending.line)
        }
        var kcal = 0.0
        if let energy = attributes["totalEnergyBurned"].flatMap(Double.init) {
            guard let value = HealthUnits.kilocalories(energy, unit: attributes["totalEnergyBurnedUnit"] ?? "kcal") else {
                return skip("a workout's energy in an unknown unit", kind: .workout, at: pending.line)
            }
            kcal = value
        } else if let statistics = pending.statisticsEnergy {
            kcal = HealthUnits.kilocalories(statistics.value, unit: statistics.unit) ?? 0
        }
        let zone = pending.timeZone.flatMap { TimeZone(identifier: $0) == nil ? nil : $0 } ?? start.zoneName
        let source = attributes["sourceName"] ?? ""
        let id = ImportRecordID.derived(
            namespace: ImportRecordID.appleHealth,
            name: "workout|\(activity)|\(source)|\(startText)|\(attributes["endDate"] ?? "")")
        var imported = Workout(
            id: id, type: type, durationSeconds: Int(seconds.rounded()), caloriesBurned: (kcal * 10).rounded() / 10,
            performedAt: start.date, timeZone: zone,
            notes: source.isEmpty ? "Apple Health" : String(decoding: Array("Apple Health: \(source)".utf8.prefix(1_000)), as: UTF8.self))
        // The detail the export has (the `totalDistance` attribute, or the distance statistics of
        // newer exports; heart rate, steps, the elevation metadata); a figure out of the server's
        // bounds is left out rather than the workout.
        let distance = attributes["totalDistance"].flatMap(Double.init).flatMap { HealthUnits.metres($0, unit: attributes["totalDistanceUnit"] ?? "km") }
            ?? pending.statisticsDistance
        if let distance, RecordLimits.workoutDistanceMetres.contains(distance.rounded()) { imported.distanceM = distance.rounded() }
        if let elevation = pending.elevation, RecordLimits.workoutElevationMetres.contains(elevation) { imported.elevationGainM = (elevation * 10).rounded() / 10 }
        if let average = pending.heartRate?.average, average.isFinite, RecordLimits.workoutHeartRate.contains(Int(average.rounded())) {
            imported.averageHeartRate = Int(average.rounded())
        }
        if let maximum = pending.heartRate?.maximum, maximum.isFinite, RecordLimits.workoutHeartRate.contains(Int(maximum.rounded())),
           Int(maximum.rounded()) >= imported.averageHeartRate ?? 0 {
            imported.maxHeartRate = Int(maximum.rounded())
        }
        if let steps = pending.statisticsSteps, steps.isFinite, steps >= 1, RecordLimits.workoutSteps.contains(Int(steps.rounded())) {
            imported.steps = Int(steps.rounded())
        }
        imported.location = pending.indoor.map { $0 ? .indoor : .outdoor }
        deliver(.workout(imported), line: pending.line)
    }

    private func weight(_ attributes: [String: String]) {
        let line = self.line
        guard let startText = attributes["startDate"], let start = HealthDate(startText) else {
            return skip("a body mass record without a readable startDate", kind: .weight, at: line)
        }
        guard let valueText = attributes["value"], let value = Double(valueText) else {
            return skip("a body mass record without a numeric value", kind: .weight, at: line)
        }
        let unit = attributes["unit"] ?? "kg"
        guard let kilograms = HealthUnits.kilograms(value, unit: unit) else {
            return skip("a body mass in an unknown unit \"\(unit)\"", kind: .weight, at: line)
        }
        let source = attributes["sourceName"] ?? ""
        let id = ImportRecordID.derived(
            namespace: ImportRecordID.appleHealth, name: "weight|\(source)|\(startText)|\(valueText)|\(unit)")
        deliver(.weight(WeightEntry(id: id, weightKg: (kilograms * 1_000).rounded() / 1_000, measuredAt: start.date, timeZone: start.zoneName)), line: line)
    }

    private func stepSample(_ attributes: [String: String]) {
        let line = self.line
        guard let start = attributes["startDate"].flatMap(HealthDate.init) else {
            return skip("a step count without a readable startDate", kind: .steps, at: line)
        }
        guard let value = attributes["value"].flatMap(Double.init), value.isFinite else {
            return skip("a step count without a numeric value", kind: .steps, at: line)
        }
        guard value >= 0 else { return skip("a negative step count (\(attributes["value"] ?? ""))", kind: .steps, at: line) }
        let end = attributes["endDate"].flatMap(HealthDate.init)?.date ?? start.date
        // At most 64 bytes (the server's bound), cut between characters, never inside one.
        var source = attributes["sourceName"] ?? "Apple Health"
        while source.utf8.count > 64 { source.removeLast() }
        let key = StepsKey(day: start.localDay, source: source.isEmpty ? "Apple Health" : source)
        var total = steps[key] ?? StepsTotal(latestEnd: end, line: line)
        total.steps += value
        total.latestEnd = max(total.latestEnd, end)
        steps[key] = total
    }

    private func addDietary(_ pending: PendingDietary) {
        let attributes = pending.attributes
        guard let startText = attributes["startDate"], let start = HealthDate(startText) else {
            return skip("a dietary record without a readable startDate", kind: .meal, at: pending.line)
        }
        guard let value = attributes["value"].flatMap(Double.init), value.isFinite, value >= 0 else {
            return skip("a dietary record without a non-negative numeric value", kind: .meal, at: pending.line)
        }
        let source = attributes["sourceName"] ?? ""
        let key = source + "|" + startText
        var entry = food[key] ?? FoodEntry(source: source, start: startText, time: start, line: pending.line)
        switch pending.type {
        case "HKQuantityTypeIdentifierDietaryEnergyConsumed":
            guard let kcal = HealthUnits.kilocalories(value, unit: attributes["unit"] ?? "kcal") else {
                return skip("dietary energy in an unknown unit", kind: .meal, at: pending.line)
            }
            entry.kcal += kcal
        case "HKQuantityTypeIdentifierDietaryProtein": entry.proteinG += HealthUnits.grams(value, unit: attributes["unit"])
        case "HKQuantityTypeIdentifierDietaryCarbohydrates": entry.carbsG += HealthUnits.grams(value, unit: attributes["unit"])
        default: entry.fatG += HealthUnits.grams(value, unit: attributes["unit"])
        }
        if let name = pending.metadata["HKFoodType"] ?? pending.metadata["HKMetadataKeyFoodType"], !name.isEmpty { entry.foodName = name }
        if let meal = pending.metadata["HKFoodMeal"] ?? pending.metadata["Meal"] ?? pending.metadata["meal"] { entry.mealHint = meal }
        food[key] = entry
    }

    /// Checks a record against the server's bounds and hands it on, or reports it.
    private func deliver(_ record: ImportRecord, line: Int) {
        if let problem = RecordChecks.problem(with: record) {
            skip(problem, kind: record.kind, at: line)
        } else {
            send(.record(record, location: "line \(line)"))
        }
    }

    /// After the document: the steps per source and day, the meals, and the types not imported.
    func finish() throws {
        guard stop == nil else { throw stop! }
        for (key, total) in steps.sorted(by: { $0.key < $1.key }) {
            let count = Int(total.steps.rounded())
            deliver(.steps(StepsReport(day: key.day, source: key.source, steps: count, reportedAt: total.latestEnd)), line: total.line)
        }
        steps = [:]
        for entry in food.values.sorted(by: { ($0.time.date, $0.source) < ($1.time.date, $1.source) }) {
            let name = entry.foodName ?? "Food from \(entry.source.isEmpty ? "Apple Health" : entry.source)"
            let item = FoodItem(
                name: String(decoding: Array(name.utf8.prefix(128)), as: UTF8.self),
                calories: (entry.kcal * 10).rounded() / 10, proteinG: (entry.proteinG * 10).rounded() / 10,
                carbsG: (entry.carbsG * 10).rounded() / 10, fatG: (entry.fatG * 10).rounded() / 10)
            let id = ImportRecordID.derived(namespace: ImportRecordID.appleHealth, name: "meal|\(entry.source)|\(entry.start)")
            let meal = Meal(
                id: id, mealType: Self.mealType(hint: entry.mealHint, hour: entry.time.localHour), eatenAt: entry.time.date,
                timeZone: entry.time.zoneName, items: [item])
            deliver(.meal(meal), line: entry.line)
        }
        food = [:]
        for (type, count) in ignored.sorted(by: { $0.key < $1.key }) {
            let name = type.replacingOccurrences(of: "HKQuantityTypeIdentifier", with: "")
                .replacingOccurrences(of: "HKCategoryTypeIdentifier", with: "")
            send(.skipped(ImportIssue(location: "\(count) \(name) record\(count == 1 ? "" : "s")", reason: "not a kind of data Workout keeps")))
        }
        if let stop { throw stop }
    }

    // MARK: Units

    private static func mealType(hint: String?, hour: Int) -> MealType {
        switch hint?.lowercased() {
        case "breakfast": return .breakfast
        case "lunch": return .lunch
        case "dinner": return .dinner
        case "snack", "snacks": return .snack
        default: break
        }
        switch HealthUnits.mealSlot(hour: hour) {
        case .breakfast: return .breakfast
        case .lunch: return .lunch
        case .dinner: return .dinner
        case .snack: return .snack
        }
    }
}
