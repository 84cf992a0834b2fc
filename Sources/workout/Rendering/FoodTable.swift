import WorkoutClient

/// Foods as a table: name and brand, figures per 100 g, servings.
enum FoodTable {
    /// The table's lines.
    static func lines(_ foods: [Food]) -> [String] {
        var table = Table([.init("Food"), .init("kcal/100 g", .right), .init("Protein", .right), .init("Carbs", .right), .init("Fat", .right), .init("Servings")])
        for food in foods {
            table.append([
                food.brand.isEmpty ? food.name : "\(food.name), \(food.brand)", Format.number(food.per100g.calories),
                Format.grams(food.per100g.proteinG), Format.grams(food.per100g.carbsG), Format.grams(food.per100g.fatG),
                food.servings.map { "\($0.name) \(Format.grams($0.grams))" }.joined(separator: ", "),
            ])
        }
        return table.render(indent: "  ")
    }
}
