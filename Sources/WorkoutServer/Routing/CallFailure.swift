package import WorkoutProtocol

/// A failed call as the wire carries it: a status and an `RpcStatus`.
package struct CallFailure: Error, Sendable, Equatable {
    /// The status code.
    package var status: StatusCode
    /// The message, field and retry hint.
    package var details: Workout_V1_RpcStatus

    /// A failure with `status` and `message`.
    package init(_ status: StatusCode, _ message: String, field: String = "", retryAfterMilliseconds: UInt32 = 0) {
        self.status = status
        details = Workout_V1_RpcStatus()
        details.message = message
        details.field = field
        details.retryAfterMs = retryAfterMilliseconds
    }

    /// Maps any error a handler throws to its wire status: every layer's error says its own
    /// through ``RPCErrorConvertible``; anything else is INTERNAL "internal error".
    package init(_ error: any Error) {
        switch error {
        case let failure as CallFailure:
            self = failure
        case let convertible as any RPCErrorConvertible:
            let rpc = convertible.rpcError
            self.init(rpc.code, rpc.message, field: rpc.field, retryAfterMilliseconds: rpc.retryAfterMilliseconds)
        default:
            self.init(.internal, "internal error")
        }
    }
}
