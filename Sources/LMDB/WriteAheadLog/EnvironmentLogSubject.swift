internal import CLMDB
import Foundation
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The write-ahead log's shell over liblmdb: an open environment's transactions, pins, sync and
/// replay, as ``LogSubject`` asks for them.
final class EnvironmentLogSubject: LogSubject, @unchecked Sendable {
    // Safe because: `environment` is liblmdb's, which is safe across threads with `MDB_NOTLS`;
    // the calls that must not overlap (replay, captures) are serialised by the log's callers.

    private let environment: OpaquePointer
    private let mapLock: MapLock
    private let dataFile: String
    private let pageSize: Int
    /// The data file, open for the captures' reads: a checkpoint reads its meta pages and root
    /// page on the writer's thread, under liblmdb's writer lock, without opening it each time.
    private let dataDescriptor: Int32

    /// After liblmdb opened the environment in `directory` (so `data.mdb` exists).
    init(environment: OpaquePointer, mapLock: MapLock, directory: String) throws(LMDBError) {
        self.environment = environment
        self.mapLock = mapLock
        self.dataFile = directory + "/data.mdb"
        var stat = MDB_stat()
        try check("mdb_env_stat") { mdb_env_stat(environment, &stat) }
        self.pageSize = Int(stat.ms_psize)
        self.dataDescriptor = try FileIO.open(dataFile)
    }

    deinit {
        FileIO.release(dataDescriptor)
    }

    func lastTransaction() throws(LMDBError) -> UInt64 {
        var info = MDB_envinfo()
        try check("mdb_env_info") { mdb_env_info(environment, &info) }
        return UInt64(info.me_last_txnid)
    }

    func captureNewest(pinning: Bool) throws(LMDBError) -> (image: DataImage, pin: (any LogPin)?) {
        try withWriterLock { () throws(LMDBError) in
            let image = try newestImage()
            return (image, pinning ? try pinNewest(expecting: image.transactionID) : nil)
        }
    }

    func syncAndCaptureNewest() throws(LMDBError) -> DataImage {
        try withWriterLock { () throws(LMDBError) in
            try syncData()
            return try newestImage()
        }
    }

    /// The newest transaction's meta pages and the root page of its main tree, as the page
    /// cache holds them right after its commit.
    private func newestImage() throws(LMDBError) -> DataImage {
        let transactionID = try lastTransaction()
        let metaPages = try FileIO.read(dataDescriptor, count: 2 * pageSize, at: 0, path: dataFile)
        guard metaPages.count == 2 * pageSize else {
            throw LMDBError(code: .invalid, operation: "reading the meta pages", message: "\(dataFile) is shorter than two pages")
        }
        guard let newest = MetaPageLayout.newest(in: metaPages), newest.transactionID == transactionID else {
            throw LMDBError(
                code: .corrupted, operation: "reading the meta pages",
                message: "\(dataFile)'s meta pages do not name its newest transaction \(transactionID)")
        }
        let rootPage = try newest.mainRoot.map { number throws(LMDBError) in
            let bytes = number < UInt64(Int.max / pageSize)
                ? try FileIO.read(dataDescriptor, count: pageSize, at: Int(number) * pageSize, path: dataFile) : []
            guard bytes.count == pageSize else {
                throw LMDBError(
                    code: .corrupted, operation: "reading the root page",
                    message: "\(dataFile) ends before page \(number), the root its newest meta page names")
            }
            return DataPage(number: number, bytes: bytes)
        }
        return DataImage(transactionID: transactionID, metaPages: metaPages, rootPage: rootPage)
    }

    /// Runs `body` holding liblmdb's writer lock (a write transaction that changes nothing and
    /// is aborted), so that no process commits meanwhile (rule 6).
    private func withWriterLock<R>(_ body: () throws(LMDBError) -> R) throws(LMDBError) -> R {
        var txn: OpaquePointer?
        try check("mdb_txn_begin", context: "holding the writer lock") { mdb_txn_begin(environment, nil, 0, &txn) }
        defer { mdb_txn_abort(txn) }
        return try body()
    }

