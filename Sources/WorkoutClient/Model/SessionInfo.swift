public import Foundation
import WorkoutProtocol

/// One of the member's sessions (a logged-in device), as `Auth.ListSessions` lists them.
/// Never contains the token.
public struct SessionInfo: Sendable, Hashable, Codable, Identifiable {
    /// The session's id (not its token); pass it to `Auth.RevokeSession`.
    public var id: UUID
    /// The device label given at login or registration, e.g. `"Anna's iPhone"`.
    public var deviceName: String
    /// The software that created the session (the connection's client agent).
    public var clientAgent: String
    /// When the session was created.
    public var createdAt: Date
    /// When the session was last used (to authenticate a connection, or by a call).
    public var lastUsedAt: Date
    /// When the session expires unless used again; the server may push it forward.
    public var expiresAt: Date
    /// Whether this is the session of the connection that asked.
    public var isCurrent: Bool

    /// Creates session facts (the server makes them; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - id: The session's id.
    ///   - deviceName: The device label.
    ///   - clientAgent: The creating software.
    ///   - createdAt: When it was created.
    ///   - lastUsedAt: When it was last used.
    ///   - expiresAt: When it expires.
    ///   - isCurrent: Whether it is the asking connection's session.
    public init(
        id: UUID, deviceName: String = "", clientAgent: String = "", createdAt: Date, lastUsedAt: Date,
        expiresAt: Date, isCurrent: Bool = false
    ) {
        self.id = id
        self.deviceName = deviceName
        self.clientAgent = clientAgent
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.expiresAt = expiresAt
        self.isCurrent = isCurrent
    }
}

// MARK: Wire

extension SessionInfo {
    /// Creates session facts from the wire.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_SessionInfo) {
        self.init(
            id: UUID(wireBytes: wire.sessionID), deviceName: wire.deviceName, clientAgent: wire.clientAgent,
            createdAt: Date(wireMilliseconds: wire.createdAtMs), lastUsedAt: Date(wireMilliseconds: wire.lastUsedAtMs),
            expiresAt: Date(wireMilliseconds: wire.expiresAtMs), isCurrent: wire.current
        )
    }
}
