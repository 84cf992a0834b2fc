import Foundation
import WorkoutClient

/// The member's stored session, as a connected client: what every command but `login` and
/// `register` works with.
struct SignedInSession {
    /// The stored credentials.
    let credentials: Credentials
    /// The server.
    let address: ServerAddress
    /// The client, resuming the stored token.
    let client: WorkoutClient
    /// Where the credentials are kept.
    let store: CredentialStore

    /// Opens the stored session (nothing is sent until the first call).
    ///
    /// - Parameter store: Where the credentials are kept.
    /// - Throws: ``CLIError`` `notSignedIn` without stored credentials; when they cannot be read.
    init(store: CredentialStore = CredentialStore()) throws(CLIError) {
        guard let credentials = try store.load() else { throw CLIError.notSignedIn }
        try self.init(credentials: credentials, store: store)
    }

    /// Opens the session `credentials` hold (nothing is sent until the first call).
    ///
    /// - Parameters:
    ///   - credentials: Credentials already loaded from `store`.
    ///   - store: Where they are kept.
    /// - Throws: ``CLIError`` when the stored server address is malformed.
    init(credentials: Credentials, store: CredentialStore) throws(CLIError) {
        self.credentials = credentials
        self.address = try credentials.address()
        self.client = ClientFactory.client(for: address, token: credentials.sessionToken)
        self.store = store
    }

    /// Runs one or more calls; a failure becomes a ``CLIError`` that says what to do.
    ///
    /// - Parameters:
    ///   - action: What the command does, for "only household admins can …".
    ///   - fieldOptions: Request fields by the option of this command that sets them, where
    ///     they differ from the usual ones (see ``CLIError/Context/fieldOptions``).
    ///   - checksPassword: Whether the calls check the member's password, so that
    ///     `PERMISSION_DENIED` means a wrong one.
    ///   - quotesRefusals: Whether `PERMISSION_DENIED` is shown in the server's words (see
    ///     ``CLIError/Context/quotesRefusals``).
    ///   - body: The calls.
    /// - Returns: What `body` returns.
    func run<R>(
        _ action: String, fieldOptions: [String: String] = [:], checksPassword: Bool = false, quotesRefusals: Bool = false,
        _ body: (WorkoutClient) async throws(WorkoutError) -> R
    ) async throws(CLIError) -> R {
        do {
            return try await body(client)
        } catch {
            throw CLIError(error, context: .init(
                server: address.description, action: action, checksPassword: checksPassword, quotesRefusals: quotesRefusals,
                fieldOptions: fieldOptions))
        }
    }

    /// Closes the connection.
    func close() {
        client.close()
    }
}
