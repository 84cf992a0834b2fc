import Synchronization

/// Whether a stream's producer finished it on purpose (its last message went out), as against
/// the stream ending because the task reading it was cancelled: ``WorkoutStream`` tells the two
/// apart by it, since `AsyncThrowingStream` ends both with `nil`.
///
/// Shared between the producer's task and the reader: a `Mutex` makes it safe.
final class StreamEnding: Sendable {
    private let finished = Mutex(false)

    /// Makes a mark, not finished.
    init() {}

    /// Marks the stream as finished on purpose; call before finishing the continuation.
    func markFinished() {
        finished.withLock { $0 = true }
    }

    /// Whether ``markFinished()`` was called.
    var isFinished: Bool {
        finished.withLock { $0 }
    }
}
