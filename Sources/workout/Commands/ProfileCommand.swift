import ArgumentParser
import Foundation
import WorkoutClient

/// `workout profile`: shows the member's profile (`workout profile show`, the default) or
/// changes it (`workout profile set`).
struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Show or change your profile: name, age, height, weight, goal, time zone.",
        subcommands: [ProfileShowCommand.self, ProfileSetCommand.self],
        defaultSubcommand: ProfileShowCommand.self)

    /// What `profile --json` and `profile set --json` print.
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

    /// The human form of a profile.
    ///
    /// - Parameters:
    ///   - profile: The profile.
    ///   - server: The server, `host:port`.
    /// - Returns: One line per field; fields not stated say so; then the note on the zone
    ///   (``MemberZone/note``) when it is not this machine's.
    static func lines(_ profile: Profile, server: String) -> [String] {
        let member = MemberZone(profileZone: profile.timeZone)
        let notStated = "not stated"
        return [
            "\(Describe.name(profile)) <\(profile.email)>, \(profile.role.rawValue), on \(server)",
            "First name:  \(profile.firstName)",
            "Last name:   \(profile.lastName.isEmpty ? "(none)" : profile.lastName)",
            "Age:         \(profile.age.map { "\($0)" } ?? notStated)",
            "Height:      \(profile.heightCm.map { "\(Format.number($0)) cm" } ?? notStated)",
            "Weight:      \(profile.weightKg.map(Format.kilograms) ?? notStated)",
            "Goal:        \(profile.fitnessGoal.map(GoalArgument.name) ?? notStated)",
            "Time zone:   \(profile.timeZone)",
            "Shares with the household: \(profile.shareWithHousehold ? "yes" : "no")",
            "Steps count: \(profile.stepsSourcePriority.isEmpty ? "each day's largest source" : profile.stepsSourcePriority.joined(separator: ", ") + ", the first that reported (else the largest)")",
            "Member since \(Format.day(profile.createdAt, in: member.zone))",
        ] + (member.note.map { [$0] } ?? [])
    }
}
