import ArgumentParser
import WorkoutClient

/// `workout foods search`: foods whose name or brand has words starting with the query's.
struct FoodsSearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find foods by the start of any word of their name or brand, or by barcode.",
        discussion: "Example: workout foods search yog")

    @Argument(help: ArgumentHelp("Words to find (\"gr yog\" finds Greek yogurt), or a barcode.", valueName: "query"))
    var query: [String]

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let text = query.joined(separator: " ")
        let session = try SignedInSession()
        defer { session.close() }
        let found = try await session.run("search foods", fieldOptions: FoodsCommand.fieldOptions) { client throws(WorkoutError) in
            try await client.searchFoods(text, limit: 20)
        }
        if output.json {
            try Output.printJSON(found.foods)
            return
        }
        guard !found.foods.isEmpty else {
            Output.line("No food matches \"\(text)\". Add it with `workout foods add \"\(text)\" --kcal N`.")
            return
        }
        Output.lines(FoodTable.lines(found.foods))
        if found.more { Output.line("More foods match; add words to narrow it down.") }
    }
}
