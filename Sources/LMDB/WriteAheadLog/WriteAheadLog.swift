internal import CLMDB
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
///    that succeeds would not say so): the log keeps every record from the last good one.
/// 5. One process keeps the log: the first to open the environment with a log (it holds the
///    checkpoint file's ownership lock). It puts a checkpoint back and replays the log only
///    when no other process has the environment open (after a power cut none has). Another
///    process opening it meanwhile (`workoutd invite` beside a running server) commits with
///    liblmdb's own syncs and records each commit as a checkpoint; the owner, finding a
///    transaction of another process between two of its own, checkpoints before it logs again.
/// 6. A checkpoint's transaction and meta pages are read while holding liblmdb's writer lock,
///    so that no process's commit is half written into them.
///
/// Known limits: a process that opens the environment in the instant between the owner's
/// check of `lock.mdb` and its own opening may see the meta pages put back under it (opening
/// after a crash while `workoutd invite` starts); and one process must not open the same
/// environment twice (liblmdb's rule too), since closing the check's descriptor of `lock.mdb`
/// would drop that process's locks on it. A commit whose append and fallback checkpoint both
/// fail is reported failed although it is committed and visible, as any commit whose sync
/// fails is.
final class WriteAheadLog: @unchecked Sendable {
    // Safe because: the log files, `current`, `lastInFile`, `lastCommitted` and the counters are
    // used only by the environment's one writer at a time (rule 1) or under the map lock held
    // exclusively; checkpoints are serialised by `checkpointLock`; the pins and the recorded
    // checkpoint are behind `state`.

    /// The log's two files' names inside the environment's directory: one is appended to until
    /// it passes ``switchBytes`` and a checkpoint covers the other, then the other.
    static let logFileNames = ["wal-0", "wal-1"]
    /// The checkpoint file's name inside the environment's directory.
    static let checkpointFileName = "checkpoint"

    /// A background checkpoint starts after this many logged commits...
    static let checkpointCommits = 256
    /// ... or this many logged bytes, whichever comes first.
    static let checkpointBytes = 1 << 20
    /// Past this size, appends go to the other file (from its start) once a checkpoint covers
    /// every record in it.
    static let switchBytes = 4 << 20

    private let environment: OpaquePointer
    private let mapLock: MapLock
    private let dataFile: String
    private let inode: UInt64
    private let pageSize: Int
    /// Whether this process keeps the log (rule 5); otherwise it only records checkpoints.
    let isOwner: Bool
    /// The newest transaction this process committed or found at opening (rule 5).
    private var lastCommitted: UInt64
    private let logs: [LogFile]
    /// The file appended to.
    private var current = 0
    /// The last transaction logged in each file (0: none since it started again).
    private var lastInFile: [UInt64] = [0, 0]
    private let checkpoints: CheckpointFile
    private let checkpointLock = NSLock()
    private let queue = DispatchQueue(label: "lmdb.checkpoint", qos: .utility)
    private let state: Mutex<State>

    private var commitsSinceCheckpoint = 0
    private var bytesSinceCheckpoint = 0
    /// Set after an append failed: every commit checkpoints until one succeeds (rule 2).
    private var logBroken = false

    private struct State {
        /// The read transaction holding the recorded checkpoint's tree.
        var pin: Pin?
        /// The pin of the checkpoint being taken in the background.
        var pendingPin: Pin?
        /// The transaction of the checkpoint last recorded.
        var checkpointed: UInt64
        var closed = false
        /// Set when a sync of the data file failed (rule 4).
        var dataSyncFailed = false
    }

    /// How many records the opening replayed.
    private(set) var replayedRecords = 0
    /// How many records this process appended around the page cache (``LogFile``).
    var directAppends: Int { logs.reduce(0) { $0 + $1.directAppends.load(ordering: .relaxed) } }

    // MARK: Opening

