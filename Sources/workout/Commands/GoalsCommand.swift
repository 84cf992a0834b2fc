import ArgumentParser

/// `workout goals`: the member's goals and where they stand: show them with today's progress
/// (the default), set some, clear some.
struct GoalsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goals",
        abstract: "Show your goals and how far you are today, or set or clear them.",
        subcommands: [GoalsShowCommand.self, GoalsSetCommand.self, GoalsClearCommand.self],
        defaultSubcommand: GoalsShowCommand.self)

    /// The request fields of `Goals.SetGoals` by the option that sets them.
    static let fieldOptions = [
        "set.energy_kcal": "--energy", "set.protein.grams": "--protein", "set.protein.percent_of_energy": "--protein",
        "set.carbs.grams": "--carbs", "set.carbs.percent_of_energy": "--carbs", "set.fat.grams": "--fat",
        "set.fat.percent_of_energy": "--fat", "set.daily_steps": "--steps", "set.weekly_active_minutes": "--active-minutes",
        "set.weekly_workouts": "--workouts", "set.target_weight_kg": "--weight", "set.target_weight_by": "--by",
        "effective_from": "--from", "member_id": "--member",
    ]
}
