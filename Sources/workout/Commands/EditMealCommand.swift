import ArgumentParser
import Foundation
import WorkoutClient

/// `workout edit meal ID …`: changes a logged meal's fields or its items.
struct EditMealCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meal",
        abstract: "Change a meal: its type, name, time or food items.",
        discussion: """
            --item replaces all the meal's items with the ones given (name:calories or \
            name:calories:protein:carbs:fat, grams); without --item they stay.
            """)

    @Argument(help: ArgumentHelp("The meal's ID, or its first or last 4 or more hex digits (the last tell records made together apart).", valueName: "id"),
              transform: RecordIDPrefix.init(parsing:))
    var id: RecordIDPrefix

    @Option(name: .customLong("type"), help: ArgumentHelp(
        "breakfast, lunch, dinner, snack or other.", valueName: "type"), transform: LogMealCommand.mealType)
    var mealType: MealType?

    @Option(help: "A name for the meal (\"\" for none).")
    var name: String?

    @Option(name: .customLong("item"), help: ArgumentHelp(
        "A food item, name:calories[:protein:carbs:fat]; repeat for each. Replaces all items.", valueName: "item"),
        transform: FoodItemArgument.parse)
    var items: [FoodItem] = []

    @Option(help: TimeHelp.at, transform: TimeArgument.init(parsing:))
    var at: TimeArgument?

    @OptionGroup var output: OutputOptions

    /// `meal` with the options' changes (its totals are the server's to compute).
    func edited(_ meal: Meal, now: Date, zone: MemberZone) -> Meal {
        var meal = meal
        if let mealType { meal.mealType = mealType }
        if let name { meal.name = name }
        if !items.isEmpty { meal.items = items }
        if let at {
            meal.eatenAt = at.resolve(now: now, in: zone.zone)
            meal.timeZone = zone.identifier
        }
        return meal
    }

    func run() async throws {
        // Here, not in validate(): ArgumentParser validates before it reports an unknown
        // option, which would then read as "nothing to change".
        guard mealType != nil || name != nil || !items.isEmpty || at != nil else {
            throw ValidationError("nothing to change; give at least one of --type, --name, --item, --at")
        }
        // The server's bounds, said as typed (``InputBounds``).
        try InputBounds.meal(name: name, items: items)
        if let at { try InputBounds.time(at, now: Date(), in: MemberZone.stored().zone) }
        let session = try SignedInSession()
        defer { session.close() }
        let member = await session.memberZone()
        if case .meal(let queued)? = try session.queuedRecord(.meal, id) {
            // Logged or edited offline and not sent yet: the edit is folded into the waiting write.
            let changed = edited(queued, now: Date(), zone: member)
            let delivered = try await session.deliver(.updateMeal(changed, expectedRevision: nil), action: "change your meals")
            try delivered.printOutcome(json: output.json, noun: "meal \(Format.id(changed.id)) (\(FoundRecord.meal(changed).summary(in: member.zone)))", zone: member)
            return
        }
        guard case .meal(let meal) = try await RecordFinder.find(.meal, id, in: session) else {
            throw CLIError(.failure, "the search for a meal found another kind of record")
        }
        let changed = edited(meal, now: Date(), zone: member)
        let updated = try await session.run("change your meals") { client throws(WorkoutError) in
            try await client.updateMeal(changed, expectedRevision: meal.revision).meal
        }
        if output.json {
            try Output.printJSON(updated)
            return
        }
        let zone = member.zone
        Output.line("Updated the meal \(Format.id(meal.id)), at \(Format.dateTime(updated.eatenAt, in: zone)):")
        Output.lines(MealTable.lines([updated], totals: updated.totals, zone: zone, showTime: false))
        member.printNote()
    }
}
