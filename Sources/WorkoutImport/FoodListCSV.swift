public import Foundation
public import WorkoutClient

/// A food list in a CSV file (a household's own spreadsheet, or one exported from another
/// app) read into library foods for `WorkoutClient.addFoods(_:)`.
///
/// The first row names the columns, in any order and case: `name` (required), `brand`,
/// `barcode`, `kcal` (or `calories`; required), `protein`, `carbs`, `fat` (all per 100 g) and
/// `servings` (`slice=30; pot=170`: names and grams, the first the default). Every food gets an
/// id derived from its name, brand and barcode (``ImportRecordID``), so importing a list again
/// adds nothing twice, and a food kept in the list under the same name with new figures is
/// reported by the server (`ALREADY_EXISTS`) rather than added again.
public enum FoodListCSV {
    /// The namespace of ids derived from food lists.
    public static let namespace = UUID(uuidString: "6B0E2A52-4C1D-4F7B-9E55-2F3C6D1A8B03")!
    /// The most foods one file may hold.
    public static let maxFoods = 50_000

    /// A line of the file that cannot be read as a food.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The line (from 1) the row starts on.
        public var line: Int
        /// What is wrong, in the file's terms (its column names).
        public var reason: String

        public var description: String { "line \(line): \(reason)" }
    }

    /// Reads every food of the file at `path`.
    ///
    /// - Throws: ``Problem`` for the first row that is not a food (naming its line and column);
    ///   the file's own error when it cannot be opened.
    public static func read(path: String) throws -> [Food] {
        guard let stream = InputStream(fileAtPath: path), FileManager.default.isReadableFile(atPath: path) else {
            throw Problem(line: 0, reason: "cannot read \(path)")
        }
        return try read(stream)
    }

    /// Reads every food of a CSV stream (see ``read(path:)``).
    public static func read(_ stream: InputStream) throws -> [Food] {
        var reader = CSVRecordReader(stream: stream)
        guard let first = reader.next() else { throw Problem(line: 1, reason: "the file is empty; its first row names the columns") }
        let header = try first.get().fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        func column(_ names: String...) -> Int? { header.firstIndex { names.contains($0) } }
        guard let nameColumn = column("name", "food") else { throw Problem(line: 1, reason: "no column named name (the first row names the columns)") }
        guard let kcalColumn = column("kcal", "calories", "energy") else { throw Problem(line: 1, reason: "no column named kcal or calories (per 100 g)") }
        let brandColumn = column("brand"), barcodeColumn = column("barcode", "ean", "upc")
        let proteinColumn = column("protein", "protein_g"), carbsColumn = column("carbs", "carbohydrates", "carbs_g"), fatColumn = column("fat", "fat_g")
        let servingsColumn = column("servings", "serving")
        var foods: [Food] = []
        while let next = reader.next() {
            let record: CSVRecordReader.Record
            do { record = try next.get() } catch { throw Problem(line: error.line, reason: error.reason) }
            let fields = record.fields
            if fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            func text(_ index: Int?) -> String { index.flatMap { $0 < fields.count ? fields[$0].trimmingCharacters(in: .whitespaces) : nil } ?? "" }
            func number(_ index: Int?, _ name: String, required: Bool = false) throws -> Double {
                let value = text(index)
                if value.isEmpty {
                    if required { throw Problem(line: record.line, reason: "\(name) is empty") }
                    return 0
                }
                guard let number = Double(value.replacingOccurrences(of: ",", with: ".")), number.isFinite else {
                    throw Problem(line: record.line, reason: "\(name) is not a number (\"\(value.prefix(20))\")")
                }
                return number
            }
            guard foods.count < maxFoods else { throw Problem(line: record.line, reason: "the file holds more than \(maxFoods) foods; split it") }
            let name = text(nameColumn)
            guard !name.isEmpty else { throw Problem(line: record.line, reason: "name is empty") }
            let brand = text(brandColumn), barcode = text(barcodeColumn)
            var servings: [Serving] = []
            for part in text(servingsColumn).split(separator: ";") where !part.trimmingCharacters(in: .whitespaces).isEmpty {
                let pieces = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pieces.count == 2, !pieces[0].isEmpty, let grams = Double(pieces[1].replacingOccurrences(of: ",", with: ".").replacingOccurrences(of: "g", with: "")), grams.isFinite else {
                    throw Problem(line: record.line, reason: "servings must be name=grams, separated by ; (got \"\(part.prefix(40))\")")
                }
                servings.append(Serving(name: pieces[0], grams: grams))
            }
            let per100g = Nutrients(
                calories: try number(kcalColumn, header[kcalColumn], required: true), proteinG: try number(proteinColumn, "protein"),
                carbsG: try number(carbsColumn, "carbs"), fatG: try number(fatColumn, "fat"))
            let id = ImportRecordID.derived(namespace: namespace, name: "food|\(name)|\(brand)|\(barcode)")
            foods.append(Food(id: id, name: name, brand: brand, barcode: barcode, per100g: per100g, servings: servings))
        }
        return foods
    }
}
