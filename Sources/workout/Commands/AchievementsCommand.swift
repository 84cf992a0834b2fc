import ArgumentParser
import Foundation
import WorkoutClient

/// `workout achievements`: every achievement, unlocked or not, with progress.
struct AchievementsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "achievements",
        abstract: "List the achievements: those unlocked, and how far you are from the others.")

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let achievements = try await session.run("see your achievements") { client throws(WorkoutError) in try await client.achievements() }
        if output.json {
            try Output.printJSON(achievements)
            return
        }
        let member = await session.memberZone()
        Output.lines(Self.lines(achievements, zone: member.zone))
        member.printNote()
    }

    /// The table: unlocked ones first (in the server's order), then the rest.
    static func lines(_ achievements: [Achievement], zone: TimeZone) -> [String] {
        var table = Table([.init(""), .init("Achievement"), .init("Points", .right), .init("Progress", .right), .init("Unlocked"), .init("How")])
        for achievement in achievements.filter(\.unlocked) + achievements.filter({ !$0.unlocked }) {
            table.append([
                achievement.unlocked ? "✓" : "·", achievement.title, String(achievement.points),
                achievement.target > 0 ? "\(min(achievement.progress, achievement.target))/\(achievement.target)" : "",
                achievement.unlockedAt.map { Format.day($0, in: zone) } ?? "", achievement.details,
            ])
        }
        let unlocked = achievements.filter(\.unlocked).count
        return table.render() + ["", "\(unlocked) of \(achievements.count) unlocked."]
    }
}
