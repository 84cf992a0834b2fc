import ArgumentParser
import WorkoutClient

/// `workout templates save`: saves a meal or workout logged before as a template.
struct TemplatesSaveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "save",
        abstract: "Save a meal or workout you logged as a template (a name already saved is replaced).",
        discussion: "Example: workout templates save \"My breakfast\" --meal 0190a5b2")

    @Argument(help: ArgumentHelp("The template's name.", valueName: "name"))
    var name: String

    @Option(help: ArgumentHelp("A meal you logged: its ID or first digits.", valueName: "id"), transform: RecordIDPrefix.init(parsing:))
    var meal: RecordIDPrefix?

    @Option(help: ArgumentHelp("A workout you logged: its ID or first digits.", valueName: "id"), transform: RecordIDPrefix.init(parsing:))
    var workout: RecordIDPrefix?

    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard (meal == nil) != (workout == nil) else { throw ValidationError("give one of --meal or --workout: what the template logs") }
    }

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let found = try await RecordFinder.find(meal != nil ? .meal : .workout, (meal ?? workout)!, in: session)
        let content: Template.Content
        switch found {
        case .meal(let meal): content = .meal(meal)
        case .workout(let workout): content = .workout(workout)
        case .weight: throw CLIError(.usage, "a weigh-in cannot be a template")
        }
        let name = self.name
        let saved = try await session.run("save templates", fieldOptions: ["template.name": "NAME"]) { client throws(WorkoutError) in
            // A template of that name is replaced: it keeps its id.
            let existing = try await client.templates().first { $0.name.lowercased() == name.lowercased() }
            return try await client.saveTemplate(Template(id: existing?.id ?? .timeOrdered(), name: name, content: content))
        }
        if output.json {
            try Output.printJSON(saved)
        } else {
            Output.line("Saved template \"\(saved.name)\": \(TemplatesListCommand.summary(saved)). Log it with: workout log template \"\(saved.name)\"")
        }
    }
}
