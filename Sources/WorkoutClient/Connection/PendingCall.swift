/// One call on a ``ClientConnection`` as its caller waits for it: where the outcome goes.
///
/// Safe to send between threads because: every mutable property is read and written only
/// on the owning connection's queue.
final class PendingCall: @unchecked Sendable {
    /// Where the call's answer goes.
    enum Receiver {
        /// A unary call's caller, waiting for the response body.
        case unary(CheckedContinuation<[UInt8], any Error>)
        /// A streaming call's consumer, reading message bodies.
        case stream(AsyncThrowingStream<[UInt8], any Error>.Continuation)
    }

    /// The call's name on the connection's machine, once started.
    var handle: ClientCallHandle?
    /// Set when the caller gave up before the call started.
    var abandonedBeforeStart = false
    /// Where the answer goes; `nil` before it is attached and once the caller has had its outcome.
    private var receiver: Receiver?

    /// Whether the call streams (its messages arrive one by one, then an end).
    var isStream: Bool {
        if case .stream = receiver { return true }
        return false
    }

    /// A call whose answer goes to `receiver` (attached later with ``attach(_:)`` when `nil`).
    init(_ receiver: Receiver? = nil) {
        self.receiver = receiver
    }

    /// Sets where the answer goes (a unary caller's continuation exists only once it waits).
    func attach(_ receiver: Receiver) {
        self.receiver = receiver
    }

    /// Hands a unary caller its response body, or a stream its next message.
    func deliver(_ body: [UInt8]) {
        switch receiver {
        case .unary(let continuation):
            receiver = nil
            continuation.resume(returning: body)
        case .stream(let continuation):
            continuation.yield(body)
        case nil:
            break
        }
    }

    /// Ends a stream successfully.
    func finish() {
        guard case .stream(let continuation) = receiver else { return deliver([]) }
        receiver = nil
        continuation.finish()
    }

    /// Gives the caller its failure; later outcomes are ignored.
    func fail(_ failure: CallFailure) {
        guard let receiver else { return }
        self.receiver = nil
        switch receiver {
        case .unary(let continuation):
            continuation.resume(throwing: failure)
        case .stream(let continuation):
            continuation.finish(throwing: failure)
        }
    }
}
