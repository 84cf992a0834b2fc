import ArgumentParser
import Foundation
import WorkoutClient
import WorkoutOffline

/// `workout sync`: sends the writes `workout log` queued while the server could not be reached,
/// in order, and reports each: sent, replayed (it had reached the server before), refused (with
/// the server's reason; it stays queued), or held behind a refused write of the same record.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Send the writes queued while the server could not be reached, and show what became of each.",
        discussion: """
            A write the server refuses stays queued with its reason: drop it with --discard ID, or \
            send it again with --retry ID (after fixing what the reason says, e.g. signing in again). \
            `workout status` lists what waits. Exits 0 when nothing waits afterwards.
            """)

    @Option(name: .customLong("discard"), help: ArgumentHelp("Drop the queued write with this number (from `workout status`) without sending it; repeat for several.", valueName: "id"))
    var discard: [UInt64] = []

    @Option(name: .customLong("retry"), help: ArgumentHelp("Send the refused write with this number again; repeat for several.", valueName: "id"))
    var retry: [UInt64] = []

    @Flag(help: "Send every refused write again.")
    var retryAll = false

    @OptionGroup var output: OutputOptions

    /// What `--json` prints.
    struct Report: Encodable {
        /// The server.
        var server: String
        /// Writes dropped with --discard.
        var discarded: [PendingEntryReport]
        /// Each write handled, in order.
        var results: [Result]
        /// Why the sync stopped early, if it did.
        var stoppedBy: OfflineDelivery.Reason?
        /// What still waits.
        var remaining: [PendingEntryReport]
        /// Whether nothing waits.
        var complete: Bool
    }

    /// One write and what became of it.
    struct Result: Encodable {
        /// The write.
        var entry: PendingEntryReport
        /// `sent`, `replayed`, `refused` or `held`.
        var outcome: String
        /// The server's answer, when sent.
        var answer: SentWriteReport?
        /// The server's reason, when refused.
        var refusal: WriteRefusal?
        /// The refused write it waits behind, when held.
        var heldBehind: UInt64?
    }

    func run() async throws {
        let session = try SignedInSession()
        defer { session.close() }
        let member = await session.memberZone()
        let zone = member.zone
        let outbox = try MemberOutbox.open(for: session.credentials, in: session.store)
        defer { outbox.close() }
        var discarded: [OutboxEntry] = []
        do {
            for id in discard { discarded.append(try outbox.discard(id)) }
            let retrying = retryAll ? outbox.entries.filter { $0.refusal != nil }.map(\.id) : retry
            for id in retrying { try outbox.retry(id) }
        } catch {
            throw CLIError(ExitStatus.forStatus(error.code), error.message)
        }
        let report = outbox.isEmpty
            ? SyncReport(results: [], stoppedBy: nil, remaining: [])
            : await outbox.sync(using: session.client)
        let server = session.address.description
        if output.json {
            try Output.printJSON(Report(
                server: server, discarded: discarded.map(PendingEntryReport.init(entry:)),
                results: report.results.map(Self.result), stoppedBy: report.stoppedBy.map { OfflineDelivery.Reason(status: $0.code.name, message: $0.message) },
                remaining: report.remaining.map(PendingEntryReport.init(entry:)), complete: report.isComplete))
        } else {
            printText(report, discarded: discarded, server: server, zone: zone)
            member.printNote()
        }
        if let stop = report.stoppedBy {
            let reason = CLIError(stop, context: .init(server: server, action: "sync"))
            throw CLIError(reason.status, "\(reason.message); \(Format.count(report.remaining.count, "write")) still \(report.remaining.count == 1 ? "waits" : "wait") in the outbox")
        }
        if let refused = report.remaining.first(where: { $0.refusal != nil }), let refusal = refused.refusal {
            let count = report.remaining.filter { $0.refusal != nil }.count
            throw CLIError(ExitStatus.forStatus(refusal.code), "the server refused \(Format.count(count, "write")); see `workout status`, then --discard or --retry")
        }
    }

    /// A result for `--json`.
    static func result(_ result: SyncReport.Result) -> Result {
        let entry = PendingEntryReport(entry: result.entry)
        switch result.outcome {
        case .sent(let answer):
            return Result(entry: entry, outcome: answer.replayed ? "replayed" : "sent", answer: SentWriteReport(answer: answer))
        case .refused(let refusal):
            return Result(entry: entry, outcome: "refused", refusal: refusal)
        case .held(let behind):
            return Result(entry: entry, outcome: "held", heldBehind: behind)
        }
    }

    /// Prints the report for people.
    private func printText(_ report: SyncReport, discarded: [OutboxEntry], server: String, zone: TimeZone) {
        for entry in discarded {
            Output.line("#\(entry.id) discarded: \(PendingEntryReport.describe(entry.write))")
        }
        if report.results.isEmpty {
            if report.stoppedBy != nil {
                Output.line("Nothing sent; \(Format.count(report.remaining.count, "write")) still \(report.remaining.count == 1 ? "waits" : "wait").")
            } else {
                Output.line(report.remaining.isEmpty ? "Nothing to sync: the outbox is empty." : "Nothing could be sent; \(Format.count(report.remaining.count, "write")) \(report.remaining.count == 1 ? "waits" : "wait") (see `workout status`).")
            }
            return
        }
        var sent = 0
        var replayed = 0
        var refused = 0
        for result in report.results {
            let write = PendingEntryReport.describe(result.entry.write)
            switch result.outcome {
            case .sent(let answer):
                sent += 1
                if answer.replayed { replayed += 1 }
                Output.line("#\(result.entry.id) \(answer.replayed ? "replayed (it had reached the server before; applied once)" : "sent"): \(write)")
            case .refused(let refusal):
                refused += 1
                let reason = RefusedWrite.message(refusal, of: result.entry.write, server: server, zone: zone)
                Output.line("#\(result.entry.id) refused: \(write)\n      \(reason)\n      `workout sync --discard \(result.entry.id)` drops it; `--retry \(result.entry.id)` sends it again")
            case .held(let behind):
                Output.line("#\(result.entry.id) held: \(write) waits behind refused #\(behind)")
            }
        }
        var summary = "Sent \(sent)"
        if replayed > 0 { summary += " (\(replayed) replayed)" }
        if refused > 0 { summary += ", refused \(refused)" }
        summary += report.remaining.isEmpty ? "; the outbox is empty." : "; \(Format.count(report.remaining.count, "write")) still \(report.remaining.count == 1 ? "waits" : "wait")."
        Output.line(summary)
    }
}
