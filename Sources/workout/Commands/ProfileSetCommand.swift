import ArgumentParser
import WorkoutClient

/// `workout profile set`: changes the fields given, and only those.
struct ProfileSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Change your profile: only the fields given change.",
        discussion: """
            Age, height, weight and goal take `none` to clear them (not stated). The server checks \
            the values (age 5-120, height 50-272 cm, weight 10-500 kg, a time zone it knows) and \
            names the option at fault. --weight changes the profile only; `workout log weight` also \
            records a weigh-in. Example: workout profile set --weight 71.5 --goal lose-weight
            """)

    @Option(parsing: .unconditional, help: ArgumentHelp("Your age in years, or none.", valueName: "years"), transform: Setting.parse { Int($0) })
    var age: Setting<Int>?

    @Option(parsing: .unconditional, help: ArgumentHelp("Your height in centimetres, or none.", valueName: "cm"), transform: Setting.parse { Double($0) })
    var height: Setting<Double>?

    @Option(parsing: .unconditional, help: ArgumentHelp("Your weight in kilograms, or none.", valueName: "kg"), transform: Setting.parse { Double($0) })
    var weight: Setting<Double>?

    @Option(help: ArgumentHelp("Your goal: \(GoalArgument.names), or none.", valueName: "goal"), transform: GoalArgument.parse)
    var goal: Setting<FitnessGoal>?

    // `--time-zone` too: `workout register` takes that name, and people type it here as well.
    @Option(name: [.customLong("zone"), .customLong("time-zone")], help: ArgumentHelp("Your IANA time zone, e.g. Europe/Berlin: where your days begin.", valueName: "zone"))
    var zone: String?

    @Option(name: .customLong("first-name"), help: ArgumentHelp("Your first name.", valueName: "name"))
    var firstName: String?

    @Option(name: .customLong("last-name"), help: ArgumentHelp("Your last name (\"\" for none).", valueName: "name"))
    var lastName: String?

    @Option(help: ArgumentHelp("Whether the household sees your level, points and streak: yes or no.", valueName: "yes|no"))
    var share: ShareChoice?

    @Option(name: .customLong("steps-sources"), help: ArgumentHelp(
        "Your steps sources, most trusted first, comma-separated (\"Apple Watch,iPhone\"): a day counts the first that reported; \"\" for each day's largest.",
        valueName: "sources"))
    var stepsSources: String?

    @OptionGroup var output: OutputOptions

    /// The sources `--steps-sources` names, trimmed; empty for `""`.
    var stepsSourcePriority: [String]? {
        stepsSources.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
    }

    /// `--share`'s values.
    enum ShareChoice: String, ExpressibleByArgument, CaseIterable {
        case yes, no
    }

    /// The request fields of `Profile.UpdateProfile` by the option that sets them.
    static let fieldOptions = [
        "age": "--age", "height_cm": "--height", "weight_kg": "--weight", "fitness_goal": "--goal",
        "time_zone": "--zone", "first_name": "--first-name", "last_name": "--last-name",
        "share_with_household": "--share", "steps_source_priority.sources": "--steps-sources",
    ]

    /// The update the options ask for.
    var update: ProfileUpdate {
        ProfileUpdate(
            // `map`, not `?.`: an option not given stays `nil` (keep), `none` becomes `.some(nil)` (clear).
            firstName: firstName, lastName: lastName, age: age.map(\.value), heightCm: height.map(\.value),
            weightKg: weight.map(\.value), fitnessGoal: goal.map(\.value), timeZone: zone,
            shareWithHousehold: share.map { $0 == .yes }, stepsSourcePriority: stepsSourcePriority)
    }

    func validate() throws {
        if case .set(let value) = height, !value.isFinite { throw ValidationError("--height must be a number of centimetres") }
        if case .set(let value) = weight, !value.isFinite { throw ValidationError("--weight must be a number of kilograms") }
    }

    func run() async throws {
        // Here, not in validate(): ArgumentParser validates before it reports an unknown
        // option, which would then read as "nothing to change".
        guard !update.isEmpty else {
            throw ValidationError("nothing to change; give at least one of --age, --height, --weight, --goal, --zone, --first-name, --last-name, --share, --steps-sources")
        }
        let update = self.update
        let session = try SignedInSession()
        defer { session.close() }
        let snapshot = try await session.run("change your profile", fieldOptions: Self.fieldOptions) { client throws(WorkoutError) in
            try await client.updateProfile(update)
        }
        session.remember(snapshot.profile)
        if output.json {
            try Output.printJSON(ProfileCommand.Report(
                server: session.address.description, profile: snapshot.profile, totals: snapshot.totals,
                revision: snapshot.revision))
        } else {
            Output.line("Profile updated.")
            Output.lines(ProfileCommand.lines(snapshot.profile, server: session.address.description))
        }
    }
}
