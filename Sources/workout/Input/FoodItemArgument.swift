import ArgumentParser
import WorkoutClient

/// A food item given on the command line (`--item`): `name:calories` or
/// `name:calories:protein:carbs:fat`, the macros in grams.
///
/// The name may itself contain colons: the numbers are taken from the end
/// (`"Soup: tomato:120"` is "Soup: tomato", 120 kcal), but a bare number between colons in
/// the name is refused as a miscounted macro form (`"oats:380:13:7"`). Numbers use a decimal
/// point and must be finite and not negative; the server checks the upper bounds.
enum FoodItemArgument {
    /// Parses an `--item` value.
    ///
    /// - Parameter text: What the user typed.
    /// - Returns: The food item.
    /// - Throws: `ValidationError` explaining the form.
    static func parse(_ text: String) throws(ValidationError) -> FoodItem {
        let raw = text.split(separator: ":", omittingEmptySubsequences: false)
        let parts = raw.map { $0.trimmingCharacters(in: .whitespaces) }
        let form = "expected name:calories or name:calories:protein:carbs:fat (grams), e.g. \"oats:380:13:60:7\""
        guard parts.count >= 2 else { throw ValidationError(form) }
        // Five or more parts whose last four are numbers carry the macros; else the last is calories.
        let trailing = parts.count >= 5 && parts.suffix(4).allSatisfy { Double($0) != nil } ? 4 : 1
        // A bare number inside the name means the macro form was meant, with one too few or many.
        if trailing == 1, parts.dropFirst().dropLast().contains(where: { Double($0) != nil }) {
            throw ValidationError("\(form); give calories alone or all four numbers")
        }
        let name = raw.dropLast(trailing).joined(separator: ":").trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw ValidationError("\(form); the name is missing") }
        var numbers: [Double] = []
        for (label, part) in zip(["calories", "protein", "carbs", "fat"], parts.suffix(trailing)) {
            guard let value = Double(part), value.isFinite, value >= 0 else {
                throw ValidationError("\(form); the \(label), \"\(part)\", is not a number of 0 or more")
            }
            numbers.append(value)
        }
        return numbers.count == 4
            ? FoodItem(name: name, calories: numbers[0], proteinG: numbers[1], carbsG: numbers[2], fatG: numbers[3])
            : FoodItem(name: name, calories: numbers[0])
    }
}
