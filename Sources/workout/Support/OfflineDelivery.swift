import Foundation
import WorkoutClient
import WorkoutOffline

/// Where a `workout log` write went: to the server, or into the member's outbox because the
/// server could not be reached (or earlier writes still wait there).
struct OfflineDelivery {
    /// Where it went.
    let delivery: WorkoutClient.Delivery
    /// How many writes wait in the outbox after it.
    let pending: Int
    /// The server.
    let server: String

    /// What `--json` prints for a queued write.
    struct QueuedReport: Encodable {
        /// Always true: the write was not sent.
        var queued = true
        /// `queued`, `folded` (into a waiting write of the same record), `cancelled` (a waiting
        /// write was removed) or `alreadyQueued`.
        var outcome: String
        /// The waiting entry that holds the write (none when cancelled).
        var entry: PendingEntryReport?
        /// Why it was not sent.
        var reason: Reason?
        /// How many writes wait.
        var pending: Int
        /// The server it waits for.
        var server: String
    }

    /// Why a write was not sent, as `--json` prints it.
    struct Reason: Encodable {
        /// The status name, e.g. `UNAVAILABLE`.
        var status: String
        /// The explanation.
        var message: String
    }

    /// Prints what became of a write that was not sent: text, or `--json`.
    ///
    /// - Parameters:
    ///   - queued: What the outbox did with it.
    ///   - reason: Why it was not sent.
    ///   - json: Whether to print JSON.
    ///   - noun: The record for people, e.g. `workout (running, 30 min)`.
    ///   - zone: The member's zone (its note ends the text).
    func printQueued(_ queued: Outbox.Queued, reason: WorkoutError?, json: Bool, noun: String, zone: MemberZone) throws(CLIError) {
        let outcome: String
        let entry: OutboxEntry?
        switch queued {
        case .queued(let waiting): (outcome, entry) = ("queued", waiting)
        case .folded(let waiting): (outcome, entry) = ("folded", waiting)
        case .cancelled: (outcome, entry) = ("cancelled", nil)
        case .alreadyQueued(let waiting): (outcome, entry) = ("alreadyQueued", waiting)
        }
        if json {
            try Output.printJSON(QueuedReport(
                outcome: outcome, entry: entry.map(PendingEntryReport.init(entry:)),
                reason: reason.map { Reason(status: $0.code.name, message: $0.message) }, pending: pending, server: server))
            return
        }
        if case .cancelled(let removed) = queued {
            Output.line("Cancelled #\(removed.id) in the outbox, the \(noun) that was never sent: nothing is sent for it. \(Format.count(pending, "write")) \(pending == 1 ? "waits" : "wait") in the outbox.")
            zone.printNote()
            return
        }
        if let entry, let refusal = entry.refusal {
            let reason = RefusedWrite.message(refusal, of: entry.write, server: server, zone: zone.zone)
            Output.line("Not sent: the server refused the \(noun): \(reason). It waits in the outbox as #\(entry.id); `workout sync --discard \(entry.id)` drops it.")
            zone.printNote()
            return
        }
        let why = reason.map { CLIError($0, context: .init(server: server, action: "log")).message } ?? "earlier writes wait"
        Output.line("Queued offline (\(why)).")
        let kept: String =
            switch queued {
            case .queued: "The \(noun) is kept on this machine as #\(entry?.id ?? 0); `workout sync` sends it."
            case .folded, .alreadyQueued: "The \(noun) replaces what waited as #\(entry?.id ?? 0); `workout sync` sends it."
            case .cancelled: ""  // printed above
            }
        Output.line("\(kept) \(Format.count(pending, "write")) \(pending == 1 ? "waits" : "wait") in the outbox.")
        zone.printNote()
    }
}

extension OfflineDelivery {
    /// Prints what became of an edit or delete of a record that waited in the outbox: folded
    /// into the waiting write, cancelling it, or sent with the writes that waited.
    ///
    /// - Parameters:
    ///   - json: Whether to print JSON.
    ///   - noun: The record for people, e.g. `workout 0190a3c4 (running, 30 min)`.
    ///   - zone: The member's zone (its note ends the text).
    func printOutcome(json: Bool, noun: String, zone: MemberZone) throws(CLIError) {
        switch delivery {
        case .queued(let queued, let reason):
            try printQueued(queued, reason: reason, json: json, noun: noun, zone: zone)
        case .sent(let answer):
            if json {
                try Output.printJSON(SentWriteReport(answer: answer))
            } else {
                Output.line("Sent the \(noun) to the server with the writes that waited.")
                zone.printNote()
            }
        }
    }
}

extension SignedInSession {
    /// Makes `write` on the server, or queues it in the member's outbox when the server cannot be
    /// reached (see ``WorkoutClient/perform(_:queueingIn:)``).
    ///
    /// - Parameters:
    ///   - write: The write.
    ///   - action: What the command does, for messages.
    /// - Returns: Where it went.
    /// - Throws: ``CLIError``: the server's refusal of a write sent directly; the outbox's errors
    ///   (full, in use, another account's).
    func deliver(_ write: PendingWrite, action: String, fieldOptions: [String: String] = [:]) async throws(CLIError) -> OfflineDelivery {
        let outbox: Outbox
        do {
            outbox = try MemberOutbox.openOutbox(for: credentials, in: store)
        } catch where MemberOutbox.holdsOtherAccount(error) {
            // The outbox waits for another account: this write goes to the server or fails, never
            // into that outbox.
            Output.message("workout: note: \(error.message)")
            let answer = try await run(action, fieldOptions: fieldOptions) { client throws(WorkoutError) in try await client.send(write) }
            return OfflineDelivery(delivery: .sent(answer), pending: 0, server: address.description)
        } catch {
            throw MemberOutbox.cliError(error)
        }
        defer { outbox.close() }
        do {
            let delivery = try await client.perform(write, queueingIn: outbox)
            return OfflineDelivery(delivery: delivery, pending: outbox.count, server: address.description)
        } catch where error.message.hasPrefix("the outbox") {
            throw CLIError(ExitStatus.forStatus(error.code), error.message)
        } catch {
            throw CLIError(error, context: .init(server: address.description, action: action, fieldOptions: fieldOptions))
        }
    }
}
