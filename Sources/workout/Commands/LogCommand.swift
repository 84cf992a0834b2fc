import ArgumentParser

/// `workout log`: the group of logging commands.
struct LogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Log a workout, a meal, a weigh-in or a day's steps (now, in your profile's time zone, unless --at says otherwise).",
        discussion: """
            When the server cannot be reached, the write is queued on this machine (outbox.log beside \
            the stored session) and `workout sync` sends it later; this needs a session from an \
            earlier `workout login`. `workout status` shows what waits.
            """,
        subcommands: [LogWorkoutCommand.self, LogMealCommand.self, LogWeightCommand.self, LogStepsCommand.self, LogTemplateCommand.self])
}
