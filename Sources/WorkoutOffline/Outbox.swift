import Foundation
import Synchronization
public import WorkoutClient

/// The writes a member made that the server has not confirmed yet, kept on the device so that
/// logging works without the server: away from home, or before it answers.
///
/// Writes are kept with their client-generated ids, in the order they were made, in an
/// append-only file whose records carry checksums: each ``enqueue(_:)`` returns only once its
/// write is on disk (`fsync`), and the outbox survives the process being killed at any moment
/// (a torn last record is dropped when the file is next opened; that write had not been
/// acknowledged). ``sync(using:)`` sends the writes in order through a connected
/// `WorkoutClient`; a write sent again after a lost answer is applied once (the server answers
/// `replayed`).
///
/// Edits and deletes of a record whose write is still waiting are folded into it: an update of
/// a workout logged offline makes the queued log carry the new fields; deleting it removes the
/// log, and nothing is sent for that workout at all (see ``Queued``).
///
/// A write the server refuses stays here with its ``OutboxEntry/refusal`` (status and message)
/// until the member discards it (``discard(_:)``) or sends it again (``retry(_:)``). A server
/// that cannot be reached refuses nothing: the writes stay queued, in order, for the next sync.
///
/// ```swift
/// let outbox = try Outbox(path: directory + "/outbox.log", account: "anna@example.com")
/// switch try await client.perform(.logWorkout(workout), queueingIn: outbox) {
/// case .sent(let answer): show(answer)
/// case .queued(let queued, let reason): showPending(queued, reason)
/// }
/// // Later, when the server is back:
/// let report = await outbox.sync(using: client)
/// ```
///
/// One process opens an outbox at a time (a lock file beside it says so); within the process,
/// one `Outbox` may be used from any task.
public final class Outbox: Sendable {
    /// How much an outbox holds at most; a write past either bound is refused with
    /// `RESOURCE_EXHAUSTED` (sync first, or discard writes).
    public struct Limits: Sendable, Hashable {
        /// The most writes waiting at once.
        public var maxWrites: Int
        /// The most bytes of waiting writes (as stored).
        public var maxBytes: Int

        /// Makes limits.
        ///
        /// - Parameters:
        ///   - maxWrites: The most writes (at least 1); 10,000 by default.
        ///   - maxBytes: The most bytes (at least 4 KiB); 16 MiB by default.
        public init(maxWrites: Int = 10_000, maxBytes: Int = 16 << 20) {
            self.maxWrites = max(1, maxWrites)
            self.maxBytes = max(4096, maxBytes)
        }
    }

    /// What became of a write given to ``enqueue(_:)``.
    public enum Queued: Sendable, Hashable {
        /// It waits at the end of the outbox.
        case queued(OutboxEntry)
        /// It was an edit of a record whose write still waits: that write now carries it.
        case folded(into: OutboxEntry)
        /// It deleted a record logged offline and never sent: that log was removed, and nothing
        /// is sent for the record at all.
        case cancelled(OutboxEntry)
        /// The same delete already waits; nothing was added.
        case alreadyQueued(OutboxEntry)

        /// The entry that waits for the write, or `nil` when nothing waits (``cancelled(_:)``).
        public var waitingEntry: OutboxEntry? {
            switch self {
            case .queued(let entry), .folded(let entry), .alreadyQueued(let entry): entry
            case .cancelled: nil
            }
        }
    }

    /// The outbox's file.
    public let path: String
    /// The account whose writes it holds (as the app names it, e.g. the member's email and
    /// server); opening it for another account fails.
    public let account: String
    /// Its bounds.
    public let limits: Limits
    /// How many bytes of a torn or damaged tail were dropped when the file was opened (0 when
    /// it was intact). They were kept in `<path>.damaged`.
    public let droppedBytesAtOpen: Int

    /// The log and what it holds, under one lock: the lock serializes the appends, so each
    /// change to the file and to the state happens as one step.
    let state: Mutex<State>

    /// The outbox's mutable part.
    struct State: ~Copyable {
        /// The file; `nil` once closed.
        var log: OutboxLog?
        /// What the file holds.
        var contents: OutboxState
        /// Whether a sync is running.
        var isSyncing = false
    }

