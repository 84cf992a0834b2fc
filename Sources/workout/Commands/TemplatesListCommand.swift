import ArgumentParser
import WorkoutClient

/// `workout templates list`: the member's templates with what each logs.
struct TemplatesListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Your templates (the default).")

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let templates = try await session.run("see your templates") { client throws(WorkoutError) in try await client.templates() }
        if output.json {
            try Output.printJSON(templates)
            return
        }
        guard !templates.isEmpty else {
            Output.line("No templates. Save a meal or workout you logged: workout templates save NAME --meal ID (or --workout ID).")
            return
        }
        var table = Table([.init("Name"), .init("Logs")])
        for template in templates { table.append([template.name, Self.summary(template)]) }
        Output.lines(table.render())
    }

    /// "breakfast, 2 items, 332 kcal" or "running, 45 min, 450 kcal".
    static func summary(_ template: Template) -> String {
        switch template.content {
        case .meal(let meal):
            let kcal = meal.items.reduce(0) { $0 + $1.calories }
            return "\(meal.mealType.rawValue), \(Format.count(meal.items.count, "item")), \(Format.kcal(kcal))"
        case .workout(let workout):
            var parts = [workout.type, Format.duration(seconds: workout.durationSeconds)]
            if workout.caloriesBurned > 0 { parts.append(Format.kcal(workout.caloriesBurned)) }
            return (parts + Describe.workoutDetail(workout)).joined(separator: ", ")
        }
    }
}
