public import Foundation
import WorkoutProtocol

/// One of a member's device tokens (a named, scoped credential for an automation such as Home
/// Assistant, a Shortcut or Health Auto Export), as `Auth.ListDeviceTokens` lists them. Never
/// contains the token itself, which ``CreatedDeviceToken`` carries once.
public struct DeviceToken: Sendable, Hashable, Codable, Identifiable {
    /// The token's id (not the token); pass it to ``WorkoutClient/revokeDeviceToken(_:)``.
    public var id: UUID
    /// The name its member gave it, e.g. `"Home Assistant"`.
    public var name: String
    /// What it may do.
    public var scopes: [TokenScope]
    /// When it was made.
    public var createdAt: Date
    /// When it last authenticated a connection or a request; `nil` when never.
    public var lastUsedAt: Date?
    /// The member it speaks for.
    public var memberID: UUID
    /// Whether every post made with it must carry `X-Signature` (a token for a phone bridge
    /// that signs its pushes); such a token may only post to the ingest endpoints.
    public var signed: Bool

    /// Creates device token facts (the server makes them; this is for previews and tests).
    ///
    /// - Parameters:
    ///   - id: The token's id.
    ///   - name: Its name.
    ///   - scopes: What it may do.
    ///   - createdAt: When it was made.
    ///   - lastUsedAt: When it was last used; `nil` when never.
    ///   - memberID: The member it speaks for.
    ///   - signed: Whether its posts must be signed.
    public init(id: UUID, name: String, scopes: [TokenScope], createdAt: Date, lastUsedAt: Date? = nil, memberID: UUID, signed: Bool = false) {
        self.id = id
        self.name = name
        self.scopes = scopes
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.memberID = memberID
        self.signed = signed
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, scopes, createdAt, lastUsedAt, memberID, signed
    }

    /// Decodes a token as encoded, `signed` false when absent (encoded by an earlier library).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(UUID.self, forKey: .id), name: try container.decode(String.self, forKey: .name),
            scopes: try container.decode([TokenScope].self, forKey: .scopes), createdAt: try container.decode(Date.self, forKey: .createdAt),
            lastUsedAt: try container.decodeIfPresent(Date.self, forKey: .lastUsedAt), memberID: try container.decode(UUID.self, forKey: .memberID),
            signed: try container.decodeIfPresent(Bool.self, forKey: .signed) ?? false)
    }
}

// MARK: Wire

extension DeviceToken {
    /// Creates device token facts from the wire. Scopes this library does not know (a newer
    /// server's) are left out.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_DeviceTokenInfo) {
        self.init(
            id: UUID(wireBytes: wire.tokenID), name: wire.name, scopes: wire.scopes.compactMap(TokenScope.init(wire:)),
            createdAt: Date(wireMilliseconds: wire.createdAtMs), lastUsedAt: Date(wireMillisecondsUnlessZero: wire.lastUsedAtMs),
            memberID: UUID(wireBytes: wire.userID), signed: wire.signed
        )
    }
}
