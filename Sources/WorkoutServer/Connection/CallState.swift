import Dispatch

/// A call in flight on a connection: what it is, when it started, and how to abandon it.
final class CallState {
    // Used only on its connection's queue.
    let method: UInt32
    let isStream: Bool
    let startedAt: UInt64
    var task: Task<Void, Never>?
    var deadline: (any DispatchSourceTimer)?

    init(method: UInt32, isStream: Bool, startedAt: UInt64) {
        self.method = method
        self.isStream = isStream
        self.startedAt = startedAt
    }

    /// Stops the call's work where possible (a write that already committed stays committed).
    func abandon() {
        task?.cancel()
        deadline?.cancel()
        deadline = nil
    }
}
