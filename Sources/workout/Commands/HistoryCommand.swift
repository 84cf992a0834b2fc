import ArgumentParser
import Foundation
import WorkoutClient

/// `workout history`: workouts, newest first.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List your workouts, newest first.",
        discussion: """
            --type running lists only that kind of workout (the kind as logged, in any case). The \
            ID column is what `workout edit workout ID` and `workout delete workout ID` take.
            """)

    @Option(parsing: .unconditional, help: ArgumentHelp("How many workouts to show.", valueName: "count"))
    var limit: Int = 20

    @Flag(help: "Show every workout.")
    var all = false

    @Option(help: ArgumentHelp("Only workouts of this kind, e.g. running.", valueName: "type"))
    var type: String?

    /// How many workouts to ask for per call (1 through 100); hidden, for tests of paging.
    @Option(name: .customLong("page-size"), parsing: .unconditional, help: ArgumentHelp(visibility: .hidden))
    var pageSize: Int = 100

    @OptionGroup var output: OutputOptions

    /// What `--json` prints.
    struct Report: Encodable {
        /// The workouts, newest first.
        var workouts: [Workout]
        /// Whether older ones were left out (by `--limit`).
        var hasMore: Bool
    }

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be 1 or more") }
        guard (1...100).contains(pageSize) else { throw ValidationError("--page-size must be 1 through 100") }
    }

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let (all, limit, pageSize) = (self.all, self.limit, self.pageSize)
        let wanted = type.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let report = try await session.run("see your workouts") { client throws(WorkoutError) in
            var workouts: [Workout] = []
            var token: PageToken?
            repeat {
                // Filtered by kind, every page may hold few matches: ask for full pages then.
                let size = all || wanted != nil ? pageSize : min(pageSize, limit - workouts.count)
                let page = try await client.workoutHistory(pageSize: size, pageToken: token)
                workouts += page.items.filter { wanted == nil || $0.type.lowercased() == wanted }
                token = page.nextPageToken
            } while token != nil && (all || workouts.count < limit)
            return Report(workouts: all ? workouts : Array(workouts.prefix(limit)), hasMore: token != nil || workouts.count > limit)
        }
        if output.json {
            try Output.printJSON(report)
            return
        }
        guard !report.workouts.isEmpty else {
            if let type {
                Output.line("No \(type) workouts.")
                return
            }
            Output.line("No workouts yet. Log one with `workout log workout running --minutes 30`.")
            return
        }
        let member = await session.memberZone()
        let zone = member.zone
        let ids = ShortID.prefixes(report.workouts.map(\.id))
        var table = Table([
            .init("ID"), .init("When"), .init("Type"), .init("Duration", .right), .init("Burned", .right), .init("Exercises", .right), .init("Notes"),
        ])
        for workout in report.workouts {
            table.append([
                ids[workout.id] ?? "", Format.dateTime(workout.performedAt, in: zone), workout.type, Format.duration(seconds: workout.durationSeconds),
                Format.kcal(workout.caloriesBurned), String(workout.exercisesCompleted), workout.notes,
            ])
        }
        Output.lines(table.render())
        if report.hasMore {
            Output.line("(the \(Format.count(report.workouts.count, "newest workout", "newest workouts")); see more with --limit N or --all)")
        }
        member.printNote()
    }
}
