import Dispatch

/// One call on a ``ClientConnection``, from the moment a task starts it to its final frame.
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

    /// The method number (the REQUEST's `code`).
    let method: UInt32
    /// The serialized request message; emptied once it is on its way.
    var body: [UInt8]
    /// When the caller stops waiting, if ever.
    let deadline: ContinuousClock.Instant?
    /// The call id, once the REQUEST is encoded (0 before).
    var callID: UInt32 = 0
    /// Where the answer goes; `nil` once the caller has had its outcome.
    var receiver: Receiver?
    /// Set when the caller gave up before the call started.
    var abandonedBeforeStart = false
    /// The local deadline timer, cancelled when the call finishes.
    var deadlineTimer: DispatchWorkItem?

    /// Makes a call that has not started yet.
    init(method: UInt32, body: [UInt8], deadline: ContinuousClock.Instant?) {
        self.method = method
        self.body = body
        self.deadline = deadline
    }

    /// Whether the caller still waits for an outcome.
    var isActive: Bool { receiver != nil }

    /// Hands a unary caller its response body, or a stream its next message.
    func deliver(_ body: [UInt8]) {
        switch receiver {
        case .unary(let continuation):
            receiver = nil
            deadlineTimer?.cancel()
            continuation.resume(returning: body)
        case .stream(let continuation):
            continuation.yield(body)
        case nil:
            break
        }
    }

    /// Ends a stream successfully (a unary call ended this way gets an empty body).
    func complete() {
        switch receiver {
        case .unary:
            deliver([])
        case .stream(let continuation):
            receiver = nil
            deadlineTimer?.cancel()
            continuation.finish()
        case nil:
            break
        }
    }

    /// Gives the caller its failure; later outcomes are ignored.
    func fail(_ failure: CallFailure) {
        guard let receiver else { return }
        self.receiver = nil
        deadlineTimer?.cancel()
        switch receiver {
        case .unary(let continuation):
            continuation.resume(throwing: failure)
        case .stream(let continuation):
            continuation.finish(throwing: failure)
        }
    }
}
