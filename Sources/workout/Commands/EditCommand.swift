import ArgumentParser

/// `workout edit`: the group of commands that change a logged record.
struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a logged workout, meal or weigh-in: only the options given change.",
        discussion: """
            The ID is as the ID column of `workout history` and `workout today` shows it, as \
            `workout history --json`, `workout today --json` or `workout weight --json` print it, or \
            its first or last 4 or more hex digits when no other record of the kind starts or ends with them (a time-ordered ID's first digits are its time; its last tell records apart). The change applies only if nobody changed the record meanwhile (else exit 75: \
            run it again). A record logged offline that still waits in the outbox (`workout status` \
            lists it) is changed there: the edit is folded into the waiting write. \
            Example: workout edit workout 0190a5b2 --minutes 45 --notes "hill repeats"
            """,
        subcommands: [EditWorkoutCommand.self, EditMealCommand.self, EditWeightCommand.self])
}
