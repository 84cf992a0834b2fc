import Synchronization

/// Whether a call may have reached the server: set by ``WorkoutClient``'s calls made while it is
/// the task's ``WorkoutClient/deliveryProbe``, when a request was handed to a connection that then
/// failed without a final answer. A write that failed so is queued as "may have been sent".
package final class DeliveryProbe: Sendable {
    private let arrived = Mutex(false)

    /// A probe that has seen nothing yet.
    package init() {}

    /// Whether a request may have reached the server.
    package var mayHaveArrived: Bool { arrived.withLock { $0 } }

    /// Notes that a request may have reached the server.
    package func markMayHaveArrived() {
        arrived.withLock { $0 = true }
    }
}

extension WorkoutClient {
    /// The probe the current task's calls report to, if any (the outbox's
    /// `perform(_:queueingIn:)`, in WorkoutOffline).
    @TaskLocal package static var deliveryProbe: DeliveryProbe?
}
