import ArgumentParser

/// `workout sessions`: the member's sessions (devices): list them (the default), revoke one.
struct SessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List your sessions (the devices signed in as you), or end one.",
        subcommands: [SessionsListCommand.self, SessionsRevokeCommand.self],
        defaultSubcommand: SessionsListCommand.self)
}
