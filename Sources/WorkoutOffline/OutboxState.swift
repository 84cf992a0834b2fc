import Foundation
import WorkoutClient

/// What an outbox holds, as a value: the writes in order, and the rules for adding one (folding
/// edits and deletes into writes still queued). Built by applying ``OutboxRecord``s in order;
/// changed only through them, so that what is in memory is always what replaying the file gives.
struct OutboxState: Sendable, Hashable {
    /// The account whose writes these are (from the header).
    var account: String?
    /// The waiting writes, in the order they were made (ascending ids).
    private(set) var entries: [OutboxEntry] = []
    /// The encoded size of each waiting write's record, by id (for the byte bound).
    private(set) var sizes: [UInt64: Int] = [:]
    /// The id the next write gets.
    private(set) var nextID: UInt64 = 1

    /// The encoded bytes of the waiting writes.
    var bytes: Int { sizes.values.reduce(0, +) }

    /// The entry `id`, if it is waiting.
    func entry(_ id: UInt64) -> OutboxEntry? {
        index(of: id).map { entries[$0] }
    }

    private func index(of id: UInt64) -> Int? {
        // Ids ascend: binary search.
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low < entries.count && entries[low].id == id ? low : nil
    }

    /// Applies one record of the log. Records that name writes no longer waiting are ignored
    /// (they cannot arise from this library's own log, but replaying never traps).
    ///
    /// - Parameters:
    ///   - record: The record.
    ///   - size: Its encoded size in bytes.
    mutating func apply(_ record: OutboxRecord, size: Int) {
        switch record {
        case .header(_, let account, let nextID):
            self.account = account
            self.nextID = max(self.nextID, nextID)
        case .queued(let entry):
            guard entry.id > (entries.last?.id ?? 0) else { return }
            entries.append(entry)
            sizes[entry.id] = size
            nextID = max(nextID, entry.id + 1)
        case .replaced(let id, let write):
            guard let index = index(of: id) else { return }
            entries[index].write = write
            sizes[id] = size
        case .removed(let id):
            guard let index = index(of: id) else { return }
            entries.remove(at: index)
            sizes[id] = nil
        case .sending(let ids):
            for id in ids {
                if let index = index(of: id) { entries[index].mayHaveBeenSent = true }
            }
        case .notSent(let ids):
            for id in ids {
                if let index = index(of: id) { entries[index].mayHaveBeenSent = false }
            }
        case .refused(let id, let refusal):
            if let index = index(of: id) { entries[index].refusal = refusal }
        case .retried(let id):
            if let index = index(of: id) { entries[index].refusal = nil }
        }
    }

    /// What adding `write` does, folded into what is waiting:
    ///
    /// - An update of a record whose latest waiting write is a log or update not yet sent
    ///   replaces that write's fields (the log then carries the new fields; nothing more is sent).
    /// - A delete of a record whose latest waiting write is a log not yet sent removes it:
    ///   nothing is sent for that record at all. A delete after an update not yet sent removes
    ///   the update and queues the delete. A second delete of the same record adds nothing.
    /// - A steps report replaces a waiting, unsent report of the same day and source.
    /// - Anything else is queued at the end.
    ///
    /// - Parameters:
    ///   - write: The new write.
    ///   - now: The time it is queued.
    /// - Returns: The records to append, and what became of the write.
    func plan(_ write: PendingWrite, now: Date) -> (records: [OutboxRecord], outcome: Outbox.Queued) {
        let subject = write.subject
        let latest = entries.last { $0.write.subject == subject }
        let queue = OutboxEntry(id: nextID, write: write, queuedAt: now)
        guard let latest, latest.acceptsFolding else {
            if write.action == .delete, let latest, latest.write.action == .delete {
                return ([], .alreadyQueued(latest))
            }
            return ([.queued(queue)], .queued(queue))
        }
        switch write.action {
        case .update, .report:
            guard let folded = latest.write.folding(write) else { return ([.queued(queue)], .queued(queue)) }
            var entry = latest
            entry.write = folded
            return ([.replaced(id: latest.id, write: folded)], .folded(into: entry))
        case .delete:
            switch latest.write.action {
            case .log:
                return ([.removed(id: latest.id)], .cancelled(latest))
            case .update:
                return ([.removed(id: latest.id), .queued(queue)], .queued(queue))
            case .delete:
                return ([], .alreadyQueued(latest))
            case .report:
                return ([.queued(queue)], .queued(queue))
            }
        case .log:
            return ([.queued(queue)], .queued(queue))
        }
    }

    /// The records that rebuild this state in a fresh file: the header, then each waiting write
    /// as it is now.
    var compacted: [OutboxRecord] {
        [.header(format: OutboxRecord.format, account: account ?? "", nextID: nextID)] + entries.map { .queued($0) }
    }
}