    func pinNewest(expecting transactionID: UInt64) throws(LMDBError) -> any LogPin {
        let txn = try begin(UInt32(MDB_RDONLY), as: transactionID, for: "pinning a checkpoint", code: .badTransaction)
        return Pin(txn: txn)
    }

    /// Begins a transaction with `flags` and checks its id: a read-only one must see
    /// transaction `transactionID`, a write one must be about to commit as it. Otherwise aborts
    /// it and throws `code`, naming `purpose`.
    private func begin(_ flags: UInt32, as transactionID: UInt64, for purpose: String, code: LMDBError.Code) throws(LMDBError) -> OpaquePointer {
        var txn: OpaquePointer?
        try check("mdb_txn_begin", context: purpose) { mdb_txn_begin(environment, nil, flags, &txn) }
        guard let txn else { throw LMDBError(code: .invalidArgument, operation: "mdb_txn_begin", message: "returned no transaction") }
        guard UInt64(mdb_txn_id(txn)) == transactionID else {
            mdb_txn_abort(txn)
            throw LMDBError(code: code, operation: purpose, message: "transaction \(mdb_txn_id(txn)) where \(transactionID) was expected in \(dataFile)")
        }
        return txn
    }

    func syncData() throws(LMDBError) {
        try check("mdb_env_sync", context: dataFile) { mdb_env_sync(environment, 1) }
    }

    /// Applies one record as its own transaction, which must get the id it had; a record that
    /// fills the map (sized for the checkpoint's tree) grows it and is applied again.
    func apply(_ transactionID: UInt64, payload: UnsafeRawBufferPointer) throws(LMDBError) {
        while try !applyOnce(transactionID, payload: payload) { try growMap() }
    }

    /// `false` when the map filled (nothing applied).
    private func applyOnce(_ transactionID: UInt64, payload: UnsafeRawBufferPointer) throws(LMDBError) -> Bool {
        let txn = try begin(0, as: transactionID, for: "replaying the write-ahead log", code: .corrupted)
        do {
            try RedoLog.replay(payload, in: txn)
        } catch {
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

    func whileUsable(_ body: () -> Void) {
        mapLock.withShared(body)
    }

    /// The data file before liblmdb opens it.
    struct DataFile: LogDataFile {
        let directory: String
        var path: String { directory + "/data.mdb" }
        var description: String { path }

        func exists() -> Bool { FileManager.default.fileExists(atPath: path) }

        func page(_ number: UInt64, pageSize: Int) throws(LMDBError) -> [UInt8] {
            try MetaPages.page(number, of: path, pageSize: pageSize)
        }

        func restoreMetaPages(_ pages: [UInt8]) throws(LMDBError) {
            try MetaPages.restore(pages, dataFile: path)
        }

        /// Whether another process has the environment open: liblmdb holds a shared `fcntl`
        /// lock on the first byte of `lock.mdb` in every process that has it open.
        func isOpenElsewhere() throws(LMDBError) -> Bool {
            let lockFile = directory + "/lock.mdb"
            guard FileManager.default.fileExists(atPath: lockFile) else { return false }
            let descriptor = try FileIO.open(lockFile)
            defer { FileIO.release(descriptor) }
            var lock = flock()
            lock.l_type = Int16(F_WRLCK)
            lock.l_whence = Int16(SEEK_SET)
            lock.l_len = 1
            guard fcntl(descriptor, F_GETLK, &lock) == 0 else { throw LMDBError(returnCode: errno, operation: "fcntl", context: lockFile) }
            return lock.l_type != Int16(F_UNLCK)
        }

        func inode() throws(LMDBError) -> UInt64 { try FileIO.inode(of: path) }
    }
}

/// A read transaction that keeps a checkpoint's tree from being overwritten (`MDB_txn *`).
private final class Pin: LogPin, @unchecked Sendable {
    // Safe because: a pin is ended once, by whoever took it out of ``WriteAheadLog``'s state
    // (`MDB_NOTLS` lets any thread end a read transaction).
    let txn: OpaquePointer

    init(txn: OpaquePointer) { self.txn = txn }

    func end() { mdb_txn_abort(txn) }
}
