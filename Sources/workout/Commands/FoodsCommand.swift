import ArgumentParser

/// `workout foods`: the household's food library: the foods you log (the default), search,
/// add one, import a list.
struct FoodsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "foods",
        abstract: "The household's food library: your foods, search, add, import a list.",
        subcommands: [FoodsMineCommand.self, FoodsSearchCommand.self, FoodsAddCommand.self, FoodsImportCommand.self],
        defaultSubcommand: FoodsMineCommand.self)

    /// The request fields of `Foods.AddFoods` by the option that sets them.
    static let fieldOptions = [
        "foods[0].name": "NAME", "foods[0].id": "NAME", "foods[0].brand": "--brand", "foods[0].barcode": "--barcode",
        "foods[0].per_100g.calories": "--kcal", "foods[0].per_100g.protein_g": "--protein", "foods[0].per_100g.carbs_g": "--carbs",
        "foods[0].per_100g.fat_g": "--fat", "foods[0].per_100g": "--protein, --carbs and --fat", "foods[0].servings": "--serving",
        "query": "QUERY",
    ]
}
