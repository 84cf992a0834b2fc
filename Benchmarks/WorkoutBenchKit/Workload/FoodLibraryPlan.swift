import Foundation
package import WorkoutProtocol

/// The household food library a run seeds (the `food-search` scenario's): 5,000 foods named
/// from 100 dish words and 50 qualifiers ("Greek yogurt", "Smoked salmon, Bench Farm"), and
/// the queries the scenario sends: three-letter prefixes of the dish words, each finding the
/// about fifty foods of its dish (twenty answered, the caller's most logged first).
package enum FoodLibraryPlan {
    /// The number of foods.
    package static let foods = 5_000

    static let dishes = [
        "yogurt", "bread", "salmon", "chicken", "rice", "pasta", "apple", "banana", "oats", "cheese",
        "butter", "milk", "egg", "tofu", "beans", "lentils", "potato", "tomato", "carrot", "spinach",
        "broccoli", "pepper", "onion", "garlic", "mushroom", "beef", "pork", "turkey", "tuna", "shrimp",
        "almonds", "walnuts", "peanuts", "cashews", "honey", "jam", "cereal", "granola", "muesli", "crackers",
        "cookies", "chocolate", "coffee", "tea", "juice", "soda", "water", "wine", "beer", "soup",
        "salad", "pizza", "burger", "sandwich", "wrap", "taco", "curry", "stew", "risotto", "noodles",
        "dumplings", "sushi", "hummus", "falafel", "avocado", "mango", "pear", "peach", "plum", "cherry",
        "grapes", "melon", "orange", "lemon", "lime", "kiwi", "berries", "raisins", "dates", "figs",
        "quinoa", "couscous", "bulgur", "barley", "corn", "peas", "zucchini", "eggplant", "cabbage", "kale",
        "lettuce", "cucumber", "radish", "beet", "celery", "pumpkin", "squash", "sausage", "ham", "bacon",
    ]
    static let qualifiers = [
        "greek", "smoked", "fresh", "frozen", "dried", "roasted", "baked", "grilled", "steamed", "boiled",
        "organic", "wholegrain", "light", "low-fat", "creamy", "spicy", "sweet", "salted", "unsalted", "plain",
        "red", "green", "yellow", "white", "black", "wild", "farm", "garden", "mountain", "sea",
        "homemade", "classic", "rustic", "golden", "crispy", "tender", "mild", "strong", "rich", "pure",
        "morning", "evening", "summer", "winter", "autumn", "spring", "nordic", "alpine", "coastal", "country",
    ]

    /// Food number `index` of the library, with an id derived from it.
    package static func food(_ index: Int) -> Workout_V1_Food {
        let dish = dishes[index % dishes.count]
        let qualifier = qualifiers[(index / dishes.count) % qualifiers.count]
        var food = Workout_V1_Food()
        var id = [UInt8](repeating: 0, count: 16)
        withUnsafeBytes(of: UInt64(index + 1).bigEndian) { id.replaceSubrange(8..<16, with: $0) }
        id[0] = 0xF0
        food.id = Data(id)
        food.name = "\(qualifier.prefix(1).uppercased())\(qualifier.dropFirst()) \(dish)"
        food.brand = index % 3 == 0 ? "Bench Farm" : ""
        food.per100G.calories = Double(40 + index % 400)
        food.per100G.proteinG = Double(index % 25)
        food.per100G.carbsG = Double(index % 50)
        food.per100G.fatG = Double(index % 20)
        var serving = Workout_V1_Serving()
        serving.name = "portion"
        serving.grams = Double(50 + index % 200)
        food.servings = [serving]
        return food
    }

    /// The queries the scenario sends, in order of use.
    package static var queries: [String] { dishes.map { String($0.prefix(3)) } }
}
