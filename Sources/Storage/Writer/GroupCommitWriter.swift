import Dispatch
package import Foundation
package import LMDB
import Synchronization
import SystemCalls

/// The single writer: gathers every write operation that is waiting, applies them in one
/// transaction, commits them all at once (one fsync), and only then completes every caller
/// with its own result.
///
/// Rules (see the module's README.md):
/// 1. Operations may be submitted from any thread; they run one at a time, in submission
///    order: on the writer's serial queue, or, for a caller that allows it
///    (`mayCommitOnCaller`) and finds the writer idle, on the caller's own thread for one
///    batch, the one holding its operation (see ``submit(_:mayCommitOnCaller:completion:)``).
/// 2. A failing operation is rolled back alone; its neighbours in the batch commit. A batch
///    is first applied without nested transactions (the common case: every operation
///    succeeds); when one fails, the transaction is aborted and the batch applied again with
///    each operation in its own nested transaction.
/// 3. No caller hears back before its batch is durable: before the batch's commit has
///    returned (with the store's write-ahead log, once its record is synced), and, when the
///    environment defers its meta page's sync (`.noMetaSync`), before
///    the next sync of the data file (the next batch's commit, or ``Environment/sync()`` when
///    no batch waits). A commit then costs one barrier instead of two (the data pages' sync,
///    then the meta page's), and an acknowledged write is still durable. Failures wait too:
///    they may have seen the batch before them.
/// 4. An operation may run more than once (when the map grows, the whole batch is applied
///    again), so it must have no effects outside its transaction.
/// 5. Completions run where the batch was committed (the writer's queue, or the thread of
///    the caller that committed it): they must be short and must not wait for another write.
/// 6. A commit that fails for lack of space (disk or quota full, map at its maximum, or an
///    `EIO` while the disk has almost no room left: LMDB's short write) fails its
///    callers with ``StorageError/Code/storageFull`` and marks the store full in
///    ``statistics``; the next commit that succeeds clears the mark. Nothing is latched: the
///    writer simply tries each batch.
package final class GroupCommitWriter: Sendable {
    private let environment: Environment
    /// Whether a commit makes its batch durable by itself (rule 3): not with `.noMetaSync`.
    private let commitIsDurable: Bool
    private let queue: DispatchQueue
    private let maxBatchSize: Int
    private let state = Mutex(State())
    private let counters = Mutex(WriterStatistics())
    /// Entered while a drain runs (``State/draining``), for ``close()`` to wait on.
    private let drains = DispatchGroup()

    private struct State: ~Copyable {
        var pending: [PendingWrite] = []
        var draining = false
        var closed = false
        /// How many operations the last batch carried: one says the writes come one at a time.
        var lastBatchSize = 0
    }

    /// One submitted operation, erased to what the writer needs.
    struct PendingWrite: Sendable {
        /// Applies the operation inside the batch's transaction (or a nested one, see rule 2),
        /// keeping its value for `finish`.
        let apply: @Sendable (inout WriteTransaction) throws -> Void
        /// Completes the caller: with the kept value when `error` is nil.
        let finish: @Sendable (_ error: (any Error)?) -> Void
    }

    /// Creates the writer of `environment`.
    ///
    /// - Parameters:
    ///   - environment: the environment to write to.
    ///   - maxBatchSize: the most operations one commit takes; bounds a batch's latency.
    ///   - label: the name of the writer's queue.
    package init(environment: Environment, maxBatchSize: Int = 1024, label: String = "workout.storage.writer") {
        precondition(maxBatchSize > 0, "maxBatchSize must be positive")
        self.environment = environment
        self.commitIsDurable = !environment.configuration.flags.contains(.noMetaSync)
        self.maxBatchSize = maxBatchSize
        self.queue = DispatchQueue(label: label, qos: .userInitiated)
    }

    /// Submits `operation`; `completion` gets its result once the batch it joined is committed.
    ///
    /// When `mayCommitOnCaller` is set, no batch is being committed and the last batch carried
    /// a single operation (writes come one at a time), the calling thread commits the batch
    /// itself (its operation and whatever else waits) before this returns, and hands anything
    /// submitted meanwhile to the writer's queue: a lone write then costs no wake-up of the
    /// writer's thread, nor one back. After a batch of several, the writer's queue commits, and
    /// its wake-up lets the writes of other callers that arrive meanwhile join the batch.
    ///
    /// Set it only on a thread that may block for a commit (a sync of the disk): a
    /// connection's own queue, never the cooperative pool of Swift's tasks, and only where the
    /// operation's completion does not need this thread to go on. Stores whose commits are not
    /// durable by themselves (`.noMetaSync`) always commit on the writer's queue.
    ///
    /// - Parameters:
    ///   - operation: the writes, applied in the batch's transaction; what it throws fails it
    ///     alone (rule 2), and it may run more than once (rule 4).
    ///   - mayCommitOnCaller: whether the calling thread may commit the batch (see above).
    ///   - completion: called once, where the batch was committed (rule 5), with the
    ///     operation's value, or with its error, or with the commit's error.
    package func submit<R: Sendable>(
        _ operation: @escaping @Sendable (inout WriteTransaction) throws -> R,
        mayCommitOnCaller: Bool = false,
        completion: @escaping @Sendable (Result<R, any Error>) -> Void
    ) {
        let slot = ResultSlot<R>()
        let pending = PendingWrite(
            apply: { txn in slot.value = try operation(&txn) },
            finish: { error in
                if let error {
                    completion(.failure(error))
                } else if let value = slot.value {
                    completion(.success(value))
                } else {
                    completion(.failure(StorageError(.closed, "the write was not applied")))
                }
            })
        let start: SubmissionStart = state.withLock { state in
            if state.closed { return .refused }
            state.pending.append(pending)
            if state.draining { return .joined }
            state.draining = true
            drains.enter()
            return mayCommitOnCaller && commitIsDurable && state.lastBatchSize <= 1 ? .onCaller : .onQueue
        }
        switch start {
        case .refused:
            completion(.failure(StorageError(.closed, "the store is closed; the write was not applied")))
        case .onCaller:
            drain(handingOnAfterOneBatch: true)
        case .onQueue:
            queue.async { self.drain(handingOnAfterOneBatch: false) }
        case .joined:
            break
        }
    }

    /// What a submission does once its operation is queued.
    private enum SubmissionStart { case refused, joined, onQueue, onCaller }

    /// Applies `operation` in the next group commit and returns its value once committed.
    ///
    /// - Parameter mayCommitOnCaller: whether the calling thread may commit the batch when
    ///   the writer is idle (see ``submit(_:mayCommitOnCaller:completion:)``): only for a task
    ///   whose executor is a Dispatch queue of its own, never Swift's cooperative pool.
    package func write<R: Sendable>(
        mayCommitOnCaller: Bool = false, _ operation: @escaping @Sendable (inout WriteTransaction) throws -> R
    ) async throws -> R {
        try await withCheckedThrowingContinuation { continuation in
            submit(operation, mayCommitOnCaller: mayCommitOnCaller) { continuation.resume(with: $0) }
        }
    }

    /// Applies `operation` in the next group commit, blocking the calling thread until it is
    /// committed. Never call it from a completion or from inside a transaction.
    package func writeAndWait<R: Sendable>(_ operation: @escaping @Sendable (inout WriteTransaction) throws -> R) throws -> R {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<R, any Error>?>(nil)
        // The thread waits anyway: it may as well commit.
        submit(operation, mayCommitOnCaller: true) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }

    /// Counts of commits and operations so far.
    package var statistics: WriterStatistics { counters.withLock { $0 } }

    /// Whether no batch is being committed: a caller's completion runs before the committing
    /// thread looks for more work, so a caller that heard back may find the writer busy for a
    /// moment still.
    package var isIdle: Bool { state.withLock { !$0.draining } }

    /// How many submitted operations wait for the next batch (the one being committed not
    /// counted).
    package var pendingOperations: Int { state.withLock { $0.pending.count } }

    /// Refuses new operations, then waits until every submitted one is committed and completed.
    package func close() {
        state.withLock { $0.closed = true }
        drains.wait()
    }

    // MARK: Committing

    /// Commits batches until none waits, then marks the writer idle. With
    /// `handingOnAfterOneBatch` (a caller committing on its own thread), it commits one batch
    /// and hands what waits then to the writer's queue.
    private func drain(handingOnAfterOneBatch: Bool) {
        // Completions of batches committed but not yet durable (rule 3), with their outcomes.
        var awaitingSync: [(PendingWrite, (any Error)?)] = []
        while true {
            let batch: [PendingWrite] = state.withLock { state in
                let count = min(state.pending.count, maxBatchSize)
                defer { state.pending.removeFirst(count) }
                if count == 0 { state.draining = false } else { state.lastBatchSize = count }
                return Array(state.pending.prefix(count))
            }
            if batch.isEmpty {
                // No batch waits whose commit would sync the data file: sync it now.
                if !awaitingSync.isEmpty { finishAfterSync(awaitingSync) }
                drains.leave()
                return
            }
            let outcome = commit(batch)
            if outcome.synced {
                // This commit synced the data file, and with it every earlier meta page.
                finish(awaitingSync)
                awaitingSync = []
            } else if outcome.failed, !awaitingSync.isEmpty {
                // Whether the failed commit synced anything is unknown: sync now.
                finishAfterSync(awaitingSync)
                awaitingSync = []
            }
            let completions = Array(zip(batch, outcome.errors))
            // With nothing awaiting a sync, everything committed before is durable: a batch
            // that committed nothing can be answered now.
            if commitIsDurable || outcome.failed || (!outcome.synced && awaitingSync.isEmpty) {
                finish(completions)
            } else {
                awaitingSync += completions
            }
            if handingOnAfterOneBatch {
                // Only durable commits are made on a caller's thread: nothing awaits a sync.
                counters.withLock { $0.callerCommits += 1 }
                let more = state.withLock { state in
                    if state.pending.isEmpty { state.draining = false }
                    return state.draining
                }
                if more { queue.async { self.drain(handingOnAfterOneBatch: false) } } else { drains.leave() }
                return
            }
        }
    }

    /// Completes each caller with its outcome.
    private func finish(_ completions: [(PendingWrite, (any Error)?)]) {
        for (pending, error) in completions { pending.finish(error) }
    }

    /// Syncs the data file (making every committed meta page durable), then completes each
    /// caller: with its outcome, or with the sync's error when the sync failed.
    private func finishAfterSync(_ completions: [(PendingWrite, (any Error)?)]) {
        var syncError: (any Error)?
        do {
            try environment.sync()
        } catch {
            syncError = named(error)
        }
        counters.withLock { stats in
            stats.idleSyncs += 1
            if syncError != nil { stats.failedOperations += completions.count }
        }
        for (pending, error) in completions { pending.finish(syncError ?? error) }
    }

    /// Applies every operation of `batch` in the one write transaction itself, and commits.
    ///
    /// Nearly every write succeeds, and a nested transaction per operation costs a copy of
    /// every page it touches that an earlier operation of the batch already dirtied, and a
    /// merge of its dirty pages into the batch's on commit: over a third of a write's CPU in
    /// a profile of 64 connections logging weights. So the batch is first applied without
    /// them; when an operation fails, the transaction is aborted (nothing of the batch is
    /// kept) and ``DirectBatchFailure`` says which, for ``applyNested(_:failures:)`` to apply
    /// the batch again with each operation on its own (rule 4: operations may run again).
    private func applyDirectly(_ batch: [PendingWrite]) throws {
        try environment.write { txn in
            for position in batch.indices {
                do {
                    try batch[position].apply(&txn)
                } catch {
                    // After MDB_MAP_FULL the transaction can only abort; `write` grows the map
                    // and runs this body again.
                    if txn.hitMapFull { return }
                    throw DirectBatchFailure(position: position, error: error)
                }
                if txn.hitMapFull { return }
            }
        }
    }

    /// Applies each operation of `batch` in its own nested transaction, so that one that fails
    /// is rolled back alone (its error kept in `failures`), and commits the others.
    private func applyNested(_ batch: [PendingWrite], failures: inout [(any Error)?]) throws {
        try environment.write { txn in
            // The body may run again after the map grows: start from a clean slate.
            for position in batch.indices {
                failures[position] = nil
                do {
                    try txn.withNestedTransaction { child in try batch[position].apply(&child) }
                } catch {
                    failures[position] = error
                }
                // After MDB_MAP_FULL the transaction can only abort; `write` grows the map
                // and runs this body again.
                if txn.hitMapFull { return }
            }
        }
    }

    /// A failed commit's or sync's error as callers hear it: a lack of space as
    /// ``StorageError/Code/storageFull`` (rule 6), anything else as it was thrown.
    private func named(_ error: any Error) -> any Error {
        StorageError(lackOfSpace: error) { [environment] in
            try? SystemCall.availableBytes(onFileSystemOf: environment.path)
        } ?? error
    }

    /// What a commit did: each operation's error, whether the commit returned (so the data
    /// file was synced), whether it failed as a whole.
    private struct CommitOutcome {
        var errors: [(any Error)?]
        var synced: Bool
        var failed: Bool
    }

    /// Applies and commits `batch`; completes no caller (``drain(handingOnAfterOneBatch:)``
    /// does, rule 3).
    private func commit(_ batch: [PendingWrite]) -> CommitOutcome {
        var failures = [(any Error)?](repeating: nil, count: batch.count)
        var commitError: (any Error)?
        var committed = true
        var reapplied = false
        let started = DispatchTime.now().uptimeNanoseconds
        do {
            do {
                try applyDirectly(batch)
            } catch let failure as DirectBatchFailure {
                if batch.count == 1 {
                    // Nothing else was in the transaction: aborting it rolled back the one
                    // write, and nothing was committed.
                    failures[0] = failure.error
                    committed = false
                } else {
                    reapplied = true
                    try applyNested(batch, failures: &failures)
                }
            }
        } catch {
            commitError = named(error)
        }
        let elapsed = DispatchTime.now().uptimeNanoseconds - started
        let full = (commitError as? StorageError)?.code == .storageFull
        let failed = failures.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
        counters.withLock { stats in
            if committed { stats.commits += 1 }
            if reapplied { stats.reappliedBatches += 1 }
            stats.operations += batch.count
            stats.failedOperations += commitError == nil ? failed : batch.count
            if commitError != nil { stats.failedCommits += 1 }
            stats.largestBatch = max(stats.largestBatch, batch.count)
            stats.commitNanoseconds += elapsed
            if full {
                if stats.storageFullSince == nil { stats.storageFullSince = Date() }
                stats.operationsRefusedForSpace += batch.count
            } else if commitError == nil && committed {
                stats.storageFullSince = nil
            }
        }
        return CommitOutcome(
            errors: failures.map { commitError ?? $0 }, synced: committed && commitError == nil, failed: commitError != nil)
    }
}

