import Dispatch
import Foundation
import Synchronization

/// Makes an environment's commits durable with one small synced append each, instead of
/// liblmdb's two syncs of the data file (its pages, then its meta page).
///
/// The environment runs with `MDB_NOSYNC`: a commit writes its pages and its meta page into the
/// page cache and returns. Then its changes (a ``RedoLog``) are appended to the log file and
/// synced, and only then does the commit return to its caller. In the background, a checkpoint
/// now and then syncs the data file and records, in the checkpoint file, a transaction all of
/// whose pages are durable together with that transaction's two meta pages.
///
/// Why that is safe after a power cut, when liblmdb's own `MDB_NOSYNC` is not: the kernel may
/// write a later meta page to disk before the pages it points at, so the newest meta page on
/// disk cannot be trusted. Recovery therefore puts the checkpoint's meta pages back first, then
/// replays the log's records after the checkpoint, each as the transaction it was. For that the
/// checkpoint's tree must still be on disk as it was synced: a read transaction on it (the *pin*)
/// stays open until the next checkpoint is recorded, and liblmdb never reuses a page that a
/// reader's snapshot can reach.
///
/// The log is a core and a shell: the byte formats (``LogFormat``, ``CheckpointFormat``) and the
/// rules (``LogPolicy``) are values; the files are reached through a ``LogStorage`` and the data
/// file through a ``LogSubject``, so that the tests run it on an in-memory disk that crashes.
///
/// Rules:
/// 1. Every write transaction of the environment is logged (``Environment/write(_:)`` serialises
///    them, from begin to append). One whose changes were not recorded checkpoints at once.
/// 2. A record is appended after its transaction committed and synced before the commit
///    returns; a failed append checkpoints at once instead, and the commit fails only when
///    that fails too.
/// 3. A checkpoint never goes back: one older than the recorded one is dropped.
/// 4. The pins stay open while the map grows (they are never read through), so the recorded
///    checkpoint's tree is never reused. After a failed sync of the data file no checkpoint is
///    recorded again (Linux may have dropped the pages it could not write, and a later sync
///    that succeeds would not say so; PostgreSQL stops for the same reason): the log keeps
///    every record from the last good one, and the next opening replays them.
/// 5. One process keeps the log: the first to open the environment with a log (it holds the
///    checkpoint file's ownership lock). It puts a checkpoint back and replays the log only
///    when no other process has the environment open (after a power cut none has). Another
///    process opening it meanwhile (`workoutd invite` beside a running server) commits with
///    liblmdb's own syncs and records each commit as a checkpoint; the owner, finding a
///    transaction of another process between two of its own, checkpoints before it logs again.
/// 6. A checkpoint's transaction and meta pages are read while holding liblmdb's writer lock,
///    so that no process's commit is half written into them.
/// 7. The log, the checkpoint and the data file know each other by what they hold, never by
///    where they are: the log files and the checkpoint carry the store's identity, and the
///    checkpoint a copy of its tree's root page, which the data file it belongs to holds (a
///    copy of the directory too). What does not match is refused, loudly, never applied.
/// 8. Recovery reads one record at a time, and refuses to open at damage with acknowledged
///    records after it (``LogScanner``), naming the file and the offset.
/// 9. Past ``LogPolicy/Limits/ceilingBytes`` that no checkpoint covers, writes are refused.
///
/// Known limits: a process that opens the environment in the instant between the owner's
/// check of `lock.mdb` and its own opening may see the meta pages put back under it (opening
/// after a crash while `workoutd invite` starts); and one process must not open the same
/// environment twice (liblmdb's rule too), since closing the check's descriptor of `lock.mdb`
/// would drop that process's locks on it. A commit whose append and fallback checkpoint both
/// fail is reported failed although it is committed and visible, as any commit whose sync
/// fails is. The last record of the log, damaged after it was synced, reads as torn.
///
/// Lock order: the environment's map lock (shared), then ``checkpointLock``, then `state`; the
/// writer lock of liblmdb is taken inside ``LogSubject`` calls only, with none of this class's
/// locks but ``checkpointLock`` held.
final class WriteAheadLog: @unchecked Sendable {
    // Safe because: the log files and `store` are used only by the environment's one writer at
    // a time (rule 1) or under the map lock held exclusively; checkpoints are serialised by
    // `checkpointLock`; the policy and the pins are behind `state`.

    /// The log's two files' names inside the environment's directory: one is appended to until
    /// it passes ``LogPolicy/Limits/switchBytes`` and a checkpoint covers the other, then the
    /// other.
    static let logFileNames = ["wal-0", "wal-1"]
    /// The checkpoint file's name inside the environment's directory.
    static let checkpointFileName = "checkpoint"

