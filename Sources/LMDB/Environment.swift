internal import CLMDB
import SystemCalls
import Foundation
import Synchronization
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// An open LMDB environment: one memory-mapped file holding named databases.
///
/// One environment per data directory per process. It is opened with `MDB_NOTLS`, so read
/// transactions may run on any thread; write transactions are serialised by liblmdb itself
/// (and, in this project, by the group-commit writer above it).
///
/// Transactions are scoped: ``read(_:)`` and ``write(_:)`` take synchronous, non-escaping
/// closures and end the transaction when the closure returns. A write that fills the map
/// grows it (up to ``Configuration/maxMapSize``) and runs the closure again, so a write
/// closure must have no effects outside its transaction.
///
/// Call ``close()`` exactly once when done; `deinit` only checks that it was.
package final class Environment: @unchecked Sendable {
    // Safe because: `handle` is written once in init and freed once in close(), which holds
    // the map lock exclusively, so no transaction is using it; every other use holds the map
    // lock shared. `state` is behind a Mutex.
    private let handle: OpaquePointer
    private let mapLock: MapLock
    private let state: Mutex<State>
    /// Mirrors `State.isClosed` for the check every transaction makes, without the lock.
    private let closed = Atomic<Bool>(false)

    private struct State: ~Copyable {
        var isClosed = false
        var mapSize: Int
        var growthCount = 0
    }

    /// Each thread's reset read-only transaction, renewed for the next read.
    private let readers = ReaderCache()
    /// What makes commits durable when the configuration asks for a write-ahead log.
    private let writeAheadLog: WriteAheadLog?
    /// Keeps one write transaction at a time from its begin to its log record (the log's rule 1).
    private let writeSerializer = NSLock()

    /// How an environment is opened.
    package struct Configuration: Sendable {
        /// The initial size of the memory map in bytes (rounded to pages by liblmdb).
        package var mapSize: Int = 64 << 20
        /// How large the map may grow; a write past this fails with `mapFull`.
        package var maxMapSize: Int = 1 << 40
        /// The number of reader slots (concurrent read transactions across processes).
        package var maxReaders: UInt32 = 1_022
        /// The number of named databases the environment may hold.
        package var maxDatabases: UInt32 = 64
        /// Extra flags; `MDB_NOTLS` is always added.
        package var flags: EnvironmentFlags = []
        /// Whether commits are made durable by a write-ahead log of the environment's own (one
        /// small synced append a commit) instead of liblmdb's two syncs of the data file. The
        /// log lives beside `data.mdb` (`wal-0`, `wal-1`, `checkpoint`); opening replays it.
        /// Needs a directory (no `.noSubdirectory`) and a writable environment. One process
        /// keeps the log; others that open the environment meanwhile commit with liblmdb's own
        /// syncs (see `WriteAheadLog`, rule 5). `.noSync` and `.noMetaSync` are then decided here.
        package var writeAheadLog = false
        /// Whether the log's appends go around the page cache (`O_DIRECT | O_DSYNC`: one write
        /// a commit that returns once the record is on disk) where the file system allows it;
        /// `false`, or a file system that refuses it, appends through the page cache and
        /// `fdatasync`s.
        package var writeAheadLogDirectIO = true
        /// Past this many bytes of the log that no checkpoint covers, writes are refused with
        /// ``LMDBError/Code/writeAheadLogFull`` instead of growing the log without bound (the
        /// data file cannot be synced). The default is far above a household's day of writes:
        /// checkpoints keep the log at a few MiB.
        package var writeAheadLogCeilingBytes = 256 << 20
        /// A background checkpoint starts after this many logged commits, or
        /// ``writeAheadLogCheckpointBytes`` logged bytes, whichever comes first. Larger values
        /// keep more in the log for an opening after a crash to replay (a benchmark of that
        /// opening sets them out of reach).
        package var writeAheadLogCheckpointCommits = 256
        /// See ``writeAheadLogCheckpointCommits``.
        package var writeAheadLogCheckpointBytes = 1 << 20
        /// Whether opening repairs a write-ahead log it cannot replay whole: it keeps every
        /// transaction up to damage and sets the rest aside (`wal-0.set-aside`, …), or sets
        /// aside a log and checkpoint that belong to another data file, and says so in
        /// ``Environment/writeAheadLogRecovery``. Without it, such an opening fails with
        /// ``LMDBError/Code/writeAheadLogDamaged`` or ``LMDBError/Code/writeAheadLogForeign``.
        package var repairWriteAheadLog = false
        /// The mode of the files liblmdb creates.
        package var fileMode: Int = 0o600

        /// Creates the default configuration: durable (synced) commits, a 64 MiB map that grows.
        package init() {}
    }

    /// The path the environment was opened at.
    package let path: String
    /// The configuration it was opened with.
    package let configuration: Configuration
    /// The largest key liblmdb accepts (`mdb_env_get_maxkeysize`, 511 by default).
    package let maxKeySize: Int

    /// Opens (creating if needed) the environment at `path`.
    ///
    /// Wraps `mdb_env_create`, `mdb_env_set_mapsize`, `mdb_env_set_maxreaders`,
    /// `mdb_env_set_maxdbs` and `mdb_env_open`. lmdb.h: "If this function fails,
    /// mdb_env_close() must be called to discard the MDB_env handle", so a failed open
    /// closes the handle before throwing.
    ///
    /// - Parameters:
    ///   - path: a directory holding `data.mdb` and `lock.mdb` (it must exist), or with
    ///     `.noSubdirectory` the data file itself.
    ///   - configuration: sizes and flags.
    /// - Throws: ``LMDBError``: `invalid` when the file is not an LMDB environment,
    ///   `permissionDenied` when it cannot be opened for writing, `versionMismatch`; with a
    ///   write-ahead log, `invalidArgument` for a configuration that cannot keep one, and what
    ///   replaying the log throws.
    package init(path: String, configuration: Configuration = Configuration()) throws(LMDBError) {
        var flags = configuration.flags.union(.noThreadLocalStorage)
        var prepared: WriteAheadLog.Prepared?
        if configuration.writeAheadLog {
            guard !flags.contains(.readOnly), !flags.contains(.noSubdirectory) else {
                throw LMDBError(
                    code: .invalidArgument, operation: "mdb_env_open",
                    message: "a write-ahead log needs a writable environment in a directory (\(path))")
            }
            prepared = try WriteAheadLog.prepare(
                storage: FileLogStorage(directory: path, directIO: configuration.writeAheadLogDirectIO),
                dataFile: EnvironmentLogSubject.DataFile(directory: path),
                mode: configuration.repairWriteAheadLog ? .repair : .strict)
            // The log makes the owner's commits durable, and liblmdb only writes them; another
            // process's commits sync themselves (see WriteAheadLog, rule 5).
            flags.remove(.noMetaSync)
            if prepared?.isOwner == true { flags.insert(.noSync) } else { flags.remove(.noSync) }
        }
        let mapLock = MapLock()
        let writeAheadLog: WriteAheadLog?
        var created: OpaquePointer?
        try check("mdb_env_create") { mdb_env_create(&created) }
        guard let env = created else {
            throw LMDBError(code: .invalidArgument, operation: "mdb_env_create", message: "returned no handle")
        }
        do throws(LMDBError) {
            try check("mdb_env_set_mapsize") { mdb_env_set_mapsize(env, configuration.mapSize) }
            try check("mdb_env_set_maxreaders") { mdb_env_set_maxreaders(env, configuration.maxReaders) }
            try check("mdb_env_set_maxdbs") { mdb_env_set_maxdbs(env, MDB_dbi(configuration.maxDatabases)) }
            try check("mdb_env_open", context: path) {
                mdb_env_open(env, path, flags.rawValue, mode_t(configuration.fileMode))
            }
            if let prepared {
                // liblmdb may have just created data.mdb: its directory entry is durable before
                // a checkpoint names it (the log's files sync theirs when they are created).
                do throws(SystemCallError) {
                    try SystemCall.syncDirectory(path)
                } catch {
                    throw LMDBError(returnCode: error.errno, operation: error.call, context: error.subject)
                }
                var limits = LogPolicy.Limits()
                limits.ceilingBytes = configuration.writeAheadLogCeilingBytes
                limits.checkpointCommits = configuration.writeAheadLogCheckpointCommits
                limits.checkpointBytes = configuration.writeAheadLogCheckpointBytes
                writeAheadLog = try WriteAheadLog(
                    prepared: prepared, subject: EnvironmentLogSubject(environment: env, mapLock: mapLock, directory: path),
                    limits: limits)
            } else {
                writeAheadLog = nil
            }
        } catch {
            mdb_env_close(env)
            throw error
        }
        var info = MDB_envinfo()
        mdb_env_info(env, &info)
        self.handle = env
        self.mapLock = mapLock
        self.writeAheadLog = writeAheadLog
        self.path = path
        self.configuration = configuration
        self.maxKeySize = Int(mdb_env_get_maxkeysize(env))
        self.state = Mutex(State(mapSize: info.me_mapsize))
    }

    deinit {
        let closed = state.withLock { $0.isClosed }
        assert(closed, "Environment at \(path) was not closed")
        if !closed { mdb_env_close(handle) }
    }

    /// Closes the environment, waiting for running transactions to end first. Calling it
    /// again does nothing. Wraps `mdb_env_close`.
    package func close() {
        mapLock.withExclusive {
            let wasClosed = state.withLock { state in
                defer { state.isClosed = true }
                return state.isClosed
            }
            guard !wasClosed else { return }
            closed.store(true, ordering: .releasing)
            readers.abortAll(closing: true)
            writeAheadLog?.close()
            mdb_env_close(handle)
        }
    }

    /// The current size of the memory map in bytes.
    package var mapSize: Int { state.withLock { $0.mapSize } }

    /// The files a write-ahead log keeps beside `data.mdb`: they belong to that data file, and
    /// go when it is replaced.
    package static let writeAheadLogFileNames = WriteAheadLog.logFileNames + [WriteAheadLog.checkpointFileName]

    /// How many transactions opening the environment replayed from its write-ahead log: those
    /// committed after its last checkpoint by a process that did not close it (0 without a log).
    package var replayedTransactions: Int { writeAheadLog?.recovery.replayedTransactions ?? 0 }

    /// What opening did with the write-ahead log: the records replayed, and what a repair
    /// dropped and set aside (``Configuration/repairWriteAheadLog``); `nil` without a log.
    package var writeAheadLogRecovery: WriteAheadLogRecovery? { writeAheadLog?.recovery }

    /// Where the write-ahead log stands against its ceiling; `nil` without a log, or in a
    /// process that does not keep it.
    package var writeAheadLogStatus: WriteAheadLogStatus? {
        guard let writeAheadLog, writeAheadLog.isOwner else { return nil }
        return writeAheadLog.status
    }

    /// How many of this process's commits were logged around the page cache (see
    /// ``Configuration/writeAheadLogDirectIO``): none without a log, with the setting off, in a
    /// process that does not keep the log, or where the file system refused `O_DIRECT`.
    package var writeAheadLogDirectAppends: Int { writeAheadLog?.directAppends ?? 0 }

    /// How many times this process grew the map because a write filled it.
    package var growthCount: Int { state.withLock { $0.growthCount } }

    private func ensureOpen(_ operation: String) throws(LMDBError) {
        if closed.load(ordering: .acquiring) {
            throw LMDBError(code: .closed, operation: operation, message: "the environment at \(path) is closed")
        }
    }

    // MARK: Databases

    /// Opens a named database (a table), creating it when `flags` has `.create`.
    ///
    /// Runs in a write transaction of its own. Handles stay valid until the environment closes;
    /// open every database at start-up, before concurrent use. Wraps `mdb_dbi_open`.
    ///
    /// - Parameters:
    ///   - name: the database's name, or `nil` for the unnamed main database.
    ///   - flags: `.create` and key flags.
    /// - Returns: the handle.
    /// - Throws: ``LMDBError``; `notFound` when the database does not exist and `.create` was not given.
    package func openDatabase(named name: String?, flags: DatabaseFlags = [.create]) throws -> Database {
        try ensureOpen("mdb_dbi_open")
        let readOnly = configuration.flags.contains(.readOnly)
        if readOnly {
            return try read { txn in try txn.openDatabase(named: name, flags: flags) }
        }
        return try write { txn in try txn.openDatabaseRecorded(named: name, flags: flags) }
    }

    // MARK: Transactions

    /// Runs `body` in a read-only transaction: a consistent snapshot that writers never block.
    ///
    /// Byte views handed out inside `body` are valid only until it returns: copy what you keep.
    /// Do not wait inside `body` for a write to finish (a map resize waits for readers).
    ///
    /// - Parameter body: the reads.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws, or an ``LMDBError`` from beginning the transaction.
    @discardableResult
    package func read<R>(_ body: (borrowing ReadTransaction) throws -> R) throws -> R {
        try mapLock.withShared {
            let slot = readers.currentSlot()
            let txn = try beginRead(slot)
            defer { endRead(txn, slot) }
            return try body(ReadTransaction(handle: txn, maxKeySize: maxKeySize))
        }
    }

    /// Renews the thread's cached transaction, or begins one (also for a read nested in
    /// another on the same thread, which cannot share the outer one's).
    private func beginRead(_ slot: ReaderCache.Slot) throws -> OpaquePointer {
        var retriedResize = false
        while true {
            try ensureOpen("mdb_txn_begin")
            if !slot.inUse, let cached = slot.handle {
                if mdb_txn_renew(cached) == 0 {
                    slot.inUse = true
                    return cached
                }
                mdb_txn_abort(cached)
                slot.handle = nil
            }
            var txn: OpaquePointer?
            let rc = mdb_txn_begin(handle, nil, UInt32(MDB_RDONLY), &txn)
            if rc == 0, let txn {
                if !slot.inUse {
                    slot.handle = txn
                    slot.inUse = true
                }
                return txn
            }
            if rc == MDB_MAP_RESIZED, !retriedResize {
                retriedResize = true
                try mapLock.releasingShared { try adoptResizeFromAnotherProcess() }
                continue
            }
            throw LMDBError(returnCode: rc, operation: "mdb_txn_begin", context: "read-only")
        }
    }

    /// Resets the thread's cached transaction for the next read; aborts a nested read's own.
    private func endRead(_ txn: OpaquePointer, _ slot: ReaderCache.Slot) {
        if slot.inUse, slot.handle == txn {
            mdb_txn_reset(txn)
            slot.inUse = false
        } else {
            mdb_txn_abort(txn)
        }
    }

    /// Runs `body` in a write transaction and commits it; if `body` throws, aborts it.
    ///
    /// The commit is synced to disk unless the environment was opened with `.noSync`.
    /// When a write hits `MDB_MAP_FULL`, the transaction is aborted, the map grows (doubling,
    /// up to ``Configuration/maxMapSize``) and `body` runs again from the start.
    ///
    /// - Parameter body: the writes; it may run more than once, so it must not have effects
    ///   outside the transaction.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws, or an ``LMDBError`` from liblmdb.
    @discardableResult
    package func write<R>(_ body: (inout WriteTransaction) throws -> R) throws -> R {
        while true {
            let outcome: Result<R, any Error>
            var mapWasFull = false
            do {
                outcome = try mapLock.withShared { () throws -> Result<R, any Error> in
                    // One write transaction at a time from its begin to its log record.
                    if writeAheadLog != nil { writeSerializer.lock() }
                    defer { if writeAheadLog != nil { writeSerializer.unlock() } }
                    var begun: OpaquePointer?
                    do {
                        begun = try beginWrite()
                    } catch let error as LMDBError where error.code == .mapResized {
                        // Another process grew the map: adopt its size and begin again. (The
                        // serializer is let go meanwhile, so that a thread holding the map lock
                        // shared and waiting for it cannot keep the resize waiting.)
                        if writeAheadLog != nil { writeSerializer.unlock() }
                        defer { if writeAheadLog != nil { writeSerializer.lock() } }
                        try mapLock.releasingShared { try adoptResizeFromAnotherProcess() }
                    }
                    let handle = try begun ?? beginWrite()
                    var txn = WriteTransaction(handle: handle, maxKeySize: maxKeySize, redo: writeAheadLog.map { _ in RedoLog() })
                    let result: Result<R, any Error>
                    do {
                        result = .success(try body(&txn))
                    } catch {
                        result = .failure(error)
                    }
                    if txn.hitMapFull {
                        mdb_txn_abort(handle)
                        mapWasFull = true
                        return result
                    }
                    switch result {
                    case .success:
                        let transactionID = UInt64(mdb_txn_id(handle))
                        // lmdb.h: after mdb_txn_commit "the transaction handle is freed. It and
                        // its cursors must not be used again after this call", even on failure.
                        let rc = mdb_txn_commit(handle)
                        if rc == MDB_MAP_FULL {
                            mapWasFull = true
                            return result
                        }
                        if rc != 0 {
                            return .failure(LMDBError(returnCode: rc, operation: "mdb_txn_commit"))
                        }
                        if let writeAheadLog {
                            // The newest transaction is this one when it changed something (a
                            // recorded change always does); one that changed nothing committed
                            // no snapshot. When another process committed after it, or it
                            // changed what was not recorded, it is checkpointed instead of logged.
                            var info = MDB_envinfo()
                            mdb_env_info(self.handle, &info)
                            let newest = UInt64(info.me_last_txnid)
                            if newest >= transactionID {
                                let recorded = newest == transactionID && txn.redo?.bytes.isEmpty == false
                                do {
                                    try writeAheadLog.committed(transactionID, record: recorded ? txn.redo?.bytes : nil)
                                } catch {
                                    // Committed and visible, but maybe not durable: its caller
                                    // hears of the failure, as of any failed commit.
                                    return .failure(error)
                                }
                            }
                        }
                    case .failure:
                        mdb_txn_abort(handle)
                    }
                    return result
                }
            }
            if mapWasFull {
                try grow()
                continue
            }
            return try outcome.get()
        }
    }

    private func beginWrite() throws -> OpaquePointer {
        try ensureOpen("mdb_txn_begin")
        // Past the log's ceiling, before anything is committed that could not be made durable.
        try writeAheadLog?.admitWrite()
        var txn: OpaquePointer?
        let rc = mdb_txn_begin(handle, nil, 0, &txn)
        if rc == 0, let txn { return txn }
        throw LMDBError(returnCode: rc, operation: "mdb_txn_begin", context: "read-write")
    }

    // MARK: Map size

    /// Doubles the map size, or fails with `mapFull` when it is already at the maximum.
    private func grow() throws {
        try resize { current in
            guard current < configuration.maxMapSize else {
                throw LMDBError(
                    code: .mapFull, operation: "mdb_env_set_mapsize",
                    message: "the map is full at its maximum size of \(configuration.maxMapSize) bytes")
            }
            return min(max(current * 2, current + (1 << 20)), configuration.maxMapSize)
        }
    }

    /// Grows the map to at least `size` bytes. Waits for running transactions to end.
    ///
    /// - Parameter size: the new size in bytes; a smaller one than the current leaves it be.
    package func setMapSize(atLeast size: Int) throws {
        try resize { current in max(current, size) }
    }

    private func adoptResizeFromAnotherProcess() throws {
        // lmdb.h: "If the mapsize is increased by another process ... mdb_txn_begin() will
        // return MDB_MAP_RESIZED. This function may be called with a size of zero to adopt
        // the new size."
        try mapLock.withExclusive {
            try ensureOpen("mdb_env_set_mapsize")
            try drainIdleReaders()
            // The write-ahead log's pins stay open: see resize(_:).
            try check("mdb_env_set_mapsize") { mdb_env_set_mapsize(handle, 0) }
            var info = MDB_envinfo()
            mdb_env_info(handle, &info)
            state.withLock { $0.mapSize = info.me_mapsize }
        }
    }

    private func resize(_ newSize: (Int) throws -> Int) throws {
        if mapLock.isHeldSharedByCurrentThread {
            throw LMDBError(
                code: .badTransaction, operation: "mdb_env_set_mapsize",
                message: "the map cannot grow while this thread has a transaction open")
        }
        try mapLock.withExclusive {
            try ensureOpen("mdb_env_set_mapsize")
            let current = state.withLock { $0.mapSize }
            let target = try newSize(current)
            guard target > current else { return }
            try drainIdleReaders()
            // The write-ahead log's pins stay open: a read transaction that is never read
            // through holds no pointer into the map (liblmdb 0.9 refuses a resize only while a
            // write transaction is open), and closing them would let the next commits reuse
            // the pages of the checkpoint a power cut goes back to.
            try check("mdb_env_set_mapsize") { mdb_env_set_mapsize(handle, target) }
            var info = MDB_envinfo()
            mdb_env_info(handle, &info)
            state.withLock {
                $0.mapSize = info.me_mapsize
                $0.growthCount += 1
            }
        }
    }

    /// Frees the cached read transactions (called with the map lock held exclusively).
    private func drainIdleReaders() throws {
        readers.abortAll(closing: false)
    }

    // MARK: Maintenance

    /// Writes a consistent copy of the environment while transactions go on.
    ///
    /// Wraps `mdb_env_copy2`. lmdb.h: "This function may be used to make a backup of an
    /// existing environment. No lockfile is created, since it gets recreated at need."
    /// With `compact`, free pages are omitted and pages are renumbered sequentially.
    ///
    /// - Parameters:
    ///   - path: an existing, empty directory (or with `.noSubdirectory`, the file to create).
    ///   - compact: whether to omit free pages (`MDB_CP_COMPACT`).
    package func copy(to path: String, compact: Bool = true) throws {
        try mapLock.withShared { () throws(LMDBError) in
            try ensureOpen("mdb_env_copy2")
            try check("mdb_env_copy2", context: path) {
                mdb_env_copy2(handle, path, compact ? UInt32(MDB_CP_COMPACT) : 0)
            }
        }
    }

    /// Flushes the data buffers to disk. Only needed with `.noSync` or `.noMetaSync`.
    /// Wraps `mdb_env_sync`. With a write-ahead log, also records a checkpoint, so that an
    /// opening after a crash starts from here.
    package func sync() throws {
        try mapLock.withShared { () throws(LMDBError) in
            try ensureOpen("mdb_env_sync")
            if let writeAheadLog {
                writeSerializer.lock()
                defer { writeSerializer.unlock() }
                try writeAheadLog.checkpoint(keepingPin: true)
            } else {
                try check("mdb_env_sync") { mdb_env_sync(handle, 1) }
            }
        }
    }

    /// Facts about the environment: map size, pages in use, last transaction, readers.
    /// Wraps `mdb_env_info` and `mdb_env_stat`.
    package func info() throws -> EnvironmentInfo {
        try mapLock.withShared { () throws(LMDBError) in
            try ensureOpen("mdb_env_info")
            var info = MDB_envinfo()
            var stat = MDB_stat()
            try check("mdb_env_info") { mdb_env_info(handle, &info) }
            try check("mdb_env_stat") { mdb_env_stat(handle, &stat) }
            return EnvironmentInfo(
                mapSize: info.me_mapsize,
                pageSize: Int(stat.ms_psize),
                lastPageNumber: info.me_last_pgno,
                lastTransactionID: info.me_last_txnid,
                maxReaders: Int(info.me_maxreaders),
                readersInUse: Int(info.me_numreaders))
        }
    }
}

/// What ``Environment/info()`` reports.
package struct EnvironmentInfo: Sendable, Hashable {
    /// The size of the memory map in bytes.
    package var mapSize: Int
    /// The database page size in bytes.
    package var pageSize: Int
    /// The number of the last page used; `(lastPageNumber + 1) * pageSize` is the space in use.
    package var lastPageNumber: Int
    /// The id of the last committed transaction.
    package var lastTransactionID: Int
    /// The number of reader slots.
    package var maxReaders: Int
    /// The number of reader slots in use.
    package var readersInUse: Int

    /// The bytes of the map that hold data (used pages times the page size).
    package var usedBytes: Int { (lastPageNumber + 1) * pageSize }
}
