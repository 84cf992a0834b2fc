public import Foundation
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
    /// Informational only: the figures above already cover the whole portion, unless the item
    /// is logged from a library food (``foodID``), whose figures the server computes.
    public var servings: Double?
    /// The library food the item is (to be) logged from, or `nil` for an item typed by hand.
    /// Logged with ``grams`` or ``servings``, the server fills in the name (when empty) and the
    /// figures from the food, and the stored item keeps that copy.
    public var foodID: UUID?
    /// The amount eaten in grams (0.1...5,000), or `nil` if not stated.
    public var grams: Double?
    /// With a food and ``servings``: the food's serving meant (`nil`: its first).
    public var servingName: String?

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

    /// An item to log from a library food, by weight; the server computes its figures.
    ///
    /// - Parameters:
    ///   - food: The food's id.
    ///   - grams: The amount eaten, 0.1...5,000 g.
    ///   - name: The item's name, or `nil` for the food's.
    public static func from(food: UUID, grams: Double, name: String? = nil) -> FoodItem {
        var item = FoodItem(name: name ?? "", calories: 0)
        item.foodID = food
        item.grams = grams
        return item
    }

    /// An item to log from a library food, by servings; the server computes its figures.
    ///
    /// - Parameters:
    ///   - food: The food's id.
    ///   - servings: How many servings, 0.01...100.
    ///   - serving: The food's serving meant, or `nil` for its first.
    ///   - name: The item's name, or `nil` for the food's.
    public static func from(food: UUID, servings: Double, serving: String? = nil, name: String? = nil) -> FoodItem {
        var item = FoodItem(name: name ?? "", calories: 0, servings: servings)
        item.foodID = food
        item.servingName = serving
        return item
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
        foodID = wire.foodID.isEmpty ? nil : UUID(wireBytes: wire.foodID)
        grams = wire.grams == 0 ? nil : wire.grams
        servingName = wire.servingName.isEmpty ? nil : wire.servingName
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
        message.foodID = foodID?.wireBytes ?? Data()
        message.grams = grams ?? 0
        message.servingName = servingName ?? ""
        return message
    }
}
