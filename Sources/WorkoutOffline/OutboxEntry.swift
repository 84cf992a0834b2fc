public import Foundation
import WorkoutClient

/// One write waiting in an ``Outbox``, in the order it was made.
public struct OutboxEntry: Sendable, Hashable, Codable, Identifiable {
    /// Its number in the outbox: increasing in the order writes were made, never reused.
    public var id: UInt64
    /// The write, with any later edit of the same record folded into it.
    public var write: PendingWrite
    /// When it was queued.
    public var queuedAt: Date
    /// Whether it may have reached the server already (a sync sent it, or a direct call of it
    /// failed without an answer). Such a write is sent again as it is (the server applies it
    /// once); later edits of its record are queued after it instead of folded into it.
    public var mayHaveBeenSent: Bool
    /// Why the server refused it, if it did: it then waits for the member to discard it or
    /// send it again (``Outbox/retry(_:)``), and later writes of the same record wait behind it.
    public var refusal: WriteRefusal?

    /// Makes an entry.
    ///
    /// - Parameters:
    ///   - id: Its number.
    ///   - write: The write.
    ///   - queuedAt: When it was queued.
    ///   - mayHaveBeenSent: Whether it may have reached the server.
    ///   - refusal: The server's refusal, if any.
    public init(id: UInt64, write: PendingWrite, queuedAt: Date, mayHaveBeenSent: Bool = false, refusal: WriteRefusal? = nil) {
        self.id = id
        self.write = write
        self.queuedAt = queuedAt
        self.mayHaveBeenSent = mayHaveBeenSent
        self.refusal = refusal
    }

    /// Whether a later edit of the same record may be folded into this entry: it has not been
    /// sent (so the server has never seen its content) and was not refused.
    var acceptsFolding: Bool {
        !mayHaveBeenSent && refusal == nil
    }
}
