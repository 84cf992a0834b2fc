/// How a call on one connection failed, with what that means for retrying it.
///
/// The connection layer throws this; ``WorkoutClient`` decides from ``disposition``
/// whether to run the call again on a new connection, and hands its callers only the
/// ``error``.
struct CallFailure: Error {
    /// What the failure says about the call's effect on the server.
    enum Disposition: Equatable {
        /// The call has its final answer (an error status from the server, or a local
        /// deadline or cancellation). Never retried.
        case final
        /// The server never processed the call (it was not sent, or GOAWAY said its id
        /// is above the last one the server will finish). Safe to retry, write or not.
        case notProcessed
        /// The connection ended before the answer: the call may or may not have taken
        /// effect. Retried only when it is idempotent.
        case outcomeUnknown
    }

    /// What the failure says about retrying.
    var disposition: Disposition
    /// The error a caller sees when the call is not retried.
    var error: WorkoutError

    /// A final answer.
    static func final(_ error: WorkoutError) -> CallFailure {
        CallFailure(disposition: .final, error: error)
    }
}