    /// Opens the outbox at `path` (creating it), for `account`.
    ///
    /// - Parameters:
    ///   - path: The file; its directory must exist. A lock file `<path>.lock` goes beside it.
    ///   - account: Whose writes it holds, e.g. `"anna@example.com on 192.168.1.10:7420"`.
    ///   - limits: Its bounds.
    ///   - lockTimeout: How long to wait while another process has it open.
    /// - Throws: `WorkoutError`: `FAILED_PRECONDITION` when it holds another account's writes,
    ///   is not an outbox file, or another process keeps it longer than `lockTimeout`;
    ///   `INTERNAL` when the file cannot be read or written.
    public init(path: String, account: String, limits: Limits = Limits(), lockTimeout: Duration = .seconds(10)) throws(WorkoutError) {
        self.path = path
        self.account = account
        self.limits = limits
        var contents = OutboxLog.Contents(records: [], droppedBytes: 0)
        var log = try OutboxLog.openLog(path: path, lockTimeout: lockTimeout, contents: &contents)
        var state = OutboxState()
        for (record, size) in contents.records { state.apply(record, size: size) }
        do throws(WorkoutError) {
            if let stored = state.account, stored != account {
                throw WorkoutError(
                    code: .failedPrecondition,
                    message: "the outbox \(path) holds writes of \(stored), not of \(account); sign in as them to send them, or discard them")
            }
            if state.account == nil {
                state.account = account
                try log.append(encoded: [try OutboxLog.encode(.header(format: OutboxRecord.format, account: account, nextID: state.nextID))], sync: true)
            }
            try Self.compactIfWorthIt(&log, state)
        } catch {
            log.close()
            throw error
        }
        self.droppedBytesAtOpen = contents.droppedBytes
        self.state = Mutex(State(log: log, contents: state))
    }

    deinit {
        state.withLock { state in
            state.log.take()?.close()
        }
    }

    /// Closes the file and releases the lock; later calls fail with `FAILED_PRECONDITION`.
    public func close() {
        state.withLock { state in
            state.log.take()?.close()
        }
    }

    /// The waiting writes, oldest first (refused ones included, with their reasons).
    public var entries: [OutboxEntry] {
        state.withLock { $0.contents.entries }
    }

    /// How many writes wait.
    public var count: Int {
        state.withLock { $0.contents.entries.count }
    }

    /// Whether no write waits.
    public var isEmpty: Bool {
        count == 0
    }

    /// The bytes the waiting writes take (as stored), for the ``Limits/maxBytes`` bound.
    public var bytes: Int {
        state.withLock { $0.contents.bytes }
    }

    /// Queues `write`, folded into a waiting write of the same record where that is possible
    /// (see ``Queued``), and returns once it is on disk.
    ///
    /// - Parameter write: The write, with its record's client-generated id.
    /// - Returns: What became of it.
    /// - Throws: `WorkoutError`: `INVALID_ARGUMENT` for a record the server would refuse (its
    ///   field named as the typed call names it, e.g. `report.steps`, as the
    ///   typed call that sends it would refuse it), or a write that cannot be stored (more than 1 MiB);
    ///   `RESOURCE_EXHAUSTED` past ``limits``; `INTERNAL` when the
    ///   file cannot be written (nothing is queued then); `FAILED_PRECONDITION` once closed.
    @discardableResult
    public func enqueue(_ write: PendingWrite) throws(WorkoutError) -> Queued {
        try enqueue(write, mayHaveBeenSent: false)
    }

