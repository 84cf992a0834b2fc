import ArgumentParser
import Foundation
import WorkoutClient

/// A food of the library and how much of it, as `workout log meal --food` takes it:
/// `NAME=150g` (grams), `NAME=2x` or `NAME=2` (servings of its first serving), or
/// `NAME=2 slice` (servings of the serving named). NAME is looked up in the library.
struct FoodAmountArgument: Equatable, Sendable {
    /// What to look the food up by (its name, or words of it).
    var query: String
    /// The amount.
    var amount: Amount

    /// How much.
    enum Amount: Equatable, Sendable {
        /// Grams.
        case grams(Double)
        /// Servings, of the serving named (`nil`: the food's first).
        case servings(Double, serving: String?)
    }

    /// Parses a `--food` value.
    ///
    /// - Throws: `ValidationError` naming the accepted forms.
    static func parse(_ text: String) throws -> FoodAmountArgument {
        let forms = "expected NAME=150g, NAME=2x or NAME=2 slice (a food of the library and an amount)"
        guard let equals = text.lastIndex(of: "=") else { throw ValidationError(forms) }
        let query = text[..<equals].trimmingCharacters(in: .whitespaces)
        var amount = text[text.index(after: equals)...].trimmingCharacters(in: .whitespaces).lowercased()
        guard !query.isEmpty, !amount.isEmpty else { throw ValidationError(forms) }
        if amount.hasSuffix("g"), let grams = Double(amount.dropLast().trimmingCharacters(in: .whitespaces)), grams.isFinite {
            return FoodAmountArgument(query: query, amount: .grams(grams))
        }
        if amount.hasSuffix("x") { amount.removeLast() }
        let parts = amount.split(separator: " ", maxSplits: 1).map(String.init)
        guard let count = parts.first.flatMap(Double.init), count.isFinite else { throw ValidationError(forms) }
        let serving = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
        return FoodAmountArgument(query: query, amount: .servings(count, serving: serving.flatMap { ["serving", "servings"].contains($0) ? nil : $0 }))
    }

    /// The library food meant: the one whose name (or "name, brand") is the query, else the
    /// only match.
    ///
    /// - Throws: ``CLIError`` not found for no match; usage for several, naming them.
    func resolve(in matches: [Food]) throws(CLIError) -> Food {
        let wanted = query.lowercased()
        if let exact = matches.first(where: { $0.name.lowercased() == wanted || "\($0.name), \($0.brand)".lowercased() == wanted }) {
            return exact
        }
        guard matches.count != 1 else { return matches[0] }
        guard !matches.isEmpty else {
            throw CLIError(.notFound, "not found: no food of the library matches \"\(query)\"; add it with `workout foods add`")
        }
        let names = matches.prefix(5).map { "\"\($0.brand.isEmpty ? $0.name : "\($0.name), \($0.brand)")\"" }.joined(separator: ", ")
        throw CLIError(.usage, "\"\(query)\" matches several foods (\(names)\(matches.count > 5 ? ", …" : "")); give the whole name")
    }

    /// The meal item for `food`.
    func item(from food: Food) -> FoodItem {
        switch amount {
        case .grams(let grams): FoodItem.from(food: food.id, grams: grams)
        case .servings(let count, let serving): FoodItem.from(food: food.id, servings: count, serving: serving)
        }
    }
}
