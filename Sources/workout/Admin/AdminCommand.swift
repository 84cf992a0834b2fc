import ArgumentParser

/// `workout admin`: managing the household (admins and the owner only).
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract: "Manage the household: invites, members, passwords, server statistics (admins only).",
        subcommands: [
            AdminInviteCommand.self, AdminInvitesCommand.self, AdminRevokeInviteCommand.self, AdminMembersCommand.self,
            AdminRemoveMemberCommand.self, AdminResetPasswordCommand.self, AdminMarkChildCommand.self,
            AdminStatsCommand.self,
        ])
}
