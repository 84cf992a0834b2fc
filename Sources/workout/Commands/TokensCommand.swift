import ArgumentParser

/// `workout tokens`: the member's device tokens (for automations): list them (the default),
/// make one, revoke one.
struct TokensCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokens",
        abstract: "List, make or revoke device tokens: named, scoped keys for automations (Home Assistant, Shortcuts).",
        subcommands: [TokensListCommand.self, TokensCreateCommand.self, TokensRevokeCommand.self],
        defaultSubcommand: TokensListCommand.self)
}