    /// What ``prepare(directory:)`` did before liblmdb opened the environment.
    struct Prepared {
        var checkpoints: CheckpointFile
        /// Whether this process keeps the log (rule 5).
        var isOwner: Bool
        /// The checkpoint whose meta pages were put back, after which the log is replayed.
        var restored: Checkpoint?
        /// Whether the checkpoint and the log belonged to a data file since replaced (they are
        /// forgotten: the checkpoint already, the log when the files open).
        var forgetLog = false
    }

    /// Before liblmdb opens the environment in `directory`: claims the log (rule 5), and when
    /// this process keeps it and no other has the environment open, puts the recorded
    /// checkpoint's meta pages back into the data file, so that liblmdb opens the checkpoint's
    /// tree. A checkpoint of another data file (one restored in its place) is ignored.
    static func prepare(directory: String) throws(LMDBError) -> Prepared {
        let dataFile = directory + "/data.mdb"
        let checkpoints = try CheckpointFile(path: directory + "/" + checkpointFileName)
        let isOwner = try checkpoints.claimOwnership()
        guard isOwner, FileManager.default.fileExists(atPath: dataFile), let checkpoint = try checkpoints.latest() else {
            return Prepared(checkpoints: checkpoints, isOwner: isOwner, restored: nil)
        }
        guard checkpoint.inode == (try FileIO.inode(of: dataFile)) else {
            // A data file put in place of the one the checkpoint and the log describe: their
            // transaction ids mean nothing for it.
            try checkpoints.reset()
            return Prepared(checkpoints: checkpoints, isOwner: true, restored: nil, forgetLog: true)
        }
        guard !(try otherProcessHasOpen(directory)) else { return Prepared(checkpoints: checkpoints, isOwner: true, restored: nil) }
        try MetaPages.restore(checkpoint.metaPages, dataFile: dataFile)
        return Prepared(checkpoints: checkpoints, isOwner: true, restored: checkpoint)
    }

