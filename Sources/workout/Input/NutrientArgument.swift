import Foundation
import ArgumentParser
import WorkoutClient

/// A nutrient target on the command line: grams (`120`, `120g`) or a share of the energy
/// target (`25%`).
enum NutrientArgument {
    /// Parses a `--protein`, `--carbs` or `--fat` value.
    ///
    /// - Throws: `ValidationError` naming the accepted forms.
    static func parse(_ text: String) throws -> NutrientTarget {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed.hasSuffix("%"), let percent = Double(trimmed.dropLast().trimmingCharacters(in: .whitespaces)), percent.isFinite {
            return .percentOfEnergy(percent)
        }
        let grams = trimmed.hasSuffix("g") ? String(trimmed.dropLast()).trimmingCharacters(in: .whitespaces) : trimmed
        guard let value = Double(grams), value.isFinite else {
            throw ValidationError("expected grams (120 or 120g) or a share of the energy target (25%)")
        }
        return .grams(value)
    }
}
