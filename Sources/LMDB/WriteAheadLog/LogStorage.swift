/// Where the write-ahead log keeps its files (the two log files and the checkpoint file): the
/// seam between the log's rules and the disk. ``FileLogStorage`` is the real one, a directory
/// reached through ``SystemCalls``; the tests bring an in-memory disk that keeps only what was
/// synced and can tear, drop or fail writes, as SQLite's `test6.c` does.
protocol LogStorage: AnyObject {
    /// Opens the file `name`, creating it empty when missing (durably: its directory entry too).
    func open(_ name: String) throws(LMDBError) -> any LogStorageFile
    /// How the file `name` is called in messages (a path).
    func describe(_ name: String) -> String
    /// How much a log file grows at a time (zero-filled and synced, so that an append inside
    /// it changes no file size).
    var growthStep: Int { get }
}

/// One file of a ``LogStorage``. Used by one thread at a time.
protocol LogStorageFile: AnyObject {
    /// The file's size in bytes.
    func size() throws(LMDBError) -> Int
    /// Up to `count` bytes at `offset`: fewer only where the file ends.
    func read(count: Int, at offset: Int) throws(LMDBError) -> [UInt8]
    /// Writes all of `bytes` at `offset` (into the page cache: durable only after ``sync()``).
    func write(_ bytes: [UInt8], at offset: Int) throws(LMDBError)
    /// Makes every write so far durable (`fdatasync`).
    func sync() throws(LMDBError)
    /// Cuts the file to `size` bytes, durably.
    func truncate(to size: Int) throws(LMDBError)
    /// Writes `bytes` at `offset`, inside the file's synced size, and returns once they are
    /// durable: one write around the page cache where the file system allows it.
    func writeDurably(_ bytes: [UInt8], at offset: Int) throws(LMDBError)
    /// How many ``writeDurably(_:at:)`` calls went around the page cache.
    var directWrites: Int { get }
    /// Takes the file's ownership lock between processes without waiting (`flock`); `false`
    /// when another process holds it. Released when the file is closed.
    func claimOwnership() throws(LMDBError) -> Bool
    /// Gives the ownership lock up.
    func releaseOwnership()
    /// Runs `body` holding the whole file's record lock (`fcntl`, waiting), so that processes
    /// writing the file take turns.
    func withRecordLock<R>(_ body: () throws(LMDBError) -> R) throws(LMDBError) -> R
}
