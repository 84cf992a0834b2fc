import ArgumentParser
import WorkoutClient

/// `workout foods add`: adds one food to the household's library.
struct FoodsAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a food to the household's library, with its figures per 100 g.",
        discussion: """
            Example: workout foods add "Greek yogurt" --brand Fage --kcal 97 --protein 9 --carbs 3.9 --fat 5 --serving pot=170
            """)

    @Argument(help: ArgumentHelp("The food's name.", valueName: "name"))
    var name: String

    @Option(help: ArgumentHelp("Its brand.", valueName: "brand"))
    var brand: String = ""

    @Option(help: ArgumentHelp("Its barcode (EAN or UPC digits).", valueName: "digits"))
    var barcode: String = ""

    @Option(parsing: .unconditional, help: ArgumentHelp("kcal per 100 g.", valueName: "kcal"))
    var kcal: Double

    @Option(parsing: .unconditional, help: ArgumentHelp("Protein per 100 g, grams.", valueName: "g"))
    var protein: Double = 0

    @Option(parsing: .unconditional, help: ArgumentHelp("Carbohydrates per 100 g, grams.", valueName: "g"))
    var carbs: Double = 0

    @Option(parsing: .unconditional, help: ArgumentHelp("Fat per 100 g, grams.", valueName: "g"))
    var fat: Double = 0

    @Option(name: .customLong("serving"), help: ArgumentHelp("A named serving, name=grams (the first is the default); repeat for each.", valueName: "name=g"),
            transform: Self.serving)
    var servings: [Serving] = []

    @OptionGroup var output: OutputOptions

    /// Parses `--serving`.
    static func serving(_ text: String) throws -> Serving {
        let parts = text.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        let gramsText = parts.count == 2 ? (parts[1].lowercased().hasSuffix("g") ? String(parts[1].dropLast()) : parts[1]) : ""
        guard parts.count == 2, !parts[0].isEmpty, let grams = Double(gramsText.trimmingCharacters(in: .whitespaces)), grams.isFinite else {
            throw ValidationError("expected name=grams, e.g. slice=30")
        }
        return Serving(name: parts[0], grams: grams)
    }

    func validate() throws {
        for (value, option) in [(kcal, "--kcal"), (protein, "--protein"), (carbs, "--carbs"), (fat, "--fat")] where !value.isFinite {
            throw ValidationError("\(option) must be a number")
        }
    }

    func run() async throws {
        let food = Food(name: name, brand: brand, barcode: barcode, per100g: Nutrients(calories: kcal, proteinG: protein, carbsG: carbs, fatG: fat),
                        servings: servings)
        let session = try SignedInSession()
        defer { session.close() }
        let stored = try await session.run("add foods", fieldOptions: FoodsCommand.fieldOptions) { client throws(WorkoutError) in
            try await client.addFoods([food])
        }
        if output.json {
            try Output.printJSON(stored.foods.first)
        } else {
            Output.line(stored.alreadyStored > 0 ? "Already in the library:" : "Added to the library:")
            Output.lines(FoodTable.lines(stored.foods))
        }
    }
}
