public import Foundation

/// Writes an Apple Health `export.xml` as the Health app does (its DTD, `<HealthData>`,
/// `<Record>`s, `<Workout>`s with metadata and statistics), record by record to a file, so the
/// tests make their fixtures and the benchmark a file of any size (a gigabyte, streamed) —
/// no real person's data in the repository.
public final class HealthExportWriter {
    private let handle: FileHandle
    private var buffer = ""
    /// Bytes written so far.
    public private(set) var bytesWritten: Int64 = 0
    /// The line the next element starts on.
    public private(set) var line = 1

    /// Starts a file at `path` with the export's header (XML declaration, DTD, `<HealthData>`,
    /// `<ExportDate>`, `<Me>`).
    public init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileWriteUnknown) }
        self.handle = handle
        write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!-- HealthKit Export Version: 14 -->
            <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
            <!ATTLIST HealthData
              locale CDATA #REQUIRED
            >
            <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
            <!ATTLIST Record
              type          CDATA #REQUIRED
              unit          CDATA #IMPLIED
              value         CDATA #IMPLIED
              sourceName    CDATA #REQUIRED
              sourceVersion CDATA #IMPLIED
              device        CDATA #IMPLIED
              creationDate  CDATA #IMPLIED
              startDate     CDATA #REQUIRED
              endDate       CDATA #REQUIRED
            >
            ]>
            <HealthData locale="en_US">
             <ExportDate value="2026-11-01 10:00:00 +0100"/>
             <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-01-01" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>

            """)
    }

    /// `2024-03-10 08:01:02 +0100`: `date` on the wall clock of `offsetSeconds`.
    public static func healthDate(_ date: Date, offsetSeconds: Int) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + offsetSeconds
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let (year, month, day) = civil(fromEpochDay: days)
        let inDay = seconds - days * 86_400
        let sign = offsetSeconds < 0 ? "-" : "+"
        let offset = abs(offsetSeconds)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)-\(two(month))-\(two(day)) \(two(inDay / 3600)):\(two(inDay % 3600 / 60)):\(two(inDay % 60)) "
            + "\(sign)\(two(offset / 3600))\(two(offset % 3600 / 60))"
    }

    /// The offset of `zone` at `date`.
    public static func offset(_ zone: String, at date: Date) -> Int {
        TimeZone(identifier: zone)!.secondsFromGMT(for: date)
    }

    private static func civil(fromEpochDay days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    private func write(_ text: String) {
        buffer += text
        line += text.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        if buffer.utf8.count >= 1 << 16 { flush() }
    }

    private func flush() {
        let data = Data(buffer.utf8)
        handle.write(data)
        bytesWritten += Int64(data.count)
        buffer = ""
    }

    /// A `<Record>` (one line, or several with metadata); returns the line it starts on.
    @discardableResult
    public func record(
        type: String, source: String, unit: String?, value: String, start: String, end: String, metadata: [(String, String)] = []
    ) -> Int {
        let at = line
        let unitAttribute = unit.map { " unit=\"\(escaped($0))\"" } ?? ""
        let head = " <Record type=\"\(type)\" sourceName=\"\(escaped(source))\" sourceVersion=\"17.4\" device=\"&lt;&lt;HKDevice: 0x283f&gt;&gt;, name:iPhone\"\(unitAttribute) creationDate=\"\(end)\" startDate=\"\(start)\" endDate=\"\(end)\" value=\"\(escaped(value))\""
        if metadata.isEmpty {
            write(head + "/>\n")
        } else {
            write(head + ">\n" + metadata.map { "  <MetadataEntry key=\"\(escaped($0.0))\" value=\"\(escaped($0.1))\"/>\n" }.joined() + " </Record>\n")
        }
        return at
    }

    /// A `<Workout>`: the energy as the attribute (older exports) or as `<WorkoutStatistics>`
    /// (newer ones), the zone as `HKTimeZone` metadata when given; returns its first line.
    @discardableResult
    public func workout(
        activity: String, source: String, minutes: Double, kcal: Double?, start: String, end: String, timeZone: String? = nil,
        energyAsStatistics: Bool = false
    ) -> Int {
        let at = line
        var text = " <Workout workoutActivityType=\"\(activity)\" duration=\"\(minutes)\" durationUnit=\"min\""
        if let kcal, !energyAsStatistics { text += " totalEnergyBurned=\"\(kcal)\" totalEnergyBurnedUnit=\"kcal\"" }
        text += " sourceName=\"\(escaped(source))\" sourceVersion=\"10.4\" creationDate=\"\(end)\" startDate=\"\(start)\" endDate=\"\(end)\">\n"
        if let timeZone { text += "  <MetadataEntry key=\"HKTimeZone\" value=\"\(escaped(timeZone))\"/>\n" }
        text += "  <MetadataEntry key=\"HKIndoorWorkout\" value=\"0\"/>\n"
        if let kcal, energyAsStatistics {
            text += "  <WorkoutStatistics type=\"HKQuantityTypeIdentifierActiveEnergyBurned\" startDate=\"\(start)\" endDate=\"\(end)\" sum=\"\(kcal)\" unit=\"kcal\"/>\n"
        }
        text += " </Workout>\n"
        write(text)
        return at
    }

    /// Raw text, for malformed parts.
    public func raw(_ text: String) { write(text) }

    /// Ends `<HealthData>` (unless `truncateAtEnd`, which leaves the file cut off) and closes it.
    public func finish(truncated: Bool = false) throws {
        if !truncated { write("</HealthData>\n") }
        flush()
        try handle.close()
    }

    /// Ten years (or `years`) of one member's data, as an iPhone and a Watch record it: per day
    /// a workout most days (some with energy as statistics, zones from `HKTimeZone`), step
    /// samples from both devices (`stepSamplesPerDay` each; the watch sees fewer steps), a
    /// weigh-in every third day, three food entries (energy, protein, carbohydrates, fat) and
    /// `heartRatePerDay` heart-rate records (not imported: they make the file as large as a
    /// real one). Stops early once `maxBytes` are written. Returns the number of days written.
    @discardableResult
    public func history(
        from first: Date, days: Int, zone: String = "Europe/Berlin", stepSamplesPerDay: Int = 24, heartRatePerDay: Int = 0,
        maxBytes: Int64 = .max
    ) -> Int {
        let activities = ["HKWorkoutActivityTypeRunning", "HKWorkoutActivityTypeCycling", "HKWorkoutActivityTypeWalking",
                          "HKWorkoutActivityTypeTraditionalStrengthTraining", "HKWorkoutActivityTypeYoga", "HKWorkoutActivityTypeSwimming"]
        for day in 0..<days {
            if bytesWritten + Int64(buffer.utf8.count) >= maxBytes { return day }
            let midnight = first.addingTimeInterval(Double(day) * 86_400)
            func at(_ hour: Double) -> (String, Date) {
                let date = midnight.addingTimeInterval(hour * 3600)
                return (Self.healthDate(date, offsetSeconds: Self.offset(zone, at: date)), date)
            }
            for sample in 0..<stepSamplesPerDay {
                let hour = 6 + Double(sample) * 16 / Double(max(1, stepSamplesPerDay))
                let (start, startDate) = at(hour)
                let end = Self.healthDate(startDate.addingTimeInterval(600), offsetSeconds: Self.offset(zone, at: startDate))
                record(type: "HKQuantityTypeIdentifierStepCount", source: "Anna's iPhone", unit: "count", value: String(150 + (day * 7 + sample * 13) % 400), start: start, end: end)
                record(type: "HKQuantityTypeIdentifierStepCount", source: "Anna's Apple Watch", unit: "count", value: String(120 + (day * 5 + sample * 11) % 380), start: start, end: end)
            }
            for beat in 0..<heartRatePerDay {
                let (start, _) = at(Double(beat) * 24 / Double(heartRatePerDay))
                record(type: "HKQuantityTypeIdentifierHeartRate", source: "Anna's Apple Watch", unit: "count/min", value: String(60 + (beat * 7 + day) % 60), start: start, end: start)
            }
            if day % 3 == 0 {
                let (start, _) = at(7)
                record(type: "HKQuantityTypeIdentifierBodyMass", source: "Scale", unit: "kg", value: String(format: "%.1f", 72 + Double((day * 37) % 50) / 10 - 2.5), start: start, end: start)
            }
            for (meal, hour) in [(0, 8.0), (1, 12.5), (2, 19.0)] {
                let (start, _) = at(hour)
                let food = ["Porridge", "Pasta salad", "Curry"][meal]
                let metadata = [("HKFoodType", food)]
                record(type: "HKQuantityTypeIdentifierDietaryEnergyConsumed", source: "MyFitnessPal", unit: "kcal", value: String(350 + (day + meal * 90) % 400), start: start, end: start, metadata: metadata)
                record(type: "HKQuantityTypeIdentifierDietaryProtein", source: "MyFitnessPal", unit: "g", value: String(10 + (day + meal) % 30), start: start, end: start, metadata: metadata)
                record(type: "HKQuantityTypeIdentifierDietaryCarbohydrates", source: "MyFitnessPal", unit: "g", value: String(40 + (day * 3 + meal) % 50), start: start, end: start, metadata: metadata)
                record(type: "HKQuantityTypeIdentifierDietaryFatTotal", source: "MyFitnessPal", unit: "g", value: String(5 + (day + meal * 2) % 25), start: start, end: start, metadata: metadata)
            }
            if day % 7 != 6 {
                let (start, startDate) = at(17.5)
                let minutes = Double(20 + (day * 11) % 60)
                let end = Self.healthDate(startDate.addingTimeInterval(minutes * 60), offsetSeconds: Self.offset(zone, at: startDate))
                workout(
                    activity: activities[day % activities.count], source: "Anna's Apple Watch", minutes: minutes, kcal: Double(150 + (day * 17) % 450),
                    start: start, end: end, timeZone: day % 2 == 0 ? zone : nil, energyAsStatistics: day % 4 == 1)
            }
        }
        return days
    }
}
