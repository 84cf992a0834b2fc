import ArgumentParser
import Foundation
import WorkoutClient
import WorkoutOffline

/// `workout status`: the server (and whether it can be reached), the session, and the writes
/// waiting in the outbox.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the server, your session, and the writes waiting to be sent (`workout sync` sends them).")

    @OptionGroup var output: OutputOptions

    /// What `--json` prints.
    struct Report: Encodable {
        /// The server, `host:port` (`nil` when not signed in).
        var server: String?
        /// Whether the server answered.
        var reachable: Bool
        /// Why it could not be reached or refused the session, if so.
        var serverError: OfflineDelivery.Reason?
        /// Whether credentials are stored.
        var signedIn: Bool
        /// The member's email.
        var email: String?
        /// When the session started.
        var signedInAt: Date?
        /// `valid`, `ended` (the server refused it) or `unknown` (the server cannot be reached).
        var session: String?
        /// The writes waiting, oldest first.
        var pending: [PendingEntryReport]
        /// How many of them the server refused.
        var refused: Int
        /// Why the outbox could not be read, if so (in use by a sync, another account's).
        var outboxError: String?
    }

    func run() async throws {
        let store = CredentialStore()
        guard let credentials = try store.load() else {
            if output.json {
                try Output.printJSON(Report(reachable: false, signedIn: false, pending: [], refused: 0))
            } else {
                Output.line("Not signed in. Run `workout login`; logging offline needs a session from an earlier login.")
            }
            return
        }
        let session = try SignedInSession(credentials: credentials, store: store)
        defer { session.close() }
        var reachable = false
        var state = "unknown"
        var serverError: WorkoutError?
        var member = session.storedZone
        do {
            let profile = try await session.client.profile().profile
            session.remember(profile)
            member = MemberZone(profileZone: profile.timeZone)
            (reachable, state) = (true, "valid")
        } catch {
            serverError = error
            switch error.code {
            case .unavailable, .deadlineExceeded, .cancelled: break
            case .unauthenticated: (reachable, state) = (true, "ended")
            default: reachable = true
            }
        }
        var pending: [OutboxEntry] = []
        var outboxError: String?
        if MemberOutbox.exists(in: store) {
            do {
                let outbox = try Outbox(path: MemberOutbox.path(in: store), account: MemberOutbox.account(of: credentials), lockTimeout: .seconds(2))
                pending = outbox.entries
                outbox.close()
            } catch {
                outboxError = error.message
            }
        }
        let refused = pending.filter { $0.refusal != nil }.count
        if output.json {
            try Output.printJSON(Report(
                server: credentials.server, reachable: reachable,
                serverError: serverError.map { OfflineDelivery.Reason(status: $0.code.name, message: $0.message) },
                signedIn: true, email: credentials.email, signedInAt: credentials.signedInAt, session: state,
                pending: pending.map(PendingEntryReport.init(entry:)), refused: refused, outboxError: outboxError))
            return
        }
        let zone = member.zone
        let serverLine: String =
            if reachable { "\(credentials.server) (reachable)" }
            else { "\(credentials.server) (cannot be reached: \(serverError.map { CLIError($0, context: .init(server: credentials.server, action: "answer")).message } ?? "no answer"))" }
        var since = ""
        if let signedInAt = credentials.signedInAt { since = ", signed in \(Format.dateTime(signedInAt, in: zone))" }
        let sessionLine: String =
            switch state {
            case "valid": "\(credentials.email)\(since): valid"
            case "ended": "\(credentials.email)\(since): ended on the server; run `workout login` (queued writes stay for that account)"
            default: "\(credentials.email)\(since): not checked (the server cannot be reached); writes are queued offline"
            }
        var lines = ["Server:   \(serverLine)", "Session:  \(sessionLine)"]
        if let outboxError {
            lines.append("Outbox:   \(outboxError)")
        } else if pending.isEmpty {
            lines.append("Outbox:   empty; nothing waits to be sent")
        } else {
            var summary = "Outbox:   \(Format.count(pending.count, "write")) \(pending.count == 1 ? "waits" : "wait") to be sent"
            if refused > 0 { summary += " (\(refused) refused by the server)" }
            lines.append(summary + "; `workout sync` sends them")
            lines += pending.map { "  " + PendingEntryReport.line($0, server: credentials.server, zone: zone) }
        }
        Output.lines(lines)
        member.printNote()
    }
}
