import Foundation
import LMDB
import Storage
package import WorkoutProtocol
import WorkoutRules

/// A meal's items logged from library foods: the reference and the amount a request gives,
/// and the copy of the food's figures the stored item keeps.
package enum FoodPortions {
    /// Checks an item's reference to a food and its amount (its figures come from the food).
    ///
    /// - Throws: `DomainError.invalid` naming the field under `field` (`meal.items[2]`).
    package static func checkReference(_ item: Workout_V1_FoodItem, field: String) throws {
        _ = try Bounds.recordID(item.foodID, field: "\(field).food_id")
        if !item.name.isEmpty { try Bounds.text(item.name, field: "\(field).name", bytes: RecordLimits.foodNameBytes) }
        switch (item.grams != 0, item.servings != 0) {
        case (true, true):
            throw DomainError.invalid("\(field).servings", "\(field) gives both grams and servings; give one amount")
        case (false, false):
            throw DomainError.invalid("\(field).grams", "\(field) from a food needs an amount: grams or servings")
        case (true, false):
            try Bounds.number(item.grams, field: "\(field).grams", range: FoodLimits.portionGrams)
            if !item.servingName.isEmpty {
                throw DomainError.invalid("\(field).serving_name", "\(field).serving_name goes with servings, not grams")
            }
        case (false, true):
            try Bounds.number(item.servings, field: "\(field).servings", range: FoodLimits.portionServings)
            try Bounds.text(item.servingName, field: "\(field).serving_name", bytes: 0...FoodLimits.servingNameBytes.upperBound)
        }
    }

    /// Checks the amount of an item typed by hand: its grams, if stated, and no serving name
    /// (which only a food's servings have).
    ///
    /// - Throws: `DomainError.invalid` naming the field under `field`.
    package static func checkHandAmount(_ item: Workout_V1_FoodItem, field: String) throws {
        try Bounds.number(item.grams, field: "\(field).grams", range: FoodLimits.portionGrams, allowZeroAsUnset: true)
        guard item.servingName.isEmpty else {
            throw DomainError.invalid("\(field).serving_name", "\(field).serving_name names a serving of a food; give food_id with it, or leave it empty")
        }
    }

    /// Whether `stored` is the copy made for `requested`: the same food, amount, serving and
    /// (when the request names it) name.
    package static func isCopy(_ stored: Workout_V1_FoodItem, of requested: Workout_V1_FoodItem) -> Bool {
        guard stored.foodID == requested.foodID, requested.name.isEmpty || stored.name == requested.name else { return false }
        if requested.grams != 0 { return stored.grams == requested.grams && stored.servings == 0 }
        return stored.servings == requested.servings
            && (requested.servingName.isEmpty || stored.servingName.lowercased() == requested.servingName.lowercased())
    }

    /// The stored item for `requested` from `food`: its name (unless the request gives one),
    /// the grams the amount is, the serving used, and the figures of that many grams.
    ///
    /// - Throws: `DomainError.invalid` for a serving the food does not have, or a portion whose
    ///   figures pass an item's bounds.
    static func copy(of food: Workout_V1_Food, for requested: Workout_V1_FoodItem, field: String) throws -> Workout_V1_FoodItem {
        var item = Workout_V1_FoodItem()
        item.foodID = requested.foodID
        item.name = requested.name.isEmpty ? food.name : requested.name
        if requested.grams != 0 {
            item.grams = requested.grams
        } else {
            let serving: Workout_V1_Serving
            if requested.servingName.isEmpty {
                guard let first = food.servings.first else {
                    throw DomainError.invalid("\(field).servings", "\(field): \"\(food.name)\" has no servings; give grams")
                }
                serving = first
            } else {
                guard let named = food.servings.first(where: { $0.name.lowercased() == requested.servingName.lowercased() }) else {
                    let names = food.servings.map { "\"\($0.name)\"" }.joined(separator: ", ")
                    throw DomainError.invalid("\(field).serving_name", "\(field).serving_name \"\(requested.servingName)\" is not a serving of \"\(food.name)\""
                                              + (names.isEmpty ? " (it has none; give grams)" : " (it has \(names))"))
                }
                serving = named
            }
            item.servings = requested.servings
            item.servingName = serving.name
            item.grams = requested.servings * serving.grams
        }
        let portion = Portion(grams: item.grams, caloriesPer100g: food.per100G.calories, proteinPer100g: food.per100G.proteinG,
                              carbsPer100g: food.per100G.carbsG, fatPer100g: food.per100G.fatG)
        item.calories = portion.calories
        item.proteinG = portion.proteinG
        item.carbsG = portion.carbsG
        item.fatG = portion.fatG
        guard RecordLimits.foodCalories.contains(item.calories), RecordLimits.foodGrams.contains(item.proteinG),
              RecordLimits.foodGrams.contains(item.carbsG), RecordLimits.foodGrams.contains(item.fatG) else {
            throw DomainError.invalid("\(field).grams", "\(field): \(Bounds.formatted(item.grams)) g of \"\(food.name)\" is more than one item may hold "
                                      + "(\(Bounds.formatted(item.calories.rounded())) kcal; at most \(Bounds.formatted(RecordLimits.foodCalories.upperBound)) kcal and \(Bounds.formatted(RecordLimits.foodGrams.upperBound)) g of each nutrient); split it")
        }
        return item
    }
}

extension HouseholdStore {
    /// Turns a meal's items that name a library food into stored copies (an item equal to one
    /// in `keeping`, the meal's items before an update, keeps that copy), counts each new copy
    /// as a use of its food by `user`, and sums the meal's totals again.
    ///
    /// - Throws: ``DomainError`` `notFound` for a food the library does not have, or what
    ///   ``FoodPortions/copy(of:for:field:)`` throws.
    ///
    /// - Parameter countingUses: Whether a new copy counts as a use (not for a template saved).
    func resolveFoodItems(
        _ meal: inout Workout_V1_Meal, keeping existing: [Workout_V1_FoodItem], user: UUID, now: Int64, in txn: inout WriteTransaction,
        countingUses: Bool = true
    ) throws {
        guard meal.items.contains(where: { !$0.foodID.isEmpty }) else { return }
        var kept = existing.filter { !$0.foodID.isEmpty }
        for index in meal.items.indices where !meal.items[index].foodID.isEmpty {
            let requested = meal.items[index]
            if let match = kept.firstIndex(where: { FoodPortions.isCopy($0, of: requested) }) {
                meal.items[index] = kept.remove(at: match)
                continue
            }
            let foodID = UUID(bytes: requested.foodID)
            guard let food = try txn.get(foodID, from: tables.foods.table) else {
                throw DomainError(.notFound, "meal.items[\(index)].food_id names no food of the household's library", field: "meal.items[\(index)].food_id")
            }
            meal.items[index] = try FoodPortions.copy(of: food, for: requested, field: "meal.items[\(index)]")
            if countingUses { try noteFoodLogged(foodID, by: user, now: now, in: &txn) }
        }
        meal.totals = Self.nutrition(of: meal.items)
    }
}
