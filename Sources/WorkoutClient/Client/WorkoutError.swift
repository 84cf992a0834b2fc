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
    /// For `INVALID_ARGUMENT`: the request field at fault, e.g. `meal.items[3].calories`.
    public var field: String?
    /// For `RESOURCE_EXHAUSTED` and `UNAVAILABLE`: how long the server asks us to wait.
    public var retryAfter: Duration?

    /// Makes an error.
    ///
    /// - Parameters:
    ///   - code: The status.
    ///   - message: An explanation.
    ///   - field: The field at fault, if any.
    ///   - retryAfter: The server's wait hint, if any.
    public init(code: StatusCode, message: String, field: String? = nil, retryAfter: Duration? = nil) {
        self.code = code
        self.message = message
        self.field = field
        self.retryAfter = retryAfter
    }

    /// `"NOT_FOUND: no such workout"`, with the field when there is one.
    public var description: String {
        var text = message.isEmpty ? code.description : "\(code): \(message)"
        if let field, !field.isEmpty, !message.contains(field) {
            text += " (field \(field))"
        }
        return text
    }

    /// An `UNAVAILABLE` error.
    static func unavailable(_ message: String) -> WorkoutError {
        WorkoutError(code: .unavailable, message: message)
    }
}