    /// Whether another process has the environment in `directory` open: liblmdb holds a shared
    /// `fcntl` lock on the first byte of `lock.mdb` in every process that has it open.
    private static func otherProcessHasOpen(_ directory: String) throws(LMDBError) -> Bool {
        let path = directory + "/lock.mdb"
        guard FileManager.default.fileExists(atPath: path) else { return false }
        let descriptor = try FileIO.open(path)
        defer { FileIO.release(descriptor) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_len = 1
        guard fcntl(descriptor, F_GETLK, &lock) == 0 else { throw LMDBError(returnCode: errno, operation: "fcntl", context: path) }
        return lock.l_type != Int16(F_UNLCK)
    }

    /// After liblmdb opened the environment. The owner replays the log's records after the
    /// restored checkpoint, then checkpoints, so that the log starts empty.
    ///
    /// - Parameter directIO: Whether the log's appends may go around the page cache
    ///   (``LogFile``).
    init(environment: OpaquePointer, mapLock: MapLock, directory: String, prepared: Prepared, directIO: Bool) throws(LMDBError) {
        self.environment = environment
        self.mapLock = mapLock
        self.dataFile = directory + "/data.mdb"
        var stat = MDB_stat()
        try check("mdb_env_stat") { mdb_env_stat(environment, &stat) }
        self.pageSize = Int(stat.ms_psize)
        self.inode = try FileIO.inode(of: dataFile)
        self.isOwner = prepared.isOwner
        self.checkpoints = prepared.checkpoints
        self.logs = prepared.isOwner ? try Self.logFileNames.map { name throws(LMDBError) in try LogFile(path: directory + "/" + name, directIO: directIO) } : []
        let current = try Self.lastTransaction(environment)
        self.lastCommitted = current
        self.state = Mutex(State(checkpointed: prepared.restored?.transactionID ?? 0))
        guard isOwner else { return }
        if prepared.forgetLog { for log in logs { try log.reset() } }
        if let restored = prepared.restored {
            guard restored.transactionID == current else {
                throw LMDBError(
                    code: .corrupted, operation: "mdb_env_open",
                    message: "\(dataFile) opened at transaction \(current), not at its checkpoint's \(restored.transactionID)")
            }
            // The restored checkpoint's tree stays whole while the records are replayed on it.
            let pin = try beginPin(expecting: current)
            state.withLock { $0.pin = pin }
            replayedRecords = try replay(after: current)
            lastCommitted = try Self.lastTransaction(environment)
        }
        try checkpoint(keepingPin: true)
    }

    private static func lastTransaction(_ environment: OpaquePointer) throws(LMDBError) -> UInt64 {
        var info = MDB_envinfo()
        try check("mdb_env_info") { mdb_env_info(environment, &info) }
        return UInt64(info.me_last_txnid)
    }

    /// Applies the log's records after transaction `start`, in order, each as one transaction
    /// that must get the id it had; stops at the first gap.
    private func replay(after start: UInt64) throws(LMDBError) -> Int {
        var expected = start + 1
        var replayed = 0
        var records: [LogFile.Record] = []
        for log in logs { records += try log.records().filter { $0.transactionID >= expected } }
        records.sort { $0.transactionID < $1.transactionID }
        for record in records {
            guard record.transactionID == expected else { break }
            // The map was sized for the checkpoint's tree: a record that fills it grows it and
            // is applied again.
            while try !apply(record) { try growMap() }
            expected += 1
            replayed += 1
        }
        return replayed
    }

    /// Applies one record as its own transaction; `false` when the map filled (nothing applied).
    private func apply(_ record: LogFile.Record) throws(LMDBError) -> Bool {
        var txn: OpaquePointer?
        try check("mdb_txn_begin", context: "replaying the write-ahead log") { mdb_txn_begin(environment, nil, 0, &txn) }
        guard let txn else { throw LMDBError(code: .invalidArgument, operation: "mdb_txn_begin", message: "returned no transaction") }
        guard UInt64(mdb_txn_id(txn)) == record.transactionID else {
            mdb_txn_abort(txn)
            throw LMDBError(
                code: .corrupted, operation: "replaying the write-ahead log",
                message: "transaction \(record.transactionID) would be replayed as \(mdb_txn_id(txn)) in \(dataFile)")
        }
        let applied = record.payload.withUnsafeBytes { payload in
            Result { () throws(LMDBError) in try RedoLog.replay(payload, in: txn) }
        }
        if case .failure(let error) = applied {
            mdb_txn_abort(txn)
            if error.code == .mapFull { return false }
            throw error
        }
        let rc = mdb_txn_commit(txn)
        if rc == MDB_MAP_FULL { return false }
        try check("mdb_txn_commit", context: "replaying the write-ahead log") { rc }
        return true
    }

    /// Doubles the map while replaying (no write transaction is open; the pin is never read
    /// through, see ``Environment``'s resize).
    private func growMap() throws(LMDBError) {
        var info = MDB_envinfo()
        try check("mdb_env_info") { mdb_env_info(environment, &info) }
        try check("mdb_env_set_mapsize", context: "replaying the write-ahead log") {
            mdb_env_set_mapsize(environment, max(info.me_mapsize * 2, info.me_mapsize + (1 << 20)))
        }
    }

    // MARK: Commits

    /// Makes transaction `transactionID`, just committed, durable (rules 1 and 2). Called by the
    /// environment's writer with the map lock held shared.
    ///
    /// - Parameters:
    ///   - redo: what the transaction changed, or `nil` when it was not recorded.
    func committed(_ transactionID: UInt64, redo: RedoLog?) throws(LMDBError) {
        // Another process committed since this one last did (rule 5): its transaction is not
        // in this log, so a checkpoint must cover it before this log goes on.
        let followsOwn = transactionID == lastCommitted + 1
        lastCommitted = transactionID
        guard isOwner else {
            try checkpointAfterOwnSync()
            return
        }
        guard let redo, !redo.bytes.isEmpty, !logBroken, followsOwn else {
            // Until a checkpoint covers this transaction, nothing may be logged after it.
            logBroken = true
            try checkpoint(keepingPin: true)
            return
        }
        let other = 1 - current
        if logs[current].appendOffset >= Self.switchBytes, state.withLock({ $0.checkpointed >= lastInFile[other] }) {
            current = other
            logs[current].rewind()
        }
        do {
            try logs[current].append(transactionID: transactionID, payload: redo.bytes)
        } catch {
            logBroken = true
            try checkpoint(keepingPin: true)
            return
        }
        lastInFile[current] = transactionID
        commitsSinceCheckpoint += 1
        bytesSinceCheckpoint += LogFile.headerSize + redo.bytes.count
        if commitsSinceCheckpoint >= Self.checkpointCommits || bytesSinceCheckpoint >= Self.checkpointBytes {
            startCheckpoint()
        }
    }

    /// Pins the newest transaction and reads its meta pages, and records them as a checkpoint in
    /// the background once the data file is synced. Does nothing while one is being taken.
    private func startCheckpoint() {
        guard state.withLock({ $0.pendingPin == nil && !$0.closed && !$0.dataSyncFailed }) else { return }
        guard let (checkpoint, pin) = try? captureNewest(pinning: true), let pin else { return }
        state.withLock { $0.pendingPin = pin }
        commitsSinceCheckpoint = 0
        bytesSinceCheckpoint = 0
        queue.async { [self] in finishCheckpoint(checkpoint, pin: pin) }
    }

    private func finishCheckpoint(_ checkpoint: Checkpoint, pin: Pin) {
        mapLock.withShared {
            checkpointLock.withLock {
                let current = state.withLock { state -> Bool in
                    guard state.pendingPin == pin else { return false }
                    if state.closed || state.checkpointed >= checkpoint.transactionID {
                        // A synchronous checkpoint went past this one (rule 3).
                        state.pendingPin = nil
                        pin.end()
                        return false
                    }
                    return true
                }
                // Not current: the map grew or the environment closed, and closed the pin.
                guard current else { return }
                let recorded: UInt64
                do {
                    try syncDataFile()
                    recorded = try checkpoints.write(checkpoint)
                } catch {
                    // The recorded checkpoint stays.
                    state.withLock { $0.pendingPin = nil }
                    pin.end()
                    return
                }
                let old = state.withLock { state -> Pin? in
                    state.pendingPin = nil
                    // Another process recorded a newer one (rule 3): the pin is not needed (the
                    // older pin kept protects that one's tree too).
                    guard recorded == checkpoint.transactionID else {
                        state.checkpointed = max(state.checkpointed, recorded)
                        return pin
                    }
                    let old = state.pin
                    state.pin = pin
                    state.checkpointed = checkpoint.transactionID
                    return old
                }
                old?.end()
            }
        }
    }

    // MARK: Synchronous checkpoints

    /// Syncs the data file and records the newest transaction as the checkpoint, pinning it
    /// when `keepingPin`; the log then starts again at its beginning. The caller keeps this
    /// process's writers out (it is the writer, or holds the map lock exclusively).
    func checkpoint(keepingPin: Bool) throws(LMDBError) {
        guard isOwner else {
            try checkpointAfterOwnSync()
            return
        }
        do {
            checkpointLock.lock()
            defer { checkpointLock.unlock() }
            let (checkpoint, pin) = try captureNewest(pinning: keepingPin)
            let recorded: UInt64
            do {
                try syncDataFile()
                recorded = try checkpoints.write(checkpoint)
            } catch {
                pin?.end()
                throw error
            }
            let old = state.withLock { state -> Pin? in
                let old = state.pin
                state.pin = pin
                state.checkpointed = max(state.checkpointed, recorded)
                return old
            }
            old?.end()
        }
        // Every record in either file is now covered: start again at the beginning.
        logs[current].rewind()
        lastInFile = [0, 0]
        logBroken = false
        commitsSinceCheckpoint = 0
        bytesSinceCheckpoint = 0
    }

    /// A process that does not keep the log (rule 5), after its commit synced itself: records
    /// the newest transaction as the checkpoint, syncing first under the writer lock, since the
    /// owner's newer commits are not synced.
    private func checkpointAfterOwnSync() throws(LMDBError) {
        try withWriterLock { () throws(LMDBError) in
            try syncDataFile()
            let transactionID = try Self.lastTransaction(environment)
            let metaPages = try MetaPages.read(dataFile: dataFile, pageSize: pageSize)
            try checkpoints.write(Checkpoint(transactionID: transactionID, inode: inode, metaPages: metaPages))
        }
    }

    /// Syncs the data file, unless one of its syncs failed before (rule 4).
    private func syncDataFile() throws(LMDBError) {
        if state.withLock({ $0.dataSyncFailed }) {
            throw LMDBError(
                code: .ioError, operation: "mdb_env_sync",
                message: "an earlier sync of \(dataFile) failed; no checkpoint is recorded until the store is opened again")
        }
        let rc = mdb_env_sync(environment, 1)
        if rc != 0 {
            state.withLock { $0.dataSyncFailed = true }
            throw LMDBError(returnCode: rc, operation: "mdb_env_sync", context: dataFile)
        }
    }

    /// The newest transaction as a checkpoint, its meta pages read under the writer lock
    /// (rule 6), and a pin on it when `pinning`.
    private func captureNewest(pinning: Bool) throws(LMDBError) -> (Checkpoint, Pin?) {
        try withWriterLock { () throws(LMDBError) in
            let transactionID = try Self.lastTransaction(environment)
            let metaPages = try MetaPages.read(dataFile: dataFile, pageSize: pageSize)
            let pin = pinning ? try beginPin(expecting: transactionID) : nil
            return (Checkpoint(transactionID: transactionID, inode: inode, metaPages: metaPages), pin)
        }
    }

    /// Runs `body` holding liblmdb's writer lock (a write transaction that changes nothing and
    /// is aborted), so that no process commits meanwhile.
    private func withWriterLock<R>(_ body: () throws(LMDBError) -> R) throws(LMDBError) -> R {
        var txn: OpaquePointer?
        try check("mdb_txn_begin", context: "holding the writer lock") { mdb_txn_begin(environment, nil, 0, &txn) }
        defer { mdb_txn_abort(txn) }
        return try body()
    }

    /// Checkpoints one last time (so the next opening replays nothing) and closes the pins.
    /// Called with the map lock held exclusively, before liblmdb closes the environment.
    func close() {
        if isOwner { try? checkpoint(keepingPin: false) }
        let pins = state.withLock { state -> [Pin] in
            state.closed = true
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

    /// Begins a read transaction on the newest snapshot, which must be `transactionID`.
    private func beginPin(expecting transactionID: UInt64) throws(LMDBError) -> Pin {
        var txn: OpaquePointer?
        try check("mdb_txn_begin", context: "pinning a checkpoint") { mdb_txn_begin(environment, nil, UInt32(MDB_RDONLY), &txn) }
        guard let txn else { throw LMDBError(code: .invalidArgument, operation: "mdb_txn_begin", message: "returned no transaction") }
        guard UInt64(mdb_txn_id(txn)) == transactionID else {
            mdb_txn_abort(txn)
            throw LMDBError(
                code: .badTransaction, operation: "pinning a checkpoint",
                message: "the newest snapshot is \(mdb_txn_id(txn)), not \(transactionID)")
        }
        return Pin(txn: txn)
    }
}

/// A read transaction that keeps a checkpoint's tree from being overwritten (`MDB_txn *`).
private struct Pin: @unchecked Sendable, Equatable {
    // Safe because: a pin is only compared, and aborted once, by whoever took it out of
    // ``WriteAheadLog``'s state (`MDB_NOTLS` lets any thread end a read transaction).
    let txn: OpaquePointer

    func end() { mdb_txn_abort(txn) }
}
