import ArgumentParser
import Foundation
import WorkoutClient

/// `workout log steps`: reports a day's step count; queues it in the outbox when the server
/// cannot be reached.
struct LogStepsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "steps",
        abstract: "Report a day's step count (a later report from the same source replaces it; the day counts your most trusted source, else the highest: profile set --steps-sources).",
        discussion: "Example: workout log steps 8500 --day yesterday. To correct a day, report it again from the same --source; to clear that source's day, report 0.")

    @Argument(help: ArgumentHelp("The number of steps.", valueName: "steps"))
    var steps: Int

    @Option(help: ArgumentHelp("The day, YYYY-MM-DD, today or yesterday (default: today).", valueName: "day"),
            transform: DayArgument.init(parsing:))
    var day: DayArgument?

    @Option(help: ArgumentHelp("Where the count comes from, e.g. phone, watch.", valueName: "name"))
    var source: String = "cli"

    @OptionGroup var output: OutputOptions

    func run() async throws {
        // The server's bounds, said as typed (``InputBounds``).
        try InputBounds.steps(steps, source: source)
        let session = try SignedInSession()
        defer { session.close() }
        // `today` and `yesterday` are the member's.
        let member = await session.memberZone()
        let today = member.today()
        let report = StepsReport(day: day?.resolve(today: today) ?? today, source: source, steps: steps)
        let delivered = try await session.deliver(.reportSteps(report), action: "report steps")
        guard case .sent(.reportedSteps(let update)) = delivered.delivery else {
            if case .queued(let queued, let reason) = delivered.delivery {
                try delivered.printQueued(queued, reason: reason, json: output.json, noun: "steps report (\(report.day): \(Format.grouped(steps)))", zone: member)
            }
            return
        }
        if output.json {
            try Output.printJSON(update)
            return
        }
        let counted = update.day
        let from = counted.countedSource.map { $0 == source ? "" : ", the day counts \($0)'s" } ?? ""
        Output.line("\(counted.day): \(Format.count(counted.steps, "step")) counted (\(source) reported \(Format.grouped(steps))\(update.applied ? "" : ", no change")\(from)).")
        for achievement in update.unlocked { Output.line("Achievement unlocked: \(Describe.achievement(achievement))") }
        member.printNote()
    }
}
