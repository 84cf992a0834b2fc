package import WorkoutProtocol
package import WorkoutRules

extension DomainError: RPCErrorConvertible {
    /// The refusal as the wire carries it: each domain code has its status of the same name.
    package var rpcError: RPCError {
        let status: StatusCode = switch code {
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
        return RPCError(code: status, message: message, field: field ?? "", retryAfterMilliseconds: retryAfterMilliseconds)
    }
}
