import ArgumentParser
import WorkoutClient

/// `workout templates delete`: deletes a template by name.
struct TemplatesDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a template by its name.")

    @Argument(help: ArgumentHelp("The template's name.", valueName: "name"))
    var name: String

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let template = try await TemplateLookup.find(name, in: session)
        _ = try await session.run("delete templates") { client throws(WorkoutError) in try await client.deleteTemplate(template.id) }
        Output.line("Deleted template \"\(template.name)\".")
    }
}
