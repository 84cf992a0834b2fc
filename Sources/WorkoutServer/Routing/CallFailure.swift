import Storage
import WorkoutCore
package import WorkoutProtocol

/// A failed call as the wire carries it: a status and an `RpcStatus`.
package struct CallFailure: Error, Sendable {
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

    /// Maps any error a handler throws to its wire status: the one place where domain,
    /// storage and protocol errors meet status codes.
    package init(_ error: any Error) {
        switch error {
        case let failure as CallFailure:
            self = failure
        case let domain as DomainError:
            let status: StatusCode = switch domain.code {
            case .invalidArgument: .invalidArgument
            case .notFound: .notFound
            case .alreadyExists: .alreadyExists
            case .permissionDenied: .permissionDenied
            case .unauthenticated: .unauthenticated
            case .failedPrecondition: .failedPrecondition
            case .resourceExhausted: .resourceExhausted
            case .aborted: .aborted
            case .outOfRange: .outOfRange
            default: .internal
            }
            self.init(status, domain.message, field: domain.field ?? "", retryAfterMilliseconds: domain.retryAfterMilliseconds)
        case let storage as StorageError where storage.code == .closed:
            self.init(.unavailable, "the server is shutting down")
        case let protocolError as ProtocolError:
            self.init(protocolError.status, protocolError.message)
        case let rpc as RPCError:
            self.init(rpc.code, rpc.message)
        default:
            self.init(.internal, "internal error")
        }
    }
}
