public import Foundation
public import WorkoutClient

/// Why the server refused a write from an ``Outbox``: its status and message, kept with the
/// write so that an app can show it and the member can discard the write or send it again
/// (``Outbox/retry(_:)``).
///
/// Refusals are what the server answers about the write itself or its account:
/// `INVALID_ARGUMENT` (a field out of range), `ABORTED` (the record changed since the expected
/// revision), `ALREADY_EXISTS` (the id was used for other content), `NOT_FOUND` (an update of a
/// record deleted meanwhile), `UNAUTHENTICATED` or `PERMISSION_DENIED` (the session expired or
/// was revoked, or the account was removed). A server that cannot be reached is not a refusal:
/// the write stays queued as it was.
public struct WriteRefusal: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The status, by its number on the wire.
    public var code: StatusCode
    /// The server's explanation.
    public var message: String
    /// For `INVALID_ARGUMENT`: the field at fault, in the terms of the Swift call that sends
    /// the write (`WorkoutError/field`), e.g. `workout.durationSeconds`.
    public var field: String?
    /// The same field as the wire protocol names it (`WorkoutError/wireField`), e.g.
    /// `workout.duration_seconds`.
    public var wireField: String?
    /// When the server refused it.
    public var refusedAt: Date

    /// Makes a refusal.
    ///
    /// - Parameters:
    ///   - code: The status.
    ///   - message: The explanation.
    ///   - field: The field at fault, in Swift terms, if any.
    ///   - wireField: The field at fault as the wire names it, if any.
    ///   - refusedAt: When.
    public init(code: StatusCode, message: String, field: String? = nil, wireField: String? = nil, refusedAt: Date = Date()) {
        self.code = code
        self.message = message
        self.field = field
        self.wireField = wireField
        self.refusedAt = refusedAt
    }

    /// The refusal of `error`, now.
    init(_ error: WorkoutError) {
        self.init(code: error.code, message: error.message, field: error.field, wireField: error.wireField)
    }

    /// The refusal as the error a direct call would have thrown.
    public var error: WorkoutError {
        WorkoutError(code: code, message: message, field: field, wireField: wireField)
    }

    /// Whether the refusal is about the session or account, not about this write: every other
    /// write would be refused the same way, so a sync stops at it.
    public var concernsAccount: Bool {
        code == .unauthenticated || code == .permissionDenied
    }

    /// `"INVALID_ARGUMENT: workout.durationSeconds must be between 1 and 86400 (got 0) (wire field
    /// workout.duration_seconds)"`, as `WorkoutError` prints it.
    public var description: String {
        error.description
    }

    private enum CodingKeys: String, CodingKey {
        case code, status, message, field, wireField, refusedAt
    }

    /// Decodes a refusal from `{"code": 3, "status": "INVALID_ARGUMENT", "message": …}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        code = StatusCode(rawValue: try container.decode(UInt32.self, forKey: .code))
        message = try container.decode(String.self, forKey: .message)
        field = try container.decodeIfPresent(String.self, forKey: .field)
        wireField = try container.decodeIfPresent(String.self, forKey: .wireField)
        refusedAt = try container.decode(Date.self, forKey: .refusedAt)
    }

    /// Encodes the refusal with its status as number (`code`) and name (`status`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code.rawValue, forKey: .code)
        try container.encode(code.name, forKey: .status)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(field, forKey: .field)
        try container.encodeIfPresent(wireField, forKey: .wireField)
        try container.encode(refusedAt, forKey: .refusedAt)
    }
}
