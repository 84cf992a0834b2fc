import Foundation
import WorkoutClient
import WorkoutOffline

/// The member's outbox: `outbox.log` beside `credentials.json` in the configuration directory,
/// holding the writes `workout log` queued while the server could not be reached, for the
/// account signed in when they were made.
enum MemberOutbox {
    /// The outbox's path in `store`'s directory.
    static func path(in store: CredentialStore) -> String {
        store.directory + "/outbox.log"
    }

    /// The account an outbox belongs to: the member's email (lower-cased) and server.
    static func account(of credentials: Credentials) -> String {
        "\(credentials.email.lowercased()) on \(credentials.server)"
    }

    /// Opens the signed-in member's outbox (creating it).
    ///
    /// - Parameters:
    ///   - credentials: The stored session.
    ///   - store: Where it is kept.
    /// - Throws: ``CLIError`` when the outbox holds another account's writes, is in use by
    ///   another `workout`, or cannot be read or written.
    static func open(for credentials: Credentials, in store: CredentialStore) throws(CLIError) -> Outbox {
        do {
            return try openOutbox(for: credentials, in: store)
        } catch {
            throw cliError(error)
        }
    }

    /// Opens the signed-in member's outbox (creating it), failing as the client library does.
    ///
    /// - Throws: ``WorkoutError``: `FAILED_PRECONDITION` when it holds another account's writes
    ///   (``holdsOtherAccount(_:)``) or another `workout` keeps it for 30 s; `INTERNAL`.
    static func openOutbox(for credentials: Credentials, in store: CredentialStore) throws(WorkoutError) -> Outbox {
        try Outbox(path: path(in: store), account: account(of: credentials), lockTimeout: .seconds(30))
    }

    /// Whether opening the outbox failed because it holds the writes of another account.
    static func holdsOtherAccount(_ error: WorkoutError) -> Bool {
        error.code == .failedPrecondition && error.message.contains(" holds writes of ")
    }

    /// The message and exit status for an outbox that cannot be opened.
    static func cliError(_ error: WorkoutError) -> CLIError {
        CLIError(.failure, error.code == .failedPrecondition ? error.message : "cannot use the outbox: \(error.message)")
    }

    /// Whether the outbox file exists (so that `status` does not create one).
    static func exists(in store: CredentialStore) -> Bool {
        FileManager.default.fileExists(atPath: path(in: store))
    }
}