/// What the writer has done since it started.
package struct WriterStatistics: Sendable, Hashable {
    /// Commits (each one sync of the data file, and one of the meta page unless it is
    /// deferred), including failed ones; a batch of one failing operation commits nothing.
    package var commits = 0
    /// Syncs of the data file made when no batch waited, to make the last commit durable
    /// (only when the meta page's sync is deferred, `.noMetaSync`).
    package var idleSyncs = 0
    /// Batches applied a second time, each operation in its own nested transaction, because
    /// one of their operations failed (rule 2): a client whose writes keep failing costs
    /// each batch it joins twice the work, never more.
    package var reappliedBatches = 0
    /// Operations applied, in all commits.
    package var operations = 0
    /// Operations that failed (their own error or their commit's).
    package var failedOperations = 0
    /// Commits that failed as a whole.
    package var failedCommits = 0
    /// The most operations one commit carried.
    package var largestBatch = 0
    /// Batches committed on the thread of a caller that allowed it and found the writer idle
    /// (``GroupCommitWriter/submit(_:mayCommitOnCaller:completion:)``), not on the writer's queue.
    package var callerCommits = 0
    /// Time spent applying and committing batches, in nanoseconds.
    package var commitNanoseconds: UInt64 = 0
    /// Since when commits have been failing for lack of space; `nil` once one succeeded.
    package var storageFullSince: Date?
    /// Operations refused for lack of space since the writer started.
    package var operationsRefusedForSpace = 0

    /// Operations per commit on average.
    package var operationsPerCommit: Double { commits == 0 ? 0 : Double(operations) / Double(commits) }
}

/// An operation failed while a batch was applied without nested transactions: the batch's
/// transaction was aborted, and is applied again with each operation on its own.
struct DirectBatchFailure: Error {
    /// The operation's position in the batch.
    let position: Int
    /// What it threw.
    let error: any Error
}

/// Holds one operation's value between applying it and completing its caller.
final class ResultSlot<R: Sendable>: @unchecked Sendable {
    // Safe because: written only by the thread committing the batch while applying it, and
    // read by that thread after the commit, before the slot is dropped.
    var value: R?
}
