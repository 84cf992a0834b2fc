import ArgumentParser
import Foundation
import WorkoutClient

/// `workout log meal`: logs a meal with its food items; queues it in the outbox when the
/// server cannot be reached.
struct LogMealCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meal",
        abstract: "Log a meal and its food items.",
        discussion: """
            Each --item is name:calories or name:calories:protein:carbs:fat (grams), e.g.
              workout log meal --type breakfast --item oats:380:13:60:7 --item banana:105
            Each --food is a food of the household's library and an amount: NAME=150g, NAME=2x \
            (servings) or NAME=2 slice; the server computes its figures from the food, e.g.
              workout log meal --type lunch --food "greek yogurt=170g" --food "rye bread=2 slice"
            """)

    @Option(name: .customLong("type"), help: ArgumentHelp(
        "breakfast, lunch, dinner, snack or other.", valueName: "type"), transform: Self.mealType)
    var mealType: MealType

    @Option(help: "A name for the meal, e.g. \"Sunday roast\".")
    var name: String = ""

    @Option(name: .customLong("item"), help: ArgumentHelp(
        "A food item, name:calories[:protein:carbs:fat]; repeat for each.", valueName: "item"),
        transform: FoodItemArgument.parse)
    var items: [FoodItem] = []

    @Option(name: .customLong("food"), help: ArgumentHelp(
        "A food of the library and an amount: NAME=150g, NAME=2x or NAME=2 slice; repeat for each.", valueName: "food=amount"),
        transform: FoodAmountArgument.parse)
    var foods: [FoodAmountArgument] = []

    @Option(help: TimeHelp.at, transform: TimeArgument.init(parsing:))
    var at: TimeArgument?

    @OptionGroup var output: OutputOptions

    /// Parses `--type`.
    static func mealType(_ text: String) throws -> MealType {
        guard let type = MealType(rawValue: text.lowercased()) else {
            throw ValidationError("expected breakfast, lunch, dinner, snack or other")
        }
        return type
    }

    func run() async throws {
        // The server's bounds, said as typed (``InputBounds``).
        try InputBounds.meal(name: name, items: items)
        if let at { try InputBounds.time(at, now: Date(), in: MemberZone.stored().zone) }
        let session = try SignedInSession()
        defer { session.close() }
        let member = await session.memberZone()
        let zone = member.zone
        let now = Date()
        // Foods of the library are looked up now: the server needs their ids.
        var fromLibrary: [FoodItem] = []
        for food in foods {
            let query = food.query
            let matches = try await session.run("look up foods") { client throws(WorkoutError) in try await client.searchFoods(query, limit: 50).foods }
            fromLibrary.append(food.item(from: try food.resolve(in: matches)))
        }
        let meal = Meal(
            mealType: mealType, eatenAt: at?.resolve(now: now, in: zone) ?? now, timeZone: member.identifier,
            name: name, items: items + fromLibrary)
        // A refusal of an item from the library names its --food.
        var fieldOptions: [String: String] = [:]
        for index in fromLibrary.indices {
            for field in ["food_id", "grams", "servings", "serving_name", "name"] {
                fieldOptions["meal.items[\(items.count + index)].\(field)"] = "--food #\(index + 1)"
            }
        }
        let delivered = try await session.deliver(.logMeal(meal), action: "log meals", fieldOptions: fieldOptions)
        guard case .sent(.loggedMeal(let logged)) = delivered.delivery else {
            if case .queued(let queued, let reason) = delivered.delivery {
                try delivered.printQueued(queued, reason: reason, json: output.json, noun: "meal (\(meal.mealType.rawValue), \(Format.count(meal.items.count, "item")))", zone: member)
            }
            return
        }
        if output.json {
            try Output.printJSON(logged)
            return
        }
        let stored = logged.meal
        let title = stored.name.isEmpty ? stored.mealType.rawValue : "\(stored.mealType.rawValue) \"\(stored.name)\""
        Output.line("Logged \(title) at \(Format.dateTime(stored.eatenAt, in: zone))\(logged.replayed ? " (it was logged already)" : ""):")
        Output.lines(MealTable.lines([stored], totals: stored.totals, zone: zone, showTime: false))
        member.printNote()
    }
}
