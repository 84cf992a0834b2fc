/// A failed call, or a failed connection, as every layer reports it to its caller:
/// a wire status and a human-readable message.
///
/// The message is for people and logs; never parse it.
public struct RPCError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The status number that goes on the wire.
    public var code: StatusCode
    /// An explanation in English.
    public var message: String
    /// The request field at fault (`RpcStatus.field`), or empty.
    public var field: String
    /// When to try again (`RpcStatus.retry_after_ms`), or 0.
    public var retryAfterMilliseconds: UInt32

    /// Makes an error.
    ///
    /// - Parameters:
    ///   - code: The wire status.
    ///   - message: An explanation in English.
    ///   - field: The request field at fault, if one is.
    ///   - retryAfterMilliseconds: When to try again, if that helps.
    public init(code: StatusCode, message: String, field: String = "", retryAfterMilliseconds: UInt32 = 0) {
        self.code = code
        self.message = message
        self.field = field
        self.retryAfterMilliseconds = retryAfterMilliseconds
    }

    /// `"NOT_FOUND: no such workout"`.
    public var description: String {
        message.isEmpty ? code.description : "\(code): \(message)"
    }
}

extension RPCError: RPCErrorConvertible {
    package var rpcError: RPCError { self }
}
