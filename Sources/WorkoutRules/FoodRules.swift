// FoodRules: the household food library's rules: a food's bounds, barcodes by their check
// digit, the words a food is found by, and a portion's figures from the food's per 100 g.

import Foundation

/// The bounds of a food's fields, in people's units.
package enum FoodLimits {
    /// A food's name, UTF-8 bytes.
    package static let nameBytes = 1...128
    /// A brand, UTF-8 bytes.
    package static let brandBytes = 0...64
    /// kcal per 100 g (pure fat has 900).
    package static let caloriesPer100g: ClosedRange<Double> = 0...900
    /// Grams of a nutrient per 100 g.
    package static let gramsPer100g: ClosedRange<Double> = 0...100
    /// The most named servings of a food.
    package static let mostServings = 10
    /// A serving's name, UTF-8 bytes.
    package static let servingNameBytes = 1...32
    /// A serving's (or a portion's) weight, grams.
    package static let portionGrams: ClosedRange<Double> = 0.1...5_000
    /// Servings in one portion.
    package static let portionServings: ClosedRange<Double> = 0.01...100
    /// The most foods one AddFoods call adds.
    package static let mostFoodsPerCall = 500
    /// A search query, UTF-8 bytes.
    package static let queryBytes = 1...64
    /// The most words a query may have.
    package static let mostQueryWords = 8
}

/// Barcodes (GTIN: EAN-8, UPC-A, EAN-13, GTIN-14), kept as text and checked by their check digit.
package enum Barcode {
    /// The lengths of the barcodes accepted, in digits.
    package static let lengths: Set<Int> = [8, 12, 13, 14]

    /// The check digit of a GTIN's other digits: weights 3 and 1 alternate from the digit next
    /// to the check digit, and the check digit brings the sum to a multiple of 10.
    package static func checkDigit(of digits: some Collection<UInt8>) -> UInt8 {
        var sum = 0
        for (index, digit) in digits.reversed().enumerated() { sum += Int(digit) * (index % 2 == 0 ? 3 : 1) }
        return UInt8((10 - sum % 10) % 10)
    }

    /// Checks a barcode as typed.
    ///
    /// - Parameters:
    ///   - text: The barcode, digits only.
    ///   - field: The request field, e.g. `foods[2].barcode`.
    /// - Throws: `DomainError.invalid` naming the field: not digits, a length that is no
    ///   barcode's, or a wrong check digit (saying which digit the others call for).
    package static func check(_ text: String, field: String) throws(DomainError) {
        let digits = text.utf8.map { $0 &- UInt8(ascii: "0") }
        guard !digits.isEmpty, digits.allSatisfy({ $0 <= 9 }) else {
            throw .invalid(field, "\(field) must be the barcode's digits only, 8, 12, 13 or 14 of them (got \"\(text.prefix(20))\")")
        }
        guard lengths.contains(digits.count) else {
            throw .invalid(field, "\(field) must have 8 (EAN-8), 12 (UPC-A), 13 (EAN-13) or 14 (GTIN-14) digits (got \(digits.count))")
        }
        let expected = checkDigit(of: digits.dropLast())
        guard digits.last == expected else {
            throw .invalid(field, "\(field) \(text) has a wrong check digit: its last digit is \(digits.last!), the others call for \(expected); check the number on the pack")
        }
    }
}

/// The words a food is found by, and a query's.
package enum FoodWords {
    /// The most bytes of one word that count (longer words are found by their first 32 bytes).
    package static let wordBytes = 32

    /// The distinct words of `text`: letters and digits, lower-cased without accents
    /// ("Crème Fraîche" → "creme", "fraiche"), in order of first appearance.
    package static func words(of text: String) -> [String] {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
        var seen: Set<String> = []
        var words: [String] = []
        for part in folded.split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
            var word = String(part)
            if word.utf8.count > wordBytes { word = truncated(word) }
            if seen.insert(word).inserted { words.append(word) }
        }
        return words
    }

    /// The words a food is indexed under: those of its name and its brand.
    package static func indexWords(name: String, brand: String) -> [String] {
        var words = words(of: name)
        for word in self.words(of: brand) where !words.contains(word) { words.append(word) }
        return words
    }

    /// Whether every query word starts one of `words`.
    package static func matches(query: [String], words: [String]) -> Bool {
        query.allSatisfy { prefix in words.contains { $0.hasPrefix(prefix) } }
    }

    private static func truncated(_ word: String) -> String {
        var result = ""
        for character in word {
            guard result.utf8.count + String(character).utf8.count <= wordBytes else { break }
            result.append(character)
        }
        return result
    }
}

/// A portion's figures from a food's per 100 g.
package struct Portion: Equatable, Sendable {
    /// kcal.
    package var calories: Double
    /// Protein, grams.
    package var proteinG: Double
    /// Carbohydrates, grams.
    package var carbsG: Double
    /// Fat, grams.
    package var fatG: Double

    /// `grams` of a food with these figures per 100 g.
    package init(grams: Double, caloriesPer100g: Double, proteinPer100g: Double, carbsPer100g: Double, fatPer100g: Double) {
        let share = grams / 100
        calories = caloriesPer100g * share
        proteinG = proteinPer100g * share
        carbsG = carbsPer100g * share
        fatG = fatPer100g * share
    }
}
