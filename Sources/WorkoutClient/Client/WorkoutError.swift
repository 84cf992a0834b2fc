@_exported public import struct WorkoutProtocol.StatusCode

/// How a call failed: the server's status and message, or the client's own verdict
/// (`UNAVAILABLE` when the server cannot be reached, `DEADLINE_EXCEEDED` when the
/// call's time ran out, `CANCELLED` when the calling task was cancelled).
///
/// The one error type every ``WorkoutClient`` call throws.
public struct WorkoutError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The status, as on the wire.
    public var code: StatusCode
    /// An explanation in English, for people and logs; never parse it.
    public var message: String
    /// For `INVALID_ARGUMENT` (and some `ALREADY_EXISTS`, `OUT_OF_RANGE`): what is at fault, in
    /// the terms of the Swift call that failed: its argument and the property path in it, e.g.
    /// `workout.durationSeconds` after `logWorkout(workout)`, `meal.items[3].calories`,
    /// `update.timeZone` after `updateProfile(update)`, `since` after `changes(since:)`.
    /// The ``message`` names it the same way.
    public var field: String?
    /// The same field as the wire protocol names it (PROTOCOL.md), e.g.
    /// `workout.duration_seconds`; for logs, and for matching the server's documentation.
    public var wireField: String?
    /// For `RESOURCE_EXHAUSTED` and `UNAVAILABLE`: how long the server asks us to wait.
    public var retryAfter: Duration?
    /// For a server the client refused to trust, or refused to send something to (a changed
    /// key, a server not trusted yet, a password over plain TCP, an invite for another server):
    /// which, with its fingerprints, for a UI to show. `nil` for every other error.
    public var trust: TrustFailure?

    /// Makes an error.
    ///
    /// - Parameters:
    ///   - code: The status.
    ///   - message: An explanation.
    ///   - field: The field at fault, in Swift terms, if any.
    ///   - wireField: The field at fault as the wire protocol names it, if any.
    ///   - retryAfter: The server's wait hint, if any.
    public init(code: StatusCode, message: String, field: String? = nil, wireField: String? = nil, retryAfter: Duration? = nil) {
        self.code = code
        self.message = message
        self.field = field
        self.wireField = wireField
        self.retryAfter = retryAfter
    }

    /// `"NOT_FOUND: no such workout"`, with the field when there is one (and its wire name
    /// when that differs): `"INVALID_ARGUMENT: workout.durationSeconds must be between 1 and
    /// 86400 (got 0) (wire field workout.duration_seconds)"`.
    public var description: String {
        var text = message.isEmpty ? code.description : "\(code): \(message)"
        if let field, !field.isEmpty, !message.contains(field) {
            text += " (field \(field))"
        }
        if let wireField, !wireField.isEmpty, wireField != field, !message.contains(wireField) {
            text += " (wire field \(wireField))"
        }
        return text
    }

    /// An `UNAVAILABLE` error.
    static func unavailable(_ message: String) -> WorkoutError {
        WorkoutError(code: .unavailable, message: message)
    }
}
