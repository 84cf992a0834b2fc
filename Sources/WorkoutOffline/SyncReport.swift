public import WorkoutClient

/// What ``Outbox/sync(using:)`` did: each write it handled, in order, and why it stopped early
/// if it did.
public struct SyncReport: Sendable, Hashable {
    /// What became of one write.
    public enum Outcome: Sendable, Hashable {
        /// The server accepted it (or had accepted it before: ``SentWrite/replayed``); it left
        /// the outbox.
        case sent(SentWrite)
        /// The server refused it; it stays in the outbox with this reason.
        case refused(WriteRefusal)
        /// It was not sent because an earlier write of the same record was refused (entry id
        /// `behind`); it waits for that one to be discarded or retried.
        case held(behind: UInt64)
    }

    /// One write and what became of it.
    public struct Result: Sendable, Hashable {
        /// The write, as it was sent.
        public var entry: OutboxEntry
        /// What became of it.
        public var outcome: Outcome

        /// Makes a result.
        ///
        /// - Parameters:
        ///   - entry: The write.
        ///   - outcome: What became of it.
        public init(entry: OutboxEntry, outcome: Outcome) {
            self.entry = entry
            self.outcome = outcome
        }
    }

    /// The writes handled, in the order they were sent (writes held behind a refused one last).
    public var results: [Result]
    /// Why the sync stopped before the end: the server could not be reached (`UNAVAILABLE`,
    /// `DEADLINE_EXCEEDED`), the session was refused (`UNAUTHENTICATED`), or the outbox could not
    /// be written. `nil` when every write was handled. The writes not handled stay queued, in
    /// order.
    public var stoppedBy: WorkoutError?
    /// The writes still waiting after the sync (refused, held, and any not reached).
    public var remaining: [OutboxEntry]

    /// Makes a report.
    ///
    /// - Parameters:
    ///   - results: The writes handled.
    ///   - stoppedBy: Why it stopped early, if it did.
    ///   - remaining: What still waits.
    public init(results: [Result], stoppedBy: WorkoutError?, remaining: [OutboxEntry]) {
        self.results = results
        self.stoppedBy = stoppedBy
        self.remaining = remaining
    }

    /// Whether the outbox is empty after the sync.
    public var isComplete: Bool { remaining.isEmpty }
}
