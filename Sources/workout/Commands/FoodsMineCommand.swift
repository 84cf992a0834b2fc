import ArgumentParser
import WorkoutClient

/// `workout foods mine`: the foods you logged most recently and most often.
struct FoodsMineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mine",
        abstract: "The foods you logged most recently and most often (the default).")

    @OptionGroup var output: OutputOptions

    /// What `--json` prints.
    struct Report: Encodable {
        var recent: [Food]
        var frequent: [Food]
    }

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let mine = try await session.run("see your foods") { client throws(WorkoutError) in try await client.myFoods(limit: 10) }
        if output.json {
            try Output.printJSON(Report(recent: mine.recent, frequent: mine.frequent))
            return
        }
        guard !mine.recent.isEmpty else {
            Output.line("You have logged no food of the library yet. Find one with `workout foods search NAME`, or add one with `workout foods add`.")
            return
        }
        Output.line("Recent")
        Output.lines(FoodTable.lines(mine.recent))
        Output.line("")
        Output.line("Most often")
        Output.lines(FoodTable.lines(mine.frequent))
    }
}
