/// The messages of a server stream (``WorkoutClient/watch(since:)``,
/// ``WorkoutClient/export(timeout:)``), as an asynchronous sequence that fails with
/// ``WorkoutError`` like every call: `for try await` over it throws `WorkoutError` alone.
///
/// How it ends:
/// - **Normally** (the last message of an export): the loop ends, `next()` returns `nil`.
/// - **With an error** the stream cannot get past: the loop throws that ``WorkoutError``.
/// - **When the task reading it is cancelled**: the loop throws `CANCELLED`, so the reader can
///   tell "I stopped it" from "it finished". The server is told to stop at once.
/// - **When the reader stops iterating** (`break`, or drops the iterator): nothing is thrown;
///   the server is told to stop.
///
/// A stream is iterated once, by one task.
public struct WorkoutStream<Element: Sendable>: AsyncSequence, Sendable {
    /// What iterating it throws.
    public typealias Failure = WorkoutError

    private let base: AsyncThrowingStream<Element, any Error>
    private let ending: StreamEnding

    /// Makes a stream over `base`, whose producer calls `ending.markFinished()` before it
    /// finishes `base` normally; any other normal end of `base` is a cancellation.
    ///
    /// - Parameters:
    ///   - base: The messages, failing with ``WorkoutError`` only.
    ///   - ending: What the producer marks when it ends on purpose.
    init(_ base: AsyncThrowingStream<Element, any Error>, ending: StreamEnding) {
        self.base = base
        self.ending = ending
    }

    /// Makes the iterator; call once.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), ending: ending)
    }

    /// Reads a ``WorkoutStream``.
    public struct Iterator: AsyncIteratorProtocol {
        private var base: AsyncThrowingStream<Element, any Error>.Iterator
        private let ending: StreamEnding
        private var done = false

        init(base: AsyncThrowingStream<Element, any Error>.Iterator, ending: StreamEnding) {
            self.base = base
            self.ending = ending
        }

        /// The next message, or `nil` after the last one.
        ///
        /// - Parameter actor: The caller's isolation, kept while waiting.
        /// - Returns: The message, or `nil` when the stream ended normally.
        /// - Throws: ``WorkoutError``: what ended the stream; `CANCELLED` when the reading task
        ///   was cancelled.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(WorkoutError) -> Element? {
            guard !done else { return nil }
            do {
                if let element = try await base.next(isolation: actor) { return element }
            } catch {
                done = true
                throw error as? WorkoutError ?? WorkoutError(code: .unknown, message: "\(error)")
            }
            done = true
            guard ending.isFinished else {
                throw WorkoutError(code: .cancelled, message: "the task reading the stream was cancelled")
            }
            return nil
        }

        /// The next message, or `nil` after the last one.
        ///
        /// - Returns: The message, or `nil` when the stream ended normally.
        /// - Throws: ``WorkoutError``, as ``next(isolation:)``.
        public mutating func next() async throws(WorkoutError) -> Element? {
            try await next(isolation: nil)
        }
    }
}
