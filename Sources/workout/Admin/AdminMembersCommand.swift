import ArgumentParser
import Foundation
import WorkoutClient

/// `workout admin members`: the household's accounts.
struct AdminMembersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "members",
        abstract: "List the household's members.")

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let members = try await session.run("list the household's members") { client throws(WorkoutError) in try await client.members() }
        if output.json {
            try Output.printJSON(members)
            return
        }
        let member = await session.memberZone()
        let zone = member.zone
        var table = Table([
            .init("ID"), .init("Name"), .init("Email"), .init("Role"), .init("Joined"), .init("Last seen"),
            .init("Sessions", .right), .init("Shares"), .init("Child"),
        ])
        for member in members.sorted(by: { $0.createdAt < $1.createdAt }) {
            table.append([
                Format.id(member.id), Describe.name(member), member.email, member.role.rawValue, Format.day(member.createdAt, in: zone),
                member.lastSeenAt.map { Format.dateTime($0, in: zone) } ?? "never", String(member.activeSessions),
                member.shareWithHousehold ? "yes" : "no",
                member.markedChild ? "marked" : member.isChild ? "under 18" : "no",
            ])
        }
        Output.lines(table.render())
        member.printNote()
    }
}
