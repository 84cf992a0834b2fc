import Foundation
import WorkoutClient

/// The CSV for spreadsheets: each kind's rows come after a header line for that kind, and
/// every row names its kind in its first cell, so a sheet can sort and filter them.
///
/// ```csv
/// #workout,time,type,minutes,calories,exercises,time_zone,notes
/// workout,2024-03-10 07:30,running,30,280,,Europe/Berlin,Park run
/// #meal,time,type,name,food,calories,protein_g,carbs_g,fat_g,servings
/// meal,2024-03-10 08:00,breakfast,Porridge,oats,380,13,60,7,
/// meal,2024-03-10 08:00,breakfast,Porridge,banana,105,1,27,0,
/// #weight,time,kg
/// weight,2024-03-10 07:00,72.4
/// #steps,day,steps,source
/// steps,2024-03-10,8500,phone
/// ```
///
/// | kind | required columns | optional columns |
/// |---|---|---|
/// | `workout` | `time`, `type`, `minutes` or `duration_seconds` | `calories`, `exercises`, `time_zone`, `notes`, `id` |
/// | `meal` (one row per food item; rows in a row with the same time, type and name are one meal) | `time`, `type` (breakfast, lunch, dinner, snack, other) | `name`, `food`, `calories`, `protein_g`, `carbs_g`, `fat_g`, `servings`, `time_zone`, `id` |
/// | `weight` | `time`, `kg` or `lb` | `time_zone`, `note`, `id` |
/// | `steps` | `day`, `steps` | `source` (default `spreadsheet`) |
///
/// A food row's figures are per serving: with `servings` (0.01 to 100), the item imported
/// holds them multiplied by it (the wire's figures are for the portion eaten, the servings
/// kept beside them), so `banana,105,…,1.5` counts 157.5 kcal.
///
/// Times: `2024-03-10 07:30` (or with `T`, with seconds) in the row's `time_zone`, else the
/// importer's zone; or ISO 8601 with an offset. Records are logged in the row's `time_zone`,
/// else the importer's. A row without an `id` (a UUID) gets one derived from its cells, so
/// the same sheet imported again stores nothing twice.
struct SpreadsheetCSVSource: ImportSource {
    /// The file.
    let path: String
    /// The zone of times without an offset, and of records without a `time_zone` cell.
    let defaultTimeZone: TimeZone

    var totalBytes: Int64? { ImportSources.size(of: path) }

    /// A meal whose food rows are still coming.
    private struct PendingMeal {
        var key: [String]
        var meal: Meal
        var line: Int
        var givenID: UUID?
        var name: String
    }

