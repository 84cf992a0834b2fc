import ArgumentParser
import WorkoutClient

/// `workout profile show` (also plain `workout profile`): the member's profile.
struct ProfileShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show your profile.")

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let snapshot = try await session.run("see your profile") { client throws(WorkoutError) in try await client.profile() }
        session.remember(snapshot.profile)
        if output.json {
            try Output.printJSON(ProfileCommand.Report(
                server: session.address.description, profile: snapshot.profile, totals: snapshot.totals,
                revision: snapshot.revision))
        } else {
            Output.lines(ProfileCommand.lines(snapshot.profile, server: session.address.description))
        }
    }
}
