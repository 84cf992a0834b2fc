import ArgumentParser
import WorkoutClient

/// `workout household`: the household's leaderboard.
struct HouseholdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "household",
        abstract: "Show the household's leaderboard: level, points and streaks of those who share them.")

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let (members, sharing) = try await session.run("see the household") { client throws(WorkoutError) in
            (try await client.household(), try await client.profile().profile.shareWithHousehold)
        }
        if output.json {
            try Output.printJSON(members)
            return
        }
        Output.lines(Self.lines(members))
        Output.lines(Self.notSharing(youShare: sharing))
    }

    /// Who the leaderboard leaves out, said plainly.
    static func notSharing(youShare: Bool) -> [String] {
        var lines = ["Members who do not share are not listed."]
        if !youShare {
            lines.append("You do not share: the others do not see you here (`workout profile set --share yes` changes that).")
        }
        return lines
    }

    /// The leaderboard, most points first.
    static func lines(_ members: [HouseholdMember]) -> [String] {
        let ranked = members.sorted { ($0.points, $1.displayName) > ($1.points, $0.displayName) }
        var table = Table([
            .init("#", .right), .init("Member"), .init("Level", .right), .init("Points", .right), .init("Streak", .right),
            .init("Longest", .right), .init("Workouts", .right), .init("Active this week", .right), .init("Steps goal", .right),
        ])
        for (index, member) in ranked.enumerated() {
            table.append([
                String(index + 1), member.displayName + (member.isYou ? " (you)" : ""), String(member.level),
                Format.grouped(member.points), Format.count(member.currentStreakDays, "day"),
                Format.count(member.longestStreakDays, "day"), String(member.totalWorkouts),
                "\(Format.grouped(member.activeMinutesThisWeek)) min", Format.count(member.stepsGoalDaysThisWeek, "day"),
            ])
        }
        return table.render()
    }
}
