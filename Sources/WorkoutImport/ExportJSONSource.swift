import Foundation
import WorkoutClient

/// What `workout export --format json` writes, brought back in: its workouts, meals (with
/// their items), weigh-ins and every source's steps report, with the ids and times they had,
/// so export → import into a fresh account gives the same records, and from them the same
/// totals and achievements. The profile, the totals and the achievements in the file are not
/// imported: the server computes them from the records.
///
/// **Memory.** A JSON document is decoded whole: memory grows with the file (ten years of one
/// member's export is some tens of MB). The CSV export is read as a stream.
struct ExportJSONSource: ImportSource {
    /// The file.
    let path: String

    var totalBytes: Int64? { ImportSources.size(of: path) }

    /// A record that failed to decode stays one failure, not the whole document's.
    private struct Lenient<Value: Decodable>: Decodable {
        var result: Result<Value, any Error>
        init(from decoder: any Decoder) throws {
            result = Result { try Value(from: decoder) }
        }
    }

    private struct Document: Decodable {
        var workouts: [Lenient<Workout>]?
        var meals: [Lenient<Meal>]?
        var weights: [Lenient<WeightEntry>]?
        var steps: [Lenient<StepsDay>]?
    }

    func read(progress: ImportByteCounter, _ body: (ImportEvent) throws -> Void) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ImportSourceError("cannot read \(path): \(error.localizedDescription)")
        }
        progress.add(data.count)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = ImportTime.parse(text, zone: TimeZone(identifier: "UTC")!) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an ISO 8601 time: \(text)"))
            }
            return date
        }
        let document: Document
        do {
            document = try decoder.decode(Document.self, from: data)
        } catch {
            throw ImportSourceError("\(path) is not a `workout export --format json` file: \(Self.describe(error))")
        }
        func each<Value>(_ list: [Lenient<Value>]?, _ name: String, _ kind: ImportKind, _ records: (Value) -> [ImportRecord]) throws {
            for (index, item) in (list ?? []).enumerated() {
                let location = "\(name)[\(index)]"
                switch item.result {
                case .success(let value):
                    for record in records(value) {
                        if let problem = RecordChecks.problem(with: record) {
                            try body(.skipped(ImportIssue(location: location, kind: kind, reason: problem)))
                        } else {
                            try body(.record(record, location: location))
                        }
                    }
                case .failure(let error):
                    try body(.skipped(ImportIssue(location: location, kind: kind, reason: Self.describe(error))))
                }
            }
        }
        try each(document.workouts, "workouts", .workout) { [.workout($0)] }
        try each(document.meals, "meals", .meal) { [.meal($0)] }
        try each(document.weights, "weights", .weight) { [.weight($0)] }
        try each(document.steps, "steps", .steps) { day in
            day.sources.map { .steps(StepsReport(day: day.day, source: $0.source, steps: $0.steps, reportedAt: $0.reportedAt)) }
        }
    }

    /// A decoding error in a few words: what is wrong and where.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context)).\(key.stringValue) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(path(context)): \(context.debugDescription)"
        case .dataCorrupted(let context): return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
