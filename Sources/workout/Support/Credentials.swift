import Foundation
import WorkoutClient

/// What `workout login` keeps between runs: the server, the member's email and their
/// session token. Never the password.
///
/// Stored as `credentials.json` in the configuration directory (see ``CredentialStore``):
///
/// ```json
/// {"email": "ada@example.com", "server": "homeserver.local:7420",
///  "sessionToken": "<base64 of 32 bytes>", "signedInAt": "2025-06-01T07:30:00Z",
///  "timeZone": "Europe/Berlin"}
/// ```
struct Credentials: Codable, Sendable, Equatable {
    /// The server, `host:port`.
    var server: String
    /// The member's email, as they typed it at login.
    var email: String
    /// The session token, base64 in the file.
    var sessionToken: SessionToken
    /// When the session started.
    var signedInAt: Date?
    /// The member's profile zone as last seen from the server (login, register, `whoami`,
    /// `profile`), in which times are read and shown (``MemberZone``); `nil` in credentials
    /// stored before it was kept.
    var timeZone: String?

    /// The server as an address.
    ///
    /// - Throws: ``CLIError`` when the stored address is malformed (a hand-edited file).
    func address() throws(CLIError) -> ServerAddress {
        guard let address = ServerAddress(server) else {
            throw CLIError(.failure, "the stored server address \"\(server)\" is malformed; run `workout login --server HOST:PORT`")
        }
        return address
    }
}
