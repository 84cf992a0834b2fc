import ArgumentParser
import Foundation
import WorkoutClient

/// `workout log weight`: logs a weigh-in; queues it in the outbox when the server cannot be reached.
struct LogWeightCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weight",
        abstract: "Log a weigh-in, in kilograms; the newest one is also your profile's weight.",
        discussion: "Example: workout log weight 72.4 --at 07:00")

    @Argument(help: ArgumentHelp("Your weight in kilograms, e.g. 72.4.", valueName: "kg"))
    var weight: Double

    @Option(help: TimeHelp.at, transform: TimeArgument.init(parsing:))
    var at: TimeArgument?

    @Option(help: "A note, e.g. \"after the holidays\".")
    var note: String = ""

    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard weight.isFinite else { throw ValidationError("the weight must be a number of kilograms, e.g. 72.4") }
    }

    /// Checks the values against the server's bounds, said as typed (``InputBounds``).
    func checkBounds() throws(CLIError) {
        try InputBounds.weight(weight, "the weight")
        try InputBounds.weightNote(note)
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
        let entry = WeightEntry(
            weightKg: weight, measuredAt: at?.resolve(now: now, in: zone) ?? now, timeZone: member.identifier, note: note)
        let delivered = try await session.deliver(.logWeight(entry), action: "log weight")
        guard case .sent(.loggedWeight(let logged)) = delivered.delivery else {
            if case .queued(let queued, let reason) = delivered.delivery {
                try delivered.printQueued(queued, reason: reason, json: output.json, noun: "weigh-in (\(Format.kilograms(weight)))", zone: member)
            }
            return
        }
        if output.json {
            try Output.printJSON(logged)
            return
        }
        let stored = logged.entry
        var text = "Logged \(Format.kilograms(stored.weightKg)) at \(Format.dateTime(stored.measuredAt, in: zone))"
        if !stored.note.isEmpty { text += " (\(stored.note))" }
        if logged.replayed { text += "; it was logged already" }
        Output.line(text + ".")
        if logged.profileWeightUpdated {
            Output.line("Your profile's weight is now \(Format.kilograms(stored.weightKg)).")
        }
        member.printNote()
    }
}
