import ArgumentParser
import Foundation
import WorkoutClient

/// `workout log workout`: logs a workout and shows the points, level, streak and
/// achievements it brought; queues it in the outbox when the server cannot be reached.
struct LogWorkoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workout",
        abstract: "Log a workout: +50 points, your streak and achievements.",
        discussion: "Example: workout log workout running --minutes 30 --calories 280 --km 5.2 --avg-hr 148 --at 07:15")

    @Argument(help: ArgumentHelp("The kind of workout, e.g. running, cycling, yoga, strength.", valueName: "type"))
    var type: String

    @Option(parsing: .unconditional, help: ArgumentHelp("How long it lasted, in minutes.", valueName: "minutes"))
    var minutes: Double

    @Option(parsing: .unconditional, help: ArgumentHelp("Calories burned, in kcal.", valueName: "kcal"))
    var calories: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("How many exercises you completed.", valueName: "count"))
    var exercises: Int = 0

    @Option(help: TimeHelp.at, transform: TimeArgument.init(parsing:))
    var at: TimeArgument?

    @Option(help: "Notes.")
    var notes: String = ""

    @Option(parsing: .unconditional, help: ArgumentHelp("Distance covered, in kilometres.", valueName: "km"))
    var km: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Elevation climbed, in metres.", valueName: "m"))
    var climb: Double?

    @Option(name: .customLong("avg-hr"), parsing: .unconditional, help: ArgumentHelp("Average heart rate, beats a minute.", valueName: "bpm"))
    var averageHeartRate: Int?

    @Option(name: .customLong("max-hr"), parsing: .unconditional, help: ArgumentHelp("Highest heart rate, beats a minute.", valueName: "bpm"))
    var maxHeartRate: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Steps taken during the workout.", valueName: "count"))
    var steps: Int?

    @Flag(help: "Done indoors (a treadmill, a trainer, a gym).")
    var indoor = false

    @Flag(help: "Done outdoors.")
    var outdoor = false

    /// `--indoor` or `--outdoor`, when one was given.
    var location: WorkoutLocation? { indoor ? .indoor : outdoor ? .outdoor : nil }

    /// The request fields of the detail by the option that sets them.
    static let fieldOptions = [
        "workout.distance_m": "--km", "workout.elevation_gain_m": "--climb", "workout.average_heart_rate": "--avg-hr",
        "workout.max_heart_rate": "--max-hr", "workout.steps": "--steps",
    ]

    @OptionGroup var output: OutputOptions

    /// Checks the values against the server's bounds, said as typed (``InputBounds``).
    func checkBounds() throws(CLIError) {
        try InputBounds.minutes(minutes)
        if indoor, outdoor { throw CLIError(.invalidInput, "invalid input: give --indoor or --outdoor, not both") }
        if let calories { try InputBounds.workoutCalories(calories) }
        try InputBounds.exercises(exercises)
        if let km, !km.isFinite || km <= 0 || km > 1_000 {
            throw CLIError(.invalidInput, "invalid input: --km must be above 0 and at most 1,000 (got \(Format.number(km, decimals: 3)))")
        }
        try InputBounds.workoutText(type: type, typeName: "the kind of workout", notes: notes)
        if let at { try InputBounds.time(at, now: Date(), in: MemberZone.stored().zone) }
    }

    func run() async throws {
        try checkBounds()
        let session = try SignedInSession()
        defer { session.close() }
        // `--at` is read in the member's zone.
        let member = await session.memberZone()
        let zone = member.zone
        let now = Date()
        var workout = Workout(
            type: type, durationSeconds: Int(min((minutes * 60).rounded(), 1e9)), caloriesBurned: calories ?? 0,
            exercisesCompleted: exercises, performedAt: at?.resolve(now: now, in: zone) ?? now,
            timeZone: member.identifier, notes: notes)
        workout.distanceM = km.map { ($0 * 1_000).rounded() }
        workout.elevationGainM = climb
        workout.averageHeartRate = averageHeartRate
        workout.maxHeartRate = maxHeartRate
        workout.steps = steps
        workout.location = location
        let delivered = try await session.deliver(.logWorkout(workout), action: "log workouts", fieldOptions: Self.fieldOptions)
        guard case .sent(.loggedWorkout(let logged)) = delivered.delivery else {
            if case .queued(let queued, let reason) = delivered.delivery {
                try delivered.printQueued(
                    queued, reason: reason, json: output.json,
                    noun: "workout (\(workout.type), \(Format.duration(seconds: workout.durationSeconds)))", zone: member)
            }
            return
        }
        if output.json {
            try Output.printJSON(logged)
            return
        }
        let stored = logged.workout
        var parts = [Format.duration(seconds: stored.durationSeconds)]
        if stored.caloriesBurned > 0 { parts.append(Format.kcal(stored.caloriesBurned)) }
        if stored.exercisesCompleted > 0 { parts.append(Format.count(stored.exercisesCompleted, "exercise")) }
        parts += Describe.workoutDetail(stored)
        Output.line("Logged \(stored.type): \(parts.joined(separator: ", ")), at \(Format.dateTime(stored.performedAt, in: zone))\(logged.replayed ? " (it was logged already)" : "").")
        Output.line("Now \(Describe.totals(logged.totals)).")
        for achievement in logged.unlocked {
            Output.line("Achievement unlocked: \(Describe.achievement(achievement))")
        }
        member.printNote()
    }
}

