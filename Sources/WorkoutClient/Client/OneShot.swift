import Synchronization

/// A continuation resumed once, by whichever comes first: an outcome, or a cancellation that
/// may come before the continuation is even attached (a task cancelled already runs its
/// cancellation handler first).
///
/// Safe to share between tasks: its state is in a `Mutex`, and the continuation is resumed
/// outside the lock.
final class OneShot<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, Never>?
        var early: Value?
        var done = false
    }

    private let state = Mutex<State>(State())

    /// Attaches the continuation; resumes it at once when the outcome came first.
    func attach(_ continuation: CheckedContinuation<Value, Never>) {
        let early = state.withLock { state -> Value? in
            guard let early = state.early else {
                state.continuation = continuation
                return nil
            }
            state.early = nil
            return early
        }
        if let early { continuation.resume(returning: early) }
    }

    /// Resumes with `value` if nothing did yet; later values are dropped.
    func resume(with value: Value) {
        let continuation = state.withLock { state -> CheckedContinuation<Value, Never>? in
            guard !state.done else { return nil }
            state.done = true
            guard let continuation = state.continuation else {
                state.early = value
                return nil
            }
            state.continuation = nil
            return continuation
        }
        continuation?.resume(returning: value)
    }
}
