import ArgumentParser

/// `workout templates`: saved meals and workouts: list them (the default), save one from a
/// meal or workout logged before, delete one. `workout log template NAME` logs one.
struct TemplatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "templates",
        abstract: "List, save or delete templates: meals and workouts to log again in one step.",
        subcommands: [TemplatesListCommand.self, TemplatesSaveCommand.self, TemplatesDeleteCommand.self],
        defaultSubcommand: TemplatesListCommand.self)
}
