import ArgumentParser
import Foundation
import WorkoutClient
import WorkoutImport

/// `workout foods import`: adds a food list from a CSV file, 500 foods a call.
struct FoodsImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add a food list from a CSV file to the household's library.",
        discussion: """
            The first row names the columns: name and kcal (per 100 g) are required; brand, barcode, \
            protein, carbs, fat (grams per 100 g) and servings (slice=30; pot=170) are read when present. \
            Importing the same list again adds nothing twice.
            """)

    @Argument(help: ArgumentHelp("The CSV file.", valueName: "file"))
    var file: String

    @OptionGroup var output: OutputOptions

    /// What `--json` prints.
    struct Report: Encodable {
        var read: Int
        var added: Int
        var alreadyThere: Int
    }

    func run() async throws {
        let foods: [Food]
        do {
            foods = try FoodListCSV.read(path: file)
        } catch let problem as FoodListCSV.Problem {
            throw CLIError(.invalidInput, "\(file): \(problem); nothing was imported")
        }
        let session = try SignedInSession()
        defer { session.close() }
        var report = Report(read: foods.count, added: 0, alreadyThere: 0)
        var start = 0
        while start < foods.count {
            let batch = Array(foods[start..<min(start + 500, foods.count)])
            let firstLine = start
            let stored = try await session.run("add foods") { client throws(WorkoutError) in
                do throws(WorkoutError) {
                    return try await client.addFoods(batch)
                } catch {
                    // Name the food of the file, not the request's position in its batch.
                    var named = error
                    if let field = error.wireField, field.hasPrefix("foods["), let close = field.firstIndex(of: "]"),
                       let index = Int(field[field.index(field.startIndex, offsetBy: 6)..<close]), batch.indices.contains(index) {
                        named.message = "food \(firstLine + index + 1) of the file (\"\(batch[index].name)\"): \(error.message)"
                        named.field = nil
                        named.wireField = nil
                    }
                    throw named
                }
            }
            report.added += stored.foods.count - stored.alreadyStored
            start += batch.count
        }
        report.alreadyThere = report.read - report.added
        if output.json {
            try Output.printJSON(report)
        } else {
            Output.line("Imported \(Format.count(report.read, "food")) from \(file): \(report.added) added, \(report.alreadyThere) already in the library.")
        }
    }
}
