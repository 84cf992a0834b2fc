import ArgumentParser
import Foundation
import WorkoutClient

/// `workout edit weight ID …`: changes a logged weigh-in.
struct EditWeightCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weight",
        abstract: "Change a weigh-in: its weight, time or note; the newest one is also your profile's weight.")

    @Argument(help: ArgumentHelp("The weigh-in's ID, or its first or last 4 or more hex digits (the last tell records made together apart).", valueName: "id"),
              transform: RecordIDPrefix.init(parsing:))
    var id: RecordIDPrefix

    @Option(parsing: .unconditional, help: ArgumentHelp("The weight in kilograms.", valueName: "kg"))
    var weight: Double?

    @Option(help: TimeHelp.at, transform: TimeArgument.init(parsing:))
    var at: TimeArgument?

    @Option(help: "A note (\"\" for none).")
    var note: String?

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let weight { guard weight.isFinite else { throw ValidationError("--weight must be a number of kilograms, e.g. 72.4") } }
    }

    /// Checks the values against the server's bounds, said as typed (``InputBounds``).
    func checkBounds() throws(CLIError) {
        if let weight { try InputBounds.weight(weight, "--weight") }
        if let note { try InputBounds.weightNote(note) }
        if let at { try InputBounds.time(at, now: Date(), in: MemberZone.stored().zone) }
    }

    /// `entry` with the options' changes.
    func edited(_ entry: WeightEntry, now: Date, zone: MemberZone) -> WeightEntry {
        var entry = entry
        if let weight { entry.weightKg = weight }
        if let at {
            entry.measuredAt = at.resolve(now: now, in: zone.zone)
            entry.timeZone = zone.identifier
        }
        if let note { entry.note = note }
        return entry
    }

    func run() async throws {
        // Here, not in validate(): ArgumentParser validates before it reports an unknown
        // option, which would then read as "nothing to change".
        guard weight != nil || at != nil || note != nil else {
            throw ValidationError("nothing to change; give at least one of --weight, --at, --note")
        }
        try checkBounds()
        let session = try SignedInSession()
        defer { session.close() }
        let member = await session.memberZone()
        if case .weight(let queued)? = try session.queuedRecord(.weight, id) {
            // Logged or edited offline and not sent yet: the edit is folded into the waiting write.
            let changed = edited(queued, now: Date(), zone: member)
            let delivered = try await session.deliver(.updateWeight(changed, expectedRevision: nil), action: "change your weigh-ins")
            try delivered.printOutcome(json: output.json, noun: "weigh-in \(Format.id(changed.id)) (\(FoundRecord.weight(changed).summary(in: member.zone)))", zone: member)
            return
        }
        guard case .weight(let entry) = try await RecordFinder.find(.weight, id, in: session) else {
            throw CLIError(.failure, "the search for a weigh-in found another kind of record")
        }
        let changed = edited(entry, now: Date(), zone: member)
        let updated = try await session.run("change your weigh-ins", fieldOptions: ["entry.weight_kg": "--weight"]) {
            client throws(WorkoutError) in try await client.updateWeight(changed, expectedRevision: entry.revision)
        }
        if output.json {
            try Output.printJSON(updated)
            return
        }
        Output.line("Updated the weigh-in \(Format.id(entry.id)): \(FoundRecord.weight(updated.entry).summary(in: member.zone)).")
        if updated.profileWeightUpdated {
            Output.line("Your profile's weight is now \(updated.profileWeightKg > 0 ? Format.kilograms(updated.profileWeightKg) : "not stated").")
        }
        member.printNote()
    }
}
