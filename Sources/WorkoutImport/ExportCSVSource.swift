import Foundation
import WorkoutClient

/// What `workout export --format csv` writes, brought back in, row by row as a stream:
/// `workout`, `meal` with the `food_item` rows after it, `weight`, and `steps` (one report per
/// source its `note` lists: `phone=8500; watch=8000`), with the ids and times the rows hold.
/// `profile`, `totals` and `achievement` rows are not imported: the server computes them from
/// the records. A `time_zone` column (written by exports since the import came) keeps each
/// record's zone; without it, records take the member's profile zone.
struct ExportCSVSource: ImportSource {
    /// The file.
    let path: String

    var totalBytes: Int64? { ImportSources.size(of: path) }

    private static let utc = TimeZone(identifier: "UTC")!

    func read(progress: ImportByteCounter, _ body: (ImportEvent) throws -> Void) throws {
        let stream = ImportFileStream(path: path, counter: progress)
        var reader = CSVRecordReader(stream: stream)
        guard case .success(let header)? = reader.next(), header.fields.first == "kind" else {
            throw ImportSourceError("\(path) is not a `workout export --format csv` file (its first line is not the export's header)")
        }
        let columns = Dictionary(header.fields.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var pendingMeal: (meal: Meal, line: Int)?
        var computed: [String: Int] = [:]

        func flushMeal() throws {
            guard let (meal, line) = pendingMeal else { return }
            pendingMeal = nil
            try deliver(.meal(meal), line: line)
        }
        func deliver(_ record: ImportRecord, line: Int) throws {
            if let problem = RecordChecks.problem(with: record) {
                try body(.skipped(ImportIssue(line: line, kind: record.kind, reason: problem)))
            } else {
                try body(.record(record, location: "line \(line)"))
            }
        }

        while let next = reader.next() {
            let row: CSVRecordReader.Record
            switch next {
            case .failure(let malformed):
                try flushMeal()
                try body(.skipped(ImportIssue(line: malformed.line, reason: malformed.reason)))
                continue
            case .success(let record): row = record
            }
            if row.fields.allSatisfy(\.isEmpty) { continue }
            let cells = CSVRow(fields: row.fields, columns: columns, line: row.line)
            let kind = cells["kind"]
            if kind != "food_item" { try flushMeal() }
            do {
                switch kind {
                case "workout":
                    var workout = Workout(
                        id: try cells.id("id"), type: cells["type"], durationSeconds: try cells.integer("duration_seconds"),
                        caloriesBurned: try cells.number("calories", default: 0), exercisesCompleted: try cells.integer("exercises", default: 0),
                        performedAt: try cells.time("time", zone: Self.utc), timeZone: cells.optional("time_zone"), notes: cells["note"])
                    // The detail columns (files exported before them have none).
                    if cells.optional("distance_m") != nil { workout.distanceM = try cells.number("distance_m") }
                    if cells.optional("elevation_gain_m") != nil { workout.elevationGainM = try cells.number("elevation_gain_m") }
                    if cells.optional("average_heart_rate") != nil { workout.averageHeartRate = try cells.integer("average_heart_rate") }
                    if cells.optional("max_heart_rate") != nil { workout.maxHeartRate = try cells.integer("max_heart_rate") }
                    if cells.optional("steps") != nil { workout.steps = try cells.integer("steps") }
                    if let written = cells.optional("location") {
                        guard let location = WorkoutLocation(rawValue: written) else { throw cells.problem("location", "not a location (indoor, outdoor, or empty)") }
                        workout.location = location
                    }
                    try deliver(.workout(workout), line: row.line)
                case "meal":
                    guard let type = MealType(rawValue: cells["type"]) else { throw cells.problem("type", "not a meal type (breakfast, lunch, dinner, snack, other)") }
                    let meal = Meal(
                        id: try cells.id("id"), mealType: type, eatenAt: try cells.time("time", zone: Self.utc),
                        timeZone: cells.optional("time_zone"), name: cells["name"])
                    pendingMeal = (meal, row.line)
                case "food_item":
                    guard case (var meal, let line)? = pendingMeal, cells["parent_id"].lowercased() == meal.id.uuidString.lowercased() else {
                        throw ImportIssue(line: row.line, kind: .meal, reason: "a food item that does not follow its meal (parent_id \(cells["parent_id"]))")
                    }
                    meal.items.append(FoodItem(
                        name: cells["name"], calories: try cells.number("calories", default: 0), proteinG: try cells.number("protein_g", default: 0),
                        carbsG: try cells.number("carbs_g", default: 0), fatG: try cells.number("fat_g", default: 0),
                        servings: cells.optional("amount").flatMap(Double.init)))
                    meal.totals = NutritionTotals(summing: meal.items)
                    pendingMeal = (meal, line)
                case "weight":
                    let entry = WeightEntry(
                        id: try cells.id("id"), weightKg: try cells.number("amount"), measuredAt: try cells.time("time", zone: Self.utc),
                        timeZone: cells.optional("time_zone"), note: cells["note"])
                    try deliver(.weight(entry), line: row.line)
                case "steps":
                    guard let day = LocalDate(cells["day"]) else { throw cells.problem("day", "not a day YYYY-MM-DD") }
                    // Noon of the day, UTC: the export keeps no report times; the same file
                    // gives the same reports.
                    let reportedAt = Date(timeIntervalSince1970: Double(day.epochDay) * 86_400 + 43_200)
                    var sources: [(String, Int)] = []
                    for part in cells["note"].split(separator: ";") {
                        let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                        guard pair.count == 2, let steps = Int(pair[1]) else { throw cells.problem("note", "not a list of source=steps") }
                        sources.append((pair[0], steps))
                    }
                    if sources.isEmpty { sources = [("export", try cells.integer("amount"))] }
                    for (source, steps) in sources {
                        try deliver(.steps(StepsReport(day: day, source: source, steps: steps, reportedAt: reportedAt)), line: row.line)
                    }
                case "profile", "totals", "achievement":
                    computed[kind, default: 0] += 1
                default:
                    throw ImportIssue(line: row.line, reason: "unknown kind \"\(kind)\"")
                }
            } catch let issue as ImportIssue {
                try body(.skipped(issue))
            }
        }
        try flushMeal()
        if let error = stream.readError { throw ImportSourceError("cannot read \(path): \(error)") }
        for (kind, count) in computed.sorted(by: { $0.key < $1.key }) {
            try body(.skipped(ImportIssue(
                location: "\(count) \(kind) row\(count == 1 ? "" : "s")", reason: "computed by the server from the records, not imported")))
        }
    }
}

/// One CSV row's cells by column name, with conversions that fail as an ``ImportIssue``
/// naming the line and the column.
struct CSVRow {
    var fields: [String]
    var columns: [String: Int]
    var line: Int
    var kind: ImportKind? = nil

