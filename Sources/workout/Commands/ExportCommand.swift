import ArgumentParser
import Foundation
import WorkoutClient

/// `workout export`: all one's data, as one JSON object or one CSV table.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export all your data: profile, totals, workouts, meals with food items, weigh-ins, steps, achievements.",
        discussion: """
            JSON: one object with the keys profile, totals, workouts, meals, weights, steps, \
            achievements, revision and exportedAt (the records as --json shows them elsewhere).

            CSV (RFC 4180, CRLF line ends, a header row): one row per record, its kind in the first \
            column: profile, totals, workout, meal, food_item (parent_id = its meal's id), weight, \
            steps, achievement. Columns: \(ExportDocument.csvColumns.joined(separator: ",")). Times \
            are ISO 8601 in UTC; see Sources/workout/README.md for which column holds what for each kind.
            """)

    /// The file formats.
    enum FileFormat: String, ExpressibleByArgument, CaseIterable {
        /// One JSON object.
        case json
        /// One CSV table, a row per record.
        case csv
    }

    @Option(help: "json or csv.")
    var format: FileFormat = .json

    @Option(name: [.short, .long], help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    @OptionGroup var options: OutputOptions

    /// What `--json` prints when the export went to a file.
    struct Report: Encodable {
        /// The file written.
        var file: String
        /// `json` or `csv`.
        var format: String
        /// Its size.
        var bytes: Int
        /// How many records of each kind it holds.
        var workouts: Int
        var meals: Int
        var weights: Int
        var steps: Int
        var achievements: Int
    }

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let document = try await session.run("export your data") { client throws(WorkoutError) in
            var document = ExportDocument()
            do {
                for try await chunk in client.export() { document.merge(chunk) }
            } catch let error as WorkoutError {
                throw error
            } catch {
                throw WorkoutError(code: .unknown, message: "\(error)")
            }
            return document
        }
        let text: String
        if format == .json {
            do {
                text = String(decoding: try Output.exportEncoder().encode(document), as: UTF8.self) + "\n"
            } catch {
                throw CLIError(.failure, "cannot encode the export as JSON: \(error)")
            }
        } else {
            text = document.csv()
        }
        guard let output else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw CLIError(.failure, "cannot write \(output): \(error.localizedDescription)")
        }
        if options.json {
            try Output.printJSON(Report(
                file: output, format: format.rawValue, bytes: text.utf8.count, workouts: document.workouts.count,
                meals: document.meals.count, weights: document.weights.count, steps: document.steps.count,
                achievements: document.achievements.count))
        } else {
            Output.line("Exported \(document.summary) to \(output) (\(format.rawValue), \(Format.count(text.utf8.count, "byte"))).")
        }
    }
}
