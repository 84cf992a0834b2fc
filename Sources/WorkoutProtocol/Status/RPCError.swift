/// A failed call, or a failed connection, as every layer reports it to its caller:
/// a wire status and a human-readable message.
///
/// The message is for people and logs; never parse it.
public struct RPCError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The status number that goes on the wire.
    public var code: StatusCode
    /// An explanation in English.
    public var message: String

    /// Makes an error.
    ///
    /// - Parameters:
    ///   - code: The wire status.
    ///   - message: An explanation in English.
    public init(code: StatusCode, message: String) {
        self.code = code
        self.message = message
    }

    /// `"NOT_FOUND: no such workout"`.
    public var description: String {
        message.isEmpty ? code.description : "\(code): \(message)"
    }
}
