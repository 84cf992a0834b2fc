import WorkoutClient

extension WorkoutError {
    /// Whether a write that failed this way stays queued as it was (the server was not reached,
    /// did not answer in time, was overloaded or shutting down, or the call was cancelled),
    /// rather than being refused.
    var leavesWriteQueued: Bool {
        code == .unavailable || code == .deadlineExceeded || code == .cancelled || code == .resourceExhausted
    }
}
