import ArgumentParser
import Foundation
import WorkoutClient

/// `workout log template`: logs a template, or (`--copy-meal`, `--copy-workout`) a copy of a
/// meal or workout logged before, in one step.
struct LogTemplateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "template",
        abstract: "Log a template, or a copy of a meal or workout you logged, in one step.",
        discussion: """
            Examples: workout log template "My breakfast"; workout log template --copy-meal 0190a5b2 --at 12:30 \
            (yesterday's lunch again, today)
            """)

    @Argument(help: ArgumentHelp("The template's name.", valueName: "name"))
    var name: String?

    @Option(name: .customLong("copy-meal"), help: ArgumentHelp("Copy this meal of yours instead: its ID or first digits.", valueName: "id"),
            transform: RecordIDPrefix.init(parsing:))
    var copyMeal: RecordIDPrefix?

    @Option(name: .customLong("copy-workout"), help: ArgumentHelp("Copy this workout of yours instead.", valueName: "id"),
            transform: RecordIDPrefix.init(parsing:))
    var copyWorkout: RecordIDPrefix?

    @Option(help: TimeHelp.at, transform: TimeArgument.init(parsing:))
    var at: TimeArgument?

    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard [name != nil, copyMeal != nil, copyWorkout != nil].filter({ $0 }).count == 1 else {
            throw ValidationError("give a template's name, or one of --copy-meal or --copy-workout")
        }
    }

    func run() async throws {
        if let at { try InputBounds.time(at, now: Date(), in: MemberZone.stored().zone) }
        let session = try SignedInSession()
        defer { session.close() }
        let member = await session.memberZone()
        let when = at?.resolve(now: Date(), in: member.zone)
        let logged: LoggedFromTemplate
        if let name {
            let template = try await TemplateLookup.find(name, in: session)
            logged = try await session.run("log templates") { client throws(WorkoutError) in try await client.logTemplate(template.id, at: when) }
        } else {
            let found = try await RecordFinder.find(copyMeal != nil ? .meal : .workout, (copyMeal ?? copyWorkout)!, in: session)
            logged = try await session.run("log copies") { client throws(WorkoutError) in
                try await found.kind == .meal ? client.copyMeal(found.id, at: when) : client.copyWorkout(found.id, at: when)
            }
        }
        switch logged {
        case .meal(let meal):
            if output.json { try Output.printJSON(meal); return }
            let stored = meal.meal
            Output.line("Logged \(stored.mealType.rawValue) at \(Format.dateTime(stored.eatenAt, in: member.zone))\(meal.replayed ? " (it was logged already)" : ""):")
            Output.lines(MealTable.lines([stored], totals: stored.totals, zone: member.zone, showTime: false))
        case .workout(let workout):
            if output.json { try Output.printJSON(workout); return }
            let stored = workout.workout
            let parts = [Format.duration(seconds: stored.durationSeconds)] + (stored.caloriesBurned > 0 ? [Format.kcal(stored.caloriesBurned)] : [])
                + Describe.workoutDetail(stored)
            Output.line("Logged \(stored.type): \(parts.joined(separator: ", ")), at \(Format.dateTime(stored.performedAt, in: member.zone))\(workout.replayed ? " (it was logged already)" : "").")
            Output.line("Now \(Describe.totals(workout.totals)).")
        }
    }
}
