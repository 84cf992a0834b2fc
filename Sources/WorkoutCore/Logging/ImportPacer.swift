package import Foundation
import Synchronization
package import WorkoutRules

/// Bounds how many import batches (`Logging.ImportRecords`) each member may send per minute,
/// so one member's import of years of history shares the single writer with everyone's live
/// writes instead of filling it.
///
/// A token bucket per member: `batchesPerMinute` tokens, refilled evenly over a minute; a
/// batch takes one, and a batch that finds none is refused with RESOURCE_EXHAUSTED and the
/// milliseconds until the next token (the client waits that long and sends it again; the
/// batch's records carry their ids, so nothing is applied twice). State lives in memory, one
/// small entry per member who imported in the last minute.
package final class ImportPacer: Sendable {
    private struct Bucket {
        var tokens: Double
        var updatedAt: Int64
    }

    /// Batches each member may send per minute.
    package let batchesPerMinute: Int
    private let buckets = Mutex<[UUID: Bucket]>([:])

    /// A pacer allowing `batchesPerMinute` batches per member per minute (at least 1).
    package init(batchesPerMinute: Int) {
        self.batchesPerMinute = max(1, batchesPerMinute)
    }

    /// Takes one batch's token for `member`, or refuses.
    ///
    /// - Parameters:
    ///   - member: The member.
    ///   - now: The time, in milliseconds since the epoch.
    /// - Throws: ``DomainError`` `resourceExhausted` with the milliseconds until a token is free.
    package func admit(member: UUID, now: Int64) throws(DomainError) {
        let capacity = Double(batchesPerMinute)
        let perMillisecond = capacity / 60_000
        let wait: Int64 = buckets.withLock { buckets in
            // Forget members whose bucket is full again (bounded by the members who imported
            // within the last minute).
            if buckets.count > 64 {
                buckets = buckets.filter { Double(now - $0.value.updatedAt) * perMillisecond + $0.value.tokens < capacity }
            }
            let key = member
            var bucket = buckets[key] ?? Bucket(tokens: capacity, updatedAt: now)
            bucket.tokens = min(capacity, bucket.tokens + Double(max(0, now - bucket.updatedAt)) * perMillisecond)
            bucket.updatedAt = now
            guard bucket.tokens >= 1 else {
                buckets[key] = bucket
                return Int64(((1 - bucket.tokens) / perMillisecond).rounded(.up))
            }
            bucket.tokens -= 1
            buckets[key] = bucket
            return 0
        }
        if wait > 0 {
            throw DomainError.resourceExhausted(
                "import batches are limited to \(batchesPerMinute) per minute; send this batch again in \(wait) ms",
                retryAfterMilliseconds: UInt32(clamping: wait))
        }
    }
}
