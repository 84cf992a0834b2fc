@testable import LMDB

/// A data file for the write-ahead log without liblmdb: its transactions in order, how many of
/// them a sync made durable, and a checkpoint's meta pages as the transaction they name. Its
/// syncs are operations of the ``MemoryDisk`` it shares, so a crash point can fall on one.
final class ModelStore: LogSubject, LogDataFile, @unchecked Sendable {
    // Safe because: the tests drive it from one thread.

    unowned let disk: MemoryDisk
    /// Every committed transaction's payload, transaction `n` at index `n - 1`.
    private(set) var transactions: [[UInt8]]
    /// How many of them are durable.
    private(set) var synced: Int
    /// Pins open now.
    private(set) var pins = 0
    /// Whether every sync of the data file fails (a failing disk).
    var failSyncs = false

    init(disk: MemoryDisk, durable: [[UInt8]] = []) {
        self.disk = disk
        self.transactions = durable
        self.synced = durable.count
    }

    /// Commits a transaction changing `payload`; returns its id.
    func commit(_ payload: [UInt8]) -> UInt64 {
        transactions.append(payload)
        return UInt64(transactions.count)
    }

    /// What a power cut leaves of the data file: its synced transactions, on `disk`.
    func afterCrash(on disk: MemoryDisk) -> ModelStore {
        ModelStore(disk: disk, durable: Array(transactions.prefix(synced)))
    }

    static func metaPages(_ transactionID: UInt64) -> [UInt8] {
        withUnsafeBytes(of: transactionID.littleEndian) { Array($0) } + [UInt8](repeating: 0, count: 24)
    }

    // MARK: LogSubject

    func lastTransaction() throws(LMDBError) -> UInt64 { UInt64(transactions.count) }

    func captureNewest(pinning: Bool) throws(LMDBError) -> (image: DataImage, pin: (any LogPin)?) {
        let image = DataImage(transactionID: UInt64(transactions.count), metaPages: Self.metaPages(UInt64(transactions.count)), rootPage: nil)
        return (image, pinning ? try pinNewest(expecting: image.transactionID) : nil)
    }

    func pinNewest(expecting transactionID: UInt64) throws(LMDBError) -> any LogPin {
        guard transactionID == UInt64(transactions.count) else {
            throw LMDBError(code: .badTransaction, operation: "pin", message: "newest is \(transactions.count), not \(transactionID)")
        }
        pins += 1
        return ModelPin(store: self)
    }

    func syncData() throws(LMDBError) {
        try disk.operation("mdb_env_sync")
        if failSyncs { throw LMDBError(code: .ioError, operation: "mdb_env_sync", message: "the disk failed") }
        synced = transactions.count
    }

    func syncAndCaptureNewest() throws(LMDBError) -> DataImage {
        try syncData()
        return try captureNewest(pinning: false).image
    }

    func apply(_ transactionID: UInt64, payload: UnsafeRawBufferPointer) throws(LMDBError) {
        guard transactionID == UInt64(transactions.count) + 1 else {
            throw LMDBError(code: .corrupted, operation: "apply", message: "\(transactionID) after \(transactions.count)")
        }
        transactions.append(Array(payload))
    }

    func whileUsable(_ body: () -> Void) { body() }

    fileprivate func unpin() { pins -= 1 }

    // MARK: LogDataFile

    var description: String { "memory/data" }

    func exists() -> Bool { true }

    func page(_ number: UInt64, pageSize: Int) throws(LMDBError) -> [UInt8] { [] }

    func restoreMetaPages(_ pages: [UInt8]) throws(LMDBError) {
        let transactionID = pages.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        guard transactionID <= UInt64(transactions.count) else {
            throw LMDBError(code: .corrupted, operation: "restore", message: "checkpoint \(transactionID) beyond the durable \(transactions.count)")
        }
        transactions.removeLast(transactions.count - Int(transactionID))
    }

    func isOpenElsewhere() throws(LMDBError) -> Bool { false }

    func inode() throws(LMDBError) -> UInt64 { 1 }
}

private final class ModelPin: LogPin, @unchecked Sendable {
    // Safe because: the tests drive it from one thread.
    let store: ModelStore
    private var ended = false

    init(store: ModelStore) { self.store = store }

    func end() {
        precondition(!ended, "a pin is ended once")
        ended = true
        store.unpin()
    }
}

/// Background checkpoints held until the test runs them.
final class HeldWork: @unchecked Sendable {
    // Safe because: the tests drive it from one thread.
    private var tasks: [@Sendable () -> Void] = []

    var isEmpty: Bool { tasks.isEmpty }

    func hold(_ task: @escaping @Sendable () -> Void) { tasks.append(task) }

    /// Runs the oldest held task.
    func runOne() {
        guard !tasks.isEmpty else { return }
        tasks.removeFirst()()
    }
}

extension WriteAheadLog {
    /// Opens a log on `disk` for `model`, holding its background work in `held`.
    static func open(
        on disk: MemoryDisk, model: ModelStore, limits: LogPolicy.Limits, held: HeldWork, mode: RecoveryMode = .strict
    ) throws(LMDBError) -> WriteAheadLog {
        let prepared = try prepare(storage: disk, dataFile: model, mode: mode)
        return try WriteAheadLog(prepared: prepared, subject: model, limits: limits, startBackground: held.hold)
    }
}