    /// Whether this process keeps the log (rule 5); otherwise it only records checkpoints.
    let isOwner: Bool
    /// What opening did: the records replayed, and what a repair set aside (set in `init`).
    private(set) var recovery = WriteAheadLogRecovery()

    let subject: any LogSubject
    private let logs: [LogFile]
    let checkpoints: CheckpointFile
    let store: StoreIdentity
    private let checkpointLock = NSLock()
    private let startBackground: (@escaping @Sendable () -> Void) -> Void
    let state: Mutex<State>

    struct State {
        var policy: LogPolicy
        /// The read transaction holding the recorded checkpoint's tree.
        var pin: (any LogPin)?
        /// The pin of the checkpoint being taken in the background.
        var pendingPin: (any LogPin)?
    }

    /// How many records this process appended around the page cache.
    var directAppends: Int { logs.reduce(0) { $0 + $1.file.directWrites } }

    /// After the data file opened: the owner replays the log's records after the restored
    /// checkpoint, then checkpoints, so that the log starts again.
    ///
    /// - Parameters:
    ///   - prepared: what ``prepare(storage:dataFile:mode:)`` found before the data file opened.
    ///   - subject: the opened data file.
    ///   - limits: the policy's sizes.
    ///   - startBackground: runs a background checkpoint's last steps (a queue of its own;
    ///     the tests run them when they choose).
    init(
        prepared: Prepared, subject: any LogSubject, limits: LogPolicy.Limits = .init(),
        startBackground: ((@escaping @Sendable () -> Void) -> Void)? = nil
    ) throws(LMDBError) {
        self.subject = subject
        self.isOwner = prepared.isOwner
        self.logs = prepared.logs
        self.checkpoints = prepared.checkpoints
        self.store = prepared.store
        if let startBackground {
            self.startBackground = startBackground
        } else {
            let queue = DispatchQueue(label: "lmdb.checkpoint", qos: .utility)
            self.startBackground = { queue.async(execute: $0) }
        }
        let current = try subject.lastTransaction()
        let policy = LogPolicy(
            limits: limits, lastCommitted: current, checkpointed: prepared.checkpoint?.transactionID ?? 0,
            newestGeneration: prepared.newestGeneration)
        self.state = Mutex(State(policy: policy))
        recovery.setAside = prepared.setAside
        guard isOwner else { return }
        if let restored = prepared.restored {
            guard restored.transactionID == current else {
                throw LMDBError(
                    code: .corrupted, operation: "mdb_env_open",
                    message: "the data file opened at transaction \(current), not at its checkpoint's \(restored.transactionID)")
            }
            // The restored checkpoint's tree stays whole while the records are replayed on it.
            let pin = try subject.pinNewest(expecting: current)
            state.withLock { $0.pin = pin }
            recovery = try replay(after: restored, prepared: prepared)
            let last = try subject.lastTransaction()
            state.withLock { $0.policy = LogPolicy(limits: limits, lastCommitted: last, checkpointed: current, newestGeneration: prepared.newestGeneration) }
        }
        try checkpoint(keepingPin: true)
    }

    // MARK: Commits

    /// Refuses a write transaction before it begins while the log holds more than its ceiling
    /// uncovered (rule 9).
    ///
    /// - Throws: ``LMDBError/Code/writeAheadLogFull``.
    func admitWrite() throws(LMDBError) {
        guard isOwner else { return }
        let (ceiling, dataSyncFailed, mustCheckpoint) = state.withLock { ($0.policy.refusal(), $0.policy.dataSyncFailed, $0.policy.mustCheckpoint) }
        if mustCheckpoint && dataSyncFailed {
            // The write could be logged only after a checkpoint, which cannot be recorded
            // (rule 4): it would commit, be visible, and fail. Refuse it before it begins.
            throw LMDBError(
                code: .writeAheadLogFull, operation: "mdb_txn_begin",
                message: "the store cannot make its data file durable: a sync of the data file failed, and the write-ahead log cannot take this write without a checkpoint; every acknowledged write is in the log, and opening the store again replays it")
        }
        guard var bytes = ceiling else { return }
        if !dataSyncFailed {
            // Only checkpoints failed (the checkpoint file): one more may lift the refusal.
            try? checkpoint(keepingPin: true)
            guard let still = state.withLock({ $0.policy.refusal() }) else { return }
            bytes = still
        }
        throw LMDBError(
            code: .writeAheadLogFull, operation: "mdb_txn_begin",
            message: "the store cannot make its data file durable: its write-ahead log holds \(bytes) bytes that no checkpoint covers"
                + (dataSyncFailed
                    ? " since a sync of the data file failed; every acknowledged write is in the log, and opening the store again replays it"
                    : "; writes resume once a checkpoint is recorded"))
    }

