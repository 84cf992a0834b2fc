import ArgumentParser

/// `workout log`: the group of logging commands.
struct LogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Log a workout, a meal, a weigh-in or a day's steps (now, in this machine's time zone, unless --at says otherwise).",
        subcommands: [LogWorkoutCommand.self, LogMealCommand.self, LogWeightCommand.self, LogStepsCommand.self])
}