    /// The cell of `column`, trimmed; empty when the row or the header has none.
    subscript(_ column: String) -> String {
        guard let index = columns[column], index < fields.count else { return "" }
        return fields[index].trimmingCharacters(in: .whitespaces)
    }

    /// The cell, or `nil` when empty.
    func optional(_ column: String) -> String? {
        let value = self[column]
        return value.isEmpty ? nil : value
    }

    /// An issue about `column`'s cell.
    func problem(_ column: String, _ reason: String) -> ImportIssue {
        ImportIssue(line: line, kind: kind, reason: "\(column) \"\(self[column])\": \(reason)")
    }

    func id(_ column: String) throws -> UUID {
        guard let id = UUID(uuidString: self[column]) else { throw problem(column, "not an id (a UUID)") }
        return id
    }

    func number(_ column: String, default value: Double? = nil) throws -> Double {
        let text = self[column]
        if text.isEmpty, let value { return value }
        guard let number = Double(text), number.isFinite else { throw problem(column, "not a number") }
        return number
    }

    func integer(_ column: String, default value: Int? = nil) throws -> Int {
        let text = self[column]
        if text.isEmpty, let value { return value }
        guard let number = Int(text) else { throw problem(column, "not a whole number") }
        return number
    }

    func time(_ column: String, zone: TimeZone) throws -> Date {
        guard let date = ImportTime.parse(self[column], zone: zone) else {
            throw problem(column, "not a time (2025-06-01T07:30:00Z, 2025-06-01T07:30:00+02:00 or 2025-06-01 07:30)")
        }
        return date
    }
}