    func read(progress: ImportByteCounter, _ body: (ImportEvent) throws -> Void) throws {
        let stream = ImportFileStream(path: path, counter: progress)
        var reader = CSVRecordReader(stream: stream)
        var headers: [String: [String: Int]] = [:]
        var pending: PendingMeal?

        func deliver(_ record: ImportRecord, line: Int) throws {
            if let problem = RecordChecks.problem(with: record) {
                try body(.skipped(ImportIssue(line: line, kind: record.kind, reason: problem)))
            } else {
                try body(.record(record, location: "line \(line)"))
            }
        }
        func flushMeal() throws {
            guard var meal = pending else { return }
            pending = nil
            meal.meal.id = meal.givenID ?? ImportRecordID.derived(
                namespace: ImportRecordID.spreadsheet,
                name: "meal|" + meal.name + "|" + meal.meal.items.map { "\($0.name)|\($0.calories)|\($0.proteinG)|\($0.carbsG)|\($0.fatG)|\($0.servings ?? 0)" }.joined(separator: "|"))
            meal.meal.totals = NutritionTotals(summing: meal.meal.items)
            try deliver(.meal(meal.meal), line: meal.line)
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
            guard let first = row.fields.first?.trimmingCharacters(in: .whitespaces), !row.fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) else { continue }
            if first.hasPrefix("#") {
                try flushMeal()
                let kind = String(first.dropFirst())
                guard ImportKind(rawValue: kind) != nil else {
                    try body(.skipped(ImportIssue(line: row.line, reason: "a header for the unknown kind \"\(kind)\" (workout, meal, weight, steps)")))
                    continue
                }
                headers[kind] = Dictionary(
                    row.fields.enumerated().map { ($1.trimmingCharacters(in: .whitespaces).lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
                continue
            }
            guard let kind = ImportKind(rawValue: first) else {
                try flushMeal()
                try body(.skipped(ImportIssue(line: row.line, reason: "the first cell \"\(first)\" is not a kind (workout, meal, weight, steps) or a header (#workout, …)")))
                continue
            }
            guard let columns = headers[first] else {
                try flushMeal()
                try body(.skipped(ImportIssue(line: row.line, kind: kind, reason: "a \(first) row before any #\(first) header line")))
                continue
            }
            var cells = CSVRow(fields: row.fields, columns: columns, line: row.line)
            cells.kind = kind
            do {
                let zoneName = cells.optional("time_zone")
                let zone = try zoneName.map { name -> TimeZone in
                    guard let zone = TimeZone(identifier: name) else { throw cells.problem("time_zone", "not a time zone") }
                    return zone
                } ?? defaultTimeZone
                let recordZone = zoneName ?? defaultTimeZone.identifier
                let givenID = try cells.optional("id").map { _ in try cells.id("id") }
                func derived(_ columns: [String]) -> UUID {
                    givenID ?? ImportRecordID.derived(
                        namespace: ImportRecordID.spreadsheet, name: ([first] + columns.map { cells[$0] }).joined(separator: "|"))
                }
                if kind != .meal { try flushMeal() }
                switch kind {
                case .workout:
                    guard !cells["type"].isEmpty else { throw cells.problem("type", "the workout type is missing") }
                    let seconds: Int
                    if cells.optional("duration_seconds") != nil {
                        seconds = try cells.integer("duration_seconds")
                    } else {
                        let minutes = try cells.number("minutes")
                        guard minutes >= 0, minutes < 1e7 else { throw cells.problem("minutes", "not a duration") }
                        seconds = Int((minutes * 60).rounded())
                    }
                    let workout = Workout(
                        id: derived(["time", "type", "minutes", "duration_seconds", "calories", "exercises", "time_zone", "notes"]),
                        type: cells["type"], durationSeconds: seconds, caloriesBurned: try cells.number("calories", default: 0),
                        exercisesCompleted: try cells.integer("exercises", default: 0), performedAt: try cells.time("time", zone: zone),
                        timeZone: recordZone, notes: cells["notes"])
                    try deliver(.workout(workout), line: row.line)
                case .meal:
                    guard let type = MealType(rawValue: cells["type"].lowercased()) else {
                        throw cells.problem("type", "not a meal type (breakfast, lunch, dinner, snack, other)")
                    }
                    let time = try cells.time("time", zone: zone)
                    let key = [cells["time"], cells["type"], cells["name"], cells["time_zone"], cells["id"]]
                    if pending?.key != key { try flushMeal() }
                    var item: FoodItem?
                    if cells.optional("food") != nil || cells.optional("calories") != nil {
                        let name = cells.optional("food") ?? cells.optional("name") ?? "food"
                        // A sheet's figures are per serving; the wire's are for the portion eaten.
                        let servings = try cells.optional("servings").map { _ in try cells.number("servings") }
                        let portion = servings ?? 1
                        item = FoodItem(
                            name: name, calories: try cells.number("calories", default: 0) * portion,
                            proteinG: try cells.number("protein_g", default: 0) * portion,
                            carbsG: try cells.number("carbs_g", default: 0) * portion, fatG: try cells.number("fat_g", default: 0) * portion,
                            servings: servings)
                    }
                    if pending == nil {
                        pending = PendingMeal(
                            key: key, meal: Meal(mealType: type, eatenAt: time, timeZone: recordZone, name: cells["name"]), line: row.line,
                            givenID: givenID, name: ([first] + ["time", "type", "name", "time_zone"].map { cells[$0] }).joined(separator: "|"))
                    }
                    if let item { pending?.meal.items.append(item) }
                case .weight:
                    let kilograms: Double
                    if cells.optional("kg") != nil {
                        kilograms = try cells.number("kg")
                    } else {
                        kilograms = (try cells.number("lb") * 0.45359237 * 1_000).rounded() / 1_000
                    }
                    let entry = WeightEntry(
                        id: derived(["time", "kg", "lb", "time_zone", "note"]), weightKg: kilograms, measuredAt: try cells.time("time", zone: zone),
                        timeZone: recordZone, note: cells["note"])
                    try deliver(.weight(entry), line: row.line)
                case .steps:
                    guard let day = LocalDate(cells["day"]) else { throw cells.problem("day", "not a day YYYY-MM-DD") }
                    let steps = try cells.integer("steps")
                    let reportedAt = Date(timeIntervalSince1970: Double(day.epochDay) * 86_400 + 43_200)
                    try deliver(.steps(StepsReport(day: day, source: cells.optional("source") ?? "spreadsheet", steps: steps, reportedAt: reportedAt)), line: row.line)
                }
            } catch let issue as ImportIssue {
                if kind == .meal { try flushMeal() }
                try body(.skipped(issue))
            }
        }
        try flushMeal()
        if let error = stream.readError { throw ImportSourceError("cannot read \(path): \(error)") }
    }
}
