import ArgumentParser
import WorkoutClient

/// `workout whoami`: who is signed in, on which server, and how they are doing.
struct WhoamiCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Show who is signed in on this machine, and their level, points and streak.")

    @OptionGroup var output: OutputOptions

    /// What `--json` prints.
    struct Report: Encodable {
        /// The server, `host:port`.
        var server: String
        /// The member's profile.
        var profile: Profile
        /// Their totals.
        var totals: Totals
        /// The revision of their data.
        var revision: UInt64
    }

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let snapshot = try await session.run("see your profile") { client throws(WorkoutError) in try await client.profile() }
        session.remember(snapshot.profile)
        if output.json {
            try Output.printJSON(Report(
                server: session.address.description, profile: snapshot.profile, totals: snapshot.totals, revision: snapshot.revision))
            return
        }
        let profile = snapshot.profile
        let totals = snapshot.totals
        Output.lines([
            "\(Describe.name(profile)) <\(profile.email)>, \(profile.role.rawValue), on \(session.address)",
            "Time zone:  \(profile.timeZone)",
            "Level \(totals.level) · \(Format.count(totals.points, "point")) · streak \(Format.count(totals.currentStreakDays, "day")) (longest \(totals.longestStreakDays))",
            "\(Format.count(totals.totalWorkouts, "workout")), \(Format.duration(seconds: totals.totalActiveSeconds)) active, \(Format.kcal(totals.totalCaloriesBurned)) burned, \(Format.count(totals.achievementsUnlocked, "achievement")) unlocked",
            "Shares with the household: \(profile.shareWithHousehold ? "yes" : "no")",
        ])
    }
}
