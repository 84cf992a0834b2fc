import WorkoutClient

/// One record of an outbox's log file: the log is the sequence of these, each framed with its
/// length and checksum (``OutboxLog``); replaying them in order gives the outbox's state
/// (``OutboxState``). JSON-encoded, so fields can be added later.
enum OutboxRecord: Sendable, Hashable, Codable {
    /// The first record of every file: its format, the account whose writes it holds, and the
    /// id the next write gets (so that ids are never reused, even after compaction).
    case header(format: Int, account: String, nextID: UInt64)
    /// A write was queued.
    case queued(OutboxEntry)
    /// A later edit was folded into a queued write: its write is now this.
    case replaced(id: UInt64, write: PendingWrite)
    /// A write left the outbox: the server accepted it, the member discarded it, or a delete
    /// folded it away (a log never sent, then deleted).
    case removed(id: UInt64)
    /// These writes are about to be sent: they may reach the server from now on.
    case sending(ids: [UInt64])
    /// These writes, marked ``sending(ids:)``, were not sent after all (the sync stopped first).
    case notSent(ids: [UInt64])
    /// The server refused a write.
    case refused(id: UInt64, refusal: WriteRefusal)
    /// The member asked to send a refused write again: its refusal is cleared.
    case retried(id: UInt64)

    /// The format this library writes in a ``header(format:account:nextID:)``.
    static let format = 1
}
