import ArgumentParser
import Foundation
import WorkoutClient

/// `workout sessions [list]`: the member's sessions, this one marked.
struct SessionsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List your sessions; * marks this machine's.")

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let sessions = try await session.run("list your sessions") { client throws(WorkoutError) in try await client.sessions() }
        if output.json {
            try Output.printJSON(sessions)
            return
        }
        let member = await session.memberZone()
        let zone = member.zone
        // Every session is listed, so the shortest prefix unique among them is unique: what
        // `workout sessions revoke` takes.
        let ids = ShortID.prefixes(sessions.map(\.id), minimum: RecordIDPrefix.minimumDigits)
        var table = Table([.init(""), .init("ID"), .init("Device"), .init("Client"), .init("Signed in"), .init("Last used"), .init("Expires")])
        for info in sessions.sorted(by: { $0.lastUsedAt > $1.lastUsedAt }) {
            table.append([
                info.isCurrent ? "*" : "", ids[info.id] ?? Format.id(info.id), info.deviceName, info.clientAgent,
                Format.dateTime(info.createdAt, in: zone), Format.dateTime(info.lastUsedAt, in: zone),
                Format.day(info.expiresAt, in: zone),
            ])
        }
        Output.lines(table.render())
        member.printNote()
    }
}
