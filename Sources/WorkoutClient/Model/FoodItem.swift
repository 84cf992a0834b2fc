import WorkoutProtocol

/// One food item of a meal. The figures are for the portion eaten (already multiplied by
/// the servings), so a meal's totals are plain sums.
public struct FoodItem: Sendable, Hashable, Codable {
    /// Name of the food, 1...128 bytes, e.g. `"Oatmeal with berries"`.
    public var name: String
    /// Energy in kcal, 0...10,000.
    public var calories: Double
    /// Protein in grams, 0...1,000.
    public var proteinG: Double
    /// Carbohydrates in grams, 0...1,000.
    public var carbsG: Double
    /// Fat in grams, 0...1,000.
    public var fatG: Double
    /// How many servings the portion was (0.01...100), or `nil` if not stated.
    /// Informational only: the figures above already cover the whole portion.
    public var servings: Double?

    /// Creates a food item.
    ///
    /// - Parameters:
    ///   - name: Name of the food.
    ///   - calories: Energy, kcal.
    ///   - proteinG: Protein, grams.
    ///   - carbsG: Carbohydrates, grams.
    ///   - fatG: Fat, grams.
    ///   - servings: Number of servings, `nil` if not stated.
    public init(
        name: String, calories: Double, proteinG: Double = 0, carbsG: Double = 0, fatG: Double = 0,
        servings: Double? = nil
    ) {
        self.name = name
        self.calories = calories
        self.proteinG = proteinG
        self.carbsG = carbsG
        self.fatG = fatG
        self.servings = servings
    }
}

// MARK: Wire

extension FoodItem {
    /// Creates a food item from the wire; `servings` 0 (not stated) becomes `nil`.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_FoodItem) {
        self.init(
            name: wire.name, calories: wire.calories, proteinG: wire.proteinG, carbsG: wire.carbsG,
            fatG: wire.fatG, servings: wire.servings == 0 ? nil : wire.servings
        )
    }

    /// This food item as the wire message (`nil` servings as 0).
    var wire: Workout_V1_FoodItem {
        var message = Workout_V1_FoodItem()
        message.name = name
        message.calories = calories
        message.proteinG = proteinG
        message.carbsG = carbsG
        message.fatG = fatG
        message.servings = servings ?? 0
        return message
    }
}
