import ArgumentParser
import Foundation
import WorkoutClient
import WorkoutOffline

/// `workout delete workout|meal|weight ID`: deletes one of the member's records by its ID or
/// a unique prefix of it.
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a workout, a meal or a weigh-in by its ID.",
        discussion: """
            The ID is as the ID column of `workout history` and `workout today` shows it, as \
            `workout history --json`, `workout today --json` or `workout weight --json` print it, or \
            its first or last 4 or more hex digits when no other record of the kind starts or ends with them (a time-ordered ID's first digits are its time; its last tell records apart). A workout's points come off your totals; streaks and achievements are \
            counted again. A record logged offline that still waits in the outbox is taken out of it: \
            nothing is sent for it. Example: workout delete workout 0190a5b2
            """)

    @Argument(help: ArgumentHelp("What to delete: workout, meal or weight.", valueName: "kind"))
    var kind: RecordKindArgument

    @Argument(help: ArgumentHelp("Its ID, or its first or last 4 or more hex digits (the last tell records made together apart).", valueName: "id"),
              transform: RecordIDPrefix.init(parsing:))
    var id: RecordIDPrefix

    @OptionGroup var output: OutputOptions

    /// What `--json` prints.
    struct Report: Encodable {
        /// The kind: workout, meal or weight.
        var kind: String
        /// The record as it was.
        var deleted: FoundRecord
        /// The member's totals after the deletion (workouts only).
        var totals: Totals?
    }

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let member = await session.memberZone()
        let kind = self.kind
        if let queued = try session.queuedRecord(kind, id) {
            // Logged or edited offline and not sent yet: a waiting log is cancelled (nothing is
            // sent for the record); a waiting edit is replaced by the delete.
            let write: PendingWrite =
                switch queued {
                case .workout(let workout): .deleteWorkout(workout.id)
                case .meal(let meal): .deleteMeal(meal.id)
                case .weight(let entry): .deleteWeight(entry.id)
                }
            let delivered = try await session.deliver(write, action: "delete your \(kind.noun)s")
            try delivered.printOutcome(json: output.json, noun: "\(kind.noun) \(Format.id(queued.id)) (\(queued.summary(in: member.zone)))", zone: member)
            return
        }
        let record = try await RecordFinder.find(kind, id, in: session)
        let (existed, totals) = try await session.run("delete your \(kind.noun)s") { client throws(WorkoutError) -> (Bool, Totals?) in
            switch record {
            case .workout(let workout):
                let deleted = try await client.deleteWorkout(workout.id)
                return (deleted.deleted, deleted.totals)
            case .meal(let meal):
                return (try await client.deleteMeal(meal.id).deleted, nil)
            case .weight(let entry):
                return (try await client.deleteWeight(entry.id).deleted, nil)
            }
        }
        guard existed else {
            // Deleted meanwhile, from another device.
            throw CLIError(.notFound, "the \(kind.noun) \(Format.id(record.id)) was deleted already")
        }
        if output.json {
            try Output.printJSON(Report(kind: kind.rawValue, deleted: record, totals: totals))
            return
        }
        Output.line("Deleted the \(kind.noun) \(Format.id(record.id)): \(record.summary(in: member.zone)).")
        if let totals {
            Output.line("Now \(Describe.totals(totals)).")
        }
        member.printNote()
    }
}
