import WorkoutClient

/// A template named on the command line, found among the member's (case does not matter).
enum TemplateLookup {
    /// The member's template called `name`.
    ///
    /// - Throws: ``CLIError`` not found, listing the names there are.
    static func find(_ name: String, in session: SignedInSession) async throws(CLIError) -> Template {
        let templates = try await session.run("see your templates") { client throws(WorkoutError) in try await client.templates() }
        if let template = templates.first(where: { $0.name.lowercased() == name.lowercased() }) { return template }
        let names = templates.map { "\"\($0.name)\"" }.joined(separator: ", ")
        throw CLIError(.notFound, "not found: you have no template \"\(name)\"" + (names.isEmpty ? " (you have none; see `workout templates save`)" : " (you have \(names))"))
    }
}