    /// Makes transaction `transactionID`, just committed, durable (rules 1 and 2). Called by the
    /// environment's writer with the map lock held shared.
    ///
    /// - Parameter record: what the transaction changed (a ``RedoLog``'s bytes), or `nil` when
    ///   it was not recorded.
    func committed(_ transactionID: UInt64, record: [UInt8]?) throws(LMDBError) {
        guard isOwner else {
            try checkpointAfterOwnSync()
            return
        }
        // A record too large for the format (over 1 GiB) is checkpointed instead, as one not
        // recorded.
        let payload = record.flatMap { $0.isEmpty || $0.count > LogFormat.maxPayload ? nil : $0 }
        var action = state.withLock { $0.policy.commit(transactionID, recordBytes: payload.map { LogFormat.recordHeaderSize + $0.count }) }
        while true {
            let file: Int
            switch action {
            case .checkpoint:
                try checkpoint(keepingPin: true)
                return
            case .append(let appendTo, _):
                file = appendTo
            case .startAndAppend(let appendTo, let generation):
                file = appendTo
                do {
                    try logs[file].start(generation: generation, store: store)
                } catch {
                    action = state.withLock { $0.policy.appendFailed() }
                    continue
                }
            }
            let size: Int
            do {
                size = try logs[file].append(transactionID: transactionID, payload: payload!)
            } catch {
                action = state.withLock { $0.policy.appendFailed() }
                continue
            }
            if state.withLock({ $0.policy.appended(transactionID, bytes: size) }) { startCheckpoint() }
            return
        }
    }

    /// Pins the newest transaction and reads its meta pages, and records them as a checkpoint in
    /// the background once the data file is synced (the policy said one is due).
    private func startCheckpoint() {
        let oldest = state.withLock { $0.policy.oldestGenerationInUse }
        guard let (image, pin) = try? subject.captureNewest(pinning: true), let pin else {
            state.withLock { $0.policy.backgroundCheckpointEnded(recorded: nil) }
            return
        }
        state.withLock { $0.pendingPin = pin }
        let checkpoint = Checkpoint(
            transactionID: image.transactionID, metaPages: image.metaPages, store: store, oldestGeneration: oldest,
            rootPage: image.rootPage)
        startBackground { [self] in finishCheckpoint(checkpoint, pin: pin) }
    }

    private func finishCheckpoint(_ checkpoint: Checkpoint, pin: any LogPin) {
        subject.whileUsable {
            checkpointLock.withLock {
                enum Turn { case proceed, endPin, nothing }
                let turn = state.withLock { state -> Turn in
                    // Not pending: the environment closed, and ended the pin.
                    guard state.pendingPin === pin else { return .nothing }
                    if state.policy.closed || state.policy.checkpointed >= checkpoint.transactionID {
                        // A synchronous checkpoint went past this one (rule 3).
                        state.pendingPin = nil
                        state.policy.backgroundCheckpointEnded(recorded: nil)
                        return .endPin
                    }
                    return .proceed
                }
                switch turn {
                case .proceed: break
                case .endPin:
                    pin.end()
                    return
                case .nothing:
                    return
                }
                let recorded: UInt64
                do {
                    try syncData()
                    recorded = try checkpoints.write(checkpoint)
                } catch {
                    // The recorded checkpoint stays.
                    state.withLock { state in
                        state.pendingPin = nil
                        state.policy.backgroundCheckpointEnded(recorded: nil)
                    }
                    pin.end()
                    return
                }
                let old = state.withLock { state -> (any LogPin)? in
                    state.pendingPin = nil
                    state.policy.backgroundCheckpointEnded(recorded: recorded)
                    // Another process recorded a newer one (rule 3): the pin is not needed (the
                    // older pin kept protects that one's tree too).
                    guard recorded == checkpoint.transactionID else { return pin }
                    let old = state.pin
                    state.pin = pin
                    return old
                }
                old?.end()
            }
        }
    }

    // MARK: Synchronous checkpoints

