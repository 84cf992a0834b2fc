import Foundation
import WorkoutClient

/// Meals and their food items as one table with nutrition columns, and a total row.
enum MealTable {
    /// The table's lines.
    ///
    /// - Parameters:
    ///   - meals: The meals, in order.
    ///   - totals: The totals to show in the last row.
    ///   - zone: The zone of the meal times.
    ///   - showTime: Whether each meal's row starts with its time.
    ///   - ids: The meals' short IDs (``ShortID``), shown in a first column when given.
    static func lines(_ meals: [Meal], totals: NutritionTotals, zone: TimeZone, showTime: Bool = true, ids: [UUID: String]? = nil) -> [String] {
        var table = Table((ids == nil ? [] : [Table.Column("ID")]) + [
            .init(showTime ? "Time" : ""), .init("Meal / item"), .init("kcal", .right), .init("Protein", .right),
            .init("Carbs", .right), .init("Fat", .right),
        ])
        for meal in meals {
            let title = meal.name.isEmpty ? meal.mealType.rawValue : "\(meal.mealType.rawValue): \(meal.name)"
            table.append((ids.map { [$0[meal.id] ?? ""] } ?? []) + [
                showTime ? Format.clock(meal.eatenAt, in: zone) : "", title, Format.kcal(meal.totals.calories),
                Format.grams(meal.totals.proteinG), Format.grams(meal.totals.carbsG), Format.grams(meal.totals.fatG),
            ])
            for item in meal.items {
                table.append((ids == nil ? [] : [""]) + [
                    // The figures are for the portion eaten; the servings it was, when stated.
                    "", "  " + item.name + (item.servings.map { " ×" + Format.number($0, decimals: 2) } ?? ""), Format.kcal(item.calories), Format.grams(item.proteinG),
                    Format.grams(item.carbsG), Format.grams(item.fatG),
                ])
            }
        }
        table.append((ids == nil ? [] : [""]) + [
            "", "Total", Format.kcal(totals.calories), Format.grams(totals.proteinG), Format.grams(totals.carbsG),
            Format.grams(totals.fatG),
        ])
        return table.render(indent: "  ").map { showTime ? $0 : String($0.dropFirst(2)) }
    }
}
