import ArgumentParser
import Foundation
import WorkoutClient

/// `workout edit workout ID …`: changes a logged workout's fields.
struct EditWorkoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workout",
        abstract: "Change a workout: its kind, duration, calories, exercises, time or notes.")

    @Argument(help: ArgumentHelp("The workout's ID, or its first or last 4 or more hex digits (the last tell records made together apart).", valueName: "id"),
              transform: RecordIDPrefix.init(parsing:))
    var id: RecordIDPrefix

    @Option(help: ArgumentHelp("The kind of workout, e.g. running.", valueName: "type"))
    var type: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("How long it lasted, in minutes.", valueName: "minutes"))
    var minutes: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Calories burned, in kcal.", valueName: "kcal"))
    var calories: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("How many exercises you completed.", valueName: "count"))
    var exercises: Int?

    @Option(help: TimeHelp.at, transform: TimeArgument.init(parsing:))
    var at: TimeArgument?

    @Option(help: "Notes (\"\" for none).")
    var notes: String?

    @OptionGroup var output: OutputOptions

    /// Checks the values against the server's bounds, said as typed (``InputBounds``).
    func checkBounds() throws(CLIError) {
        if let minutes { try InputBounds.minutes(minutes) }
        if let calories { try InputBounds.workoutCalories(calories) }
        if let exercises { try InputBounds.exercises(exercises) }
        try InputBounds.workoutText(type: type, typeName: "--type", notes: notes)
        if let at { try InputBounds.time(at, now: Date(), in: MemberZone.stored().zone) }
    }

    /// `workout` with the options' changes.
    func edited(_ workout: Workout, now: Date, zone: MemberZone) -> Workout {
        var workout = workout
        if let type { workout.type = type }
        if let minutes { workout.durationSeconds = Int(min((minutes * 60).rounded(), 1e9)) }
        if let calories { workout.caloriesBurned = calories }
        if let exercises { workout.exercisesCompleted = exercises }
        if let at {
            // A time typed here is meant in the member's zone, where the record's day then is.
            workout.performedAt = at.resolve(now: now, in: zone.zone)
            workout.timeZone = zone.identifier
        }
        if let notes { workout.notes = notes }
        return workout
    }

    func run() async throws {
        // Here, not in validate(): ArgumentParser validates before it reports an unknown
        // option, which would then read as "nothing to change".
        guard type != nil || minutes != nil || calories != nil || exercises != nil || at != nil || notes != nil else {
            throw ValidationError("nothing to change; give at least one of --type, --minutes, --calories, --exercises, --at, --notes")
        }
        try checkBounds()
        let session = try SignedInSession()
        defer { session.close() }
        let member = await session.memberZone()
        if case .workout(let queued)? = try session.queuedRecord(.workout, id) {
            // Logged or edited offline and not sent yet: the edit is folded into the waiting write.
            let changed = edited(queued, now: Date(), zone: member)
            let delivered = try await session.deliver(.updateWorkout(changed, expectedRevision: nil), action: "change your workouts")
            try delivered.printOutcome(json: output.json, noun: "workout \(Format.id(changed.id)) (\(FoundRecord.workout(changed).summary(in: member.zone)))", zone: member)
            return
        }
        guard case .workout(let workout) = try await RecordFinder.find(.workout, id, in: session) else {
            throw CLIError(.failure, "the search for a workout found another kind of record")
        }
        let changed = edited(workout, now: Date(), zone: member)
        let updated = try await session.run("change your workouts", fieldOptions: ["workout.workout_type": "--type"]) {
            client throws(WorkoutError) in try await client.updateWorkout(changed, expectedRevision: workout.revision)
        }
        if output.json {
            try Output.printJSON(updated)
            return
        }
        Output.line("Updated the workout \(Format.id(workout.id)): \(FoundRecord.workout(updated.workout).summary(in: member.zone)).")
        Output.line("Now \(Describe.totals(updated.totals)).")
        for achievement in updated.unlocked {
            Output.line("Achievement unlocked: \(Describe.achievement(achievement))")
        }
        member.printNote()
    }
}