    /// Syncs the data file and records the newest transaction as the checkpoint, pinning it
    /// when `keepingPin`; the current log file then starts again. The caller keeps this
    /// process's writers out (it is the writer, or holds the map lock exclusively).
    func checkpoint(keepingPin: Bool) throws(LMDBError) {
        guard isOwner else {
            try checkpointAfterOwnSync()
            return
        }
        checkpointLock.lock()
        defer { checkpointLock.unlock() }
        let (generation, current) = state.withLock { ($0.policy.planSynchronousCheckpoint(), $0.policy.current) }
        let (image, pin) = try subject.captureNewest(pinning: keepingPin)
        let recorded: UInt64
        do {
            try syncData()
        } catch {
            pin?.end()
            throw error
        }
        do {
            recorded = try checkpoints.write(Checkpoint(
                transactionID: image.transactionID, metaPages: image.metaPages, store: store, oldestGeneration: generation,
                rootPage: image.rootPage))
        } catch {
            state.withLock { $0.policy.synchronousCheckpointFailed() }
            pin?.end()
            throw error
        }
        // Every record in either file is covered now: the file starts again. A file that
        // cannot start leaves the log checkpointing at every commit until one can (rule 2).
        let started: UInt64? = (try? logs[current].start(generation: generation, store: store)).map { generation }
        let old = state.withLock { state -> (any LogPin)? in
            state.policy.synchronousCheckpointRecorded(recorded, startedAt: started)
            let old = state.pin
            state.pin = pin
            return old
        }
        old?.end()
    }

    /// A process that does not keep the log (rule 5), after its commit synced itself: records
    /// the newest transaction as the checkpoint, synced and read under the writer lock, since
    /// the owner's newer commits are not synced. It keeps the recorded checkpoint's identity
    /// and generations: the owner checkpoints before it logs again.
    private func checkpointAfterOwnSync() throws(LMDBError) {
        let image = try subject.syncAndCaptureNewest()
        // With no checkpoint yet (the owner has not recorded its first), none is invented: the
        // commit is durable by its own sync, and the owner checkpoints before it logs again.
        try checkpoints.write { recorded in
            recorded.map {
                Checkpoint(
                    transactionID: image.transactionID, metaPages: image.metaPages, store: $0.store,
                    oldestGeneration: $0.oldestGeneration, rootPage: image.rootPage)
            }
        }
    }

    /// Syncs the data file, unless one of its syncs failed before (rule 4).
    private func syncData() throws(LMDBError) {
        if state.withLock({ $0.policy.dataSyncFailed }) {
            throw LMDBError(
                code: .ioError, operation: "mdb_env_sync",
                message: "an earlier sync of the data file failed; no checkpoint is recorded until the store is opened again")
        }
        do {
            try subject.syncData()
        } catch {
            state.withLock { $0.policy.dataSyncDidFail() }
            throw error
        }
    }

    /// Where the log stands: what it holds uncovered against its ceiling.
    var status: WriteAheadLogStatus {
        state.withLock { state in
            WriteAheadLogStatus(
                uncoveredBytes: state.policy.uncoveredBytes, ceilingBytes: state.policy.limits.ceilingBytes,
                dataSyncFailed: state.policy.dataSyncFailed, refusingWrites: state.policy.refusal() != nil)
        }
    }

    /// Checkpoints one last time (so the next opening replays nothing) and closes the pins.
    /// Called with the map lock held exclusively, before liblmdb closes the environment.
    func close() {
        if isOwner { try? checkpoint(keepingPin: false) }
        let pins = state.withLock { state -> [any LogPin] in
            state.policy.close()
            defer {
                state.pin = nil
                state.pendingPin = nil
            }
            return [state.pin, state.pendingPin].compactMap { $0 }
        }
        for pin in pins { pin.end() }
        // Another process may keep the log from now on.
        checkpoints.releaseOwnership()
    }
}

/// What opening an environment with a write-ahead log did.
package struct WriteAheadLogRecovery: Sendable, Equatable {
    /// How many records were replayed: transactions committed after the last checkpoint by a
    /// process that did not close the store.
    package var replayedTransactions = 0
    /// What a repair found damaged and dropped, in words (`nil`: nothing).
    package var damage: String?
    /// How many logged transactions a repair dropped (after the damage).
    package var droppedTransactions = 0
    /// The files a repair moved aside (named as they are now).
    package var setAside: [String] = []
}

/// Where a write-ahead log stands (``Environment/writeAheadLogStatus``).
package struct WriteAheadLogStatus: Sendable, Hashable {
    /// Bytes the log holds that no checkpoint covers.
    package var uncoveredBytes: Int
    /// Past this, writes are refused.
    package var ceilingBytes: Int
    /// Whether a sync of the data file failed (no checkpoint until the store opens again).
    package var dataSyncFailed: Bool
    /// Whether writes are being refused now.
    package var refusingWrites: Bool
}
