/// What the write-ahead log makes durable, as the log sees it once the data file is open: the
/// environment's newest transaction, checkpoints of it, its sync, and replaying records into
/// it. ``EnvironmentLogSubject`` is liblmdb's; the tests bring a model store.
protocol LogSubject: AnyObject {
    /// The newest committed transaction.
    func lastTransaction() throws(LMDBError) -> UInt64
    /// The newest transaction as a checkpoint holds it, read while no process can commit (rule
    /// 6), and a pin on its tree when `pinning`: the tree stays on disk as it is while pinned.
    func captureNewest(pinning: Bool) throws(LMDBError) -> (image: DataImage, pin: (any LogPin)?)
    /// A pin on the newest snapshot, which must be transaction `transactionID`.
    func pinNewest(expecting transactionID: UInt64) throws(LMDBError) -> any LogPin
    /// Makes every committed transaction durable in the data file.
    func syncData() throws(LMDBError)
    /// Syncs the data file and reads the newest transaction as a checkpoint holds it, both
    /// while no process can commit: a process that does not keep the log records its own
    /// commits so (rule 5).
    func syncAndCaptureNewest() throws(LMDBError) -> DataImage
    /// Applies a logged record as the transaction `transactionID` it was.
    func apply(_ transactionID: UInt64, payload: UnsafeRawBufferPointer) throws(LMDBError)
    /// Runs `body` while the data file cannot be resized or closed under it (the environment's
    /// map lock, shared): a background checkpoint's last steps.
    func whileUsable(_ body: () -> Void)
}

/// A transaction of the data file as a checkpoint records it.
struct DataImage: Equatable {
    var transactionID: UInt64
    /// The data file's two meta pages right after it committed.
    var metaPages: [UInt8]
    /// The root page of its main tree (`nil`: the tree is empty).
    var rootPage: DataPage?
}

/// A read of a checkpoint's tree that keeps its pages from being reused; ended once, on any
/// thread.
protocol LogPin: AnyObject, Sendable {
    func end()
}

/// The data file as the log sees it before it is opened: whether it is there, its pages, and
/// putting a checkpoint's meta pages back. ``EnvironmentLogSubject/DataFile`` is liblmdb's.
protocol LogDataFile: CustomStringConvertible {
    /// Whether the data file exists.
    func exists() -> Bool
    /// The data file's page `number` (fewer bytes where it ends).
    func page(_ number: UInt64, pageSize: Int) throws(LMDBError) -> [UInt8]
    /// Writes `pages` over its pages 0 and 1, durably.
    func restoreMetaPages(_ pages: [UInt8]) throws(LMDBError)
    /// Whether another process has the environment open (rule 5).
    func isOpenElsewhere() throws(LMDBError) -> Bool
    /// Its inode, which the log's first format named it by.
    func inode() throws(LMDBError) -> UInt64
}
