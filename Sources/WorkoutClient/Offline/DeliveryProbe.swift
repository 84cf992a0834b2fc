import Synchronization

/// Whether a call may have reached the server: set by ``WorkoutClient``'s calls made while it is
/// the task's ``WorkoutClient/deliveryProbe``, when a request was handed to a connection that then
/// failed without a final answer. A write that failed so is queued as "may have been sent".
final class DeliveryProbe: Sendable {
    private let arrived = Mutex(false)

    /// Whether a request may have reached the server.
    var mayHaveArrived: Bool { arrived.withLock { $0 } }

    /// Notes that a request may have reached the server.
    func markMayHaveArrived() {
        arrived.withLock { $0 = true }
    }
}

extension WorkoutClient {
    /// The probe the current task's calls report to, if any (``perform(_:queueingIn:)``'s).
    @TaskLocal static var deliveryProbe: DeliveryProbe?
}
