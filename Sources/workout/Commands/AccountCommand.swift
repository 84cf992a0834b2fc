import ArgumentParser

/// `workout account`: the member's account as a whole.
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Your account as a whole (see also `workout profile` and `workout password`).",
        subcommands: [AccountDeleteCommand.self])
}