    /// Queues `write`; `mayHaveBeenSent` when a direct call of it failed without an answer.
    func enqueue(_ write: PendingWrite, mayHaveBeenSent: Bool, now: Date = Date()) throws(WorkoutError) -> Queued {
        try write.validate(now: now)
        return try state.withLock { state throws(WorkoutError) -> Queued in
            guard state.log != nil else { throw closed() }
            var (records, outcome) = state.contents.plan(write, now: now)
            if mayHaveBeenSent {
                records = records.map { record in
                    guard case .queued(var entry) = record else { return record }
                    entry.mayHaveBeenSent = true
                    return .queued(entry)
                }
                if case .queued(var entry) = outcome {
                    entry.mayHaveBeenSent = true
                    outcome = .queued(entry)
                }
            }
            let payloads = try records.map { record throws(WorkoutError) in try OutboxLog.encode(record) }
            var after = state.contents
            for (record, payload) in zip(records, payloads) { after.apply(record, size: payload.count) }
            if after.entries.count > state.contents.entries.count, after.entries.count > limits.maxWrites {
                throw WorkoutError(
                    code: .resourceExhausted,
                    message: "the outbox is full: it holds \(state.contents.entries.count) writes, its limit; sync them (or discard some) before logging more offline")
            }
            if after.bytes > state.contents.bytes, after.bytes > limits.maxBytes {
                throw WorkoutError(
                    code: .resourceExhausted,
                    message: "the outbox is full: its writes take \(state.contents.bytes) bytes and this one would pass its limit of \(limits.maxBytes); sync them (or discard some) before logging more offline")
            }
            try state.log!.append(encoded: payloads, sync: true)
            state.contents = after
            return outcome
        }
    }

    /// Removes a waiting write without sending it (a refused one the member gave up on, or one
    /// they changed their mind about).
    ///
    /// - Parameter id: The entry's id.
    /// - Returns: The removed entry.
    /// - Throws: `WorkoutError`: `NOT_FOUND` when no such write waits; `FAILED_PRECONDITION`
    ///   while a sync is sending it; `INTERNAL` when the file cannot be written.
    @discardableResult
    public func discard(_ id: UInt64) throws(WorkoutError) -> OutboxEntry {
        try change(id) { entry throws(WorkoutError) in [.removed(id: id)] }
    }

    /// Clears a refused write's refusal, so that the next sync sends it again (after the member
    /// fixed what the refusal was about: signed in again, for one).
    ///
    /// - Parameter id: The entry's id.
    /// - Returns: The entry, without its refusal.
    /// - Throws: `WorkoutError`: `NOT_FOUND` when no such write waits; `FAILED_PRECONDITION`
    ///   when it was not refused; `INTERNAL` when the file cannot be written.
    @discardableResult
    public func retry(_ id: UInt64) throws(WorkoutError) -> OutboxEntry {
        let entry = try change(id) { entry throws(WorkoutError) in
            guard entry.refusal != nil else {
                throw WorkoutError(code: .failedPrecondition, message: "write \(id) in the outbox was not refused; the next sync sends it")
            }
            return [.retried(id: id)]
        }
        var retried = entry
        retried.refusal = nil
        return retried
    }

    /// Appends the records `body` makes of waiting entry `id`, durably.
    private func change(_ id: UInt64, _ body: (OutboxEntry) throws(WorkoutError) -> [OutboxRecord]) throws(WorkoutError) -> OutboxEntry {
        try state.withLock { state throws(WorkoutError) -> OutboxEntry in
            guard state.log != nil else { throw closed() }
            guard let entry = state.contents.entry(id) else {
                throw WorkoutError(code: .notFound, message: "no write \(id) waits in the outbox")
            }
            if state.isSyncing, entry.refusal == nil {
                throw WorkoutError(code: .failedPrecondition, message: "write \(id) in the outbox is being sent; try again after the sync")
            }
            let records = try body(entry)
            try append(records, to: &state, sync: true)
            return entry
        }
    }

    /// Encodes, appends and applies `records` (with the lock held).
    func append(_ records: [OutboxRecord], to state: inout State, sync: Bool) throws(WorkoutError) {
        guard state.log != nil else { throw closed() }
        let payloads = try records.map { record throws(WorkoutError) in try OutboxLog.encode(record) }
        try state.log!.append(encoded: payloads, sync: sync)
        for (record, payload) in zip(records, payloads) { state.contents.apply(record, size: payload.count) }
    }

    /// Rewrites the file with only what waits, when dead records take more than three quarters
    /// of it (and it is over 64 KiB).
    static func compactIfWorthIt(_ log: inout OutboxLog, _ contents: OutboxState) throws(WorkoutError) {
        guard log.recordBytes > 64 << 10, log.recordBytes > 4 * (contents.bytes + 1024) else { return }
        try log.rewrite(records: contents.compacted)
    }

    /// The error of a call after ``close()``.
    func closed() -> WorkoutError {
        WorkoutError(code: .failedPrecondition, message: "the outbox \(path) was closed")
    }
}
