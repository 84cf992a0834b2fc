import WorkoutProtocol

/// Sums of nutrition figures: of a meal's items, or of a day's meals.
public struct NutritionTotals: Sendable, Hashable, Codable {
    /// Energy, kcal.
    public var calories: Double
    /// Protein, grams.
    public var proteinG: Double
    /// Carbohydrates, grams.
    public var carbsG: Double
    /// Fat, grams.
    public var fatG: Double

    /// Creates totals; all zero by default.
    ///
    /// - Parameters:
    ///   - calories: Energy, kcal.
    ///   - proteinG: Protein, grams.
    ///   - carbsG: Carbohydrates, grams.
    ///   - fatG: Fat, grams.
    public init(calories: Double = 0, proteinG: Double = 0, carbsG: Double = 0, fatG: Double = 0) {
        self.calories = calories
        self.proteinG = proteinG
        self.carbsG = carbsG
        self.fatG = fatG
    }

    /// The sums over some food items, as the server computes a meal's totals.
    ///
    /// - Parameter items: The food items.
    public init(summing items: some Sequence<FoodItem>) {
        self.init()
        for item in items {
            calories += item.calories
            proteinG += item.proteinG
            carbsG += item.carbsG
            fatG += item.fatG
        }
    }
}

// MARK: Wire

extension NutritionTotals {
    /// Creates totals from the wire.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_NutritionTotals) {
        self.init(calories: wire.calories, proteinG: wire.proteinG, carbsG: wire.carbsG, fatG: wire.fatG)
    }

    /// These totals as the wire message.
    var wire: Workout_V1_NutritionTotals {
        var message = Workout_V1_NutritionTotals()
        message.calories = calories
        message.proteinG = proteinG
        message.carbsG = carbsG
        message.fatG = fatG
        return message
    }
}
