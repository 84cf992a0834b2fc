/// One of the write-ahead log's two files, appended to: one record a committed write
/// transaction, synced before the transaction's callers hear of it (formats: ``LogFormat``).
///
/// The file grows in zero-filled, synced steps, so that an append inside it changes no file size
/// and its sync writes the record alone. Once a checkpoint covers every record in it, the file
/// starts again: a new header with a larger generation, and records from the first block on;
/// what is left of older records after the new ones carries an older generation and is never
/// read as new.
///
/// Appends go around the page cache when the file system allows it (``DirectAppender``: a
/// descriptor opened `O_DIRECT | O_DSYNC`, one `pwrite` a record that returns once the record
/// is durable), and otherwise through it (`pwrite`, then `fdatasync`); a lone weigh-in's server
/// CPU and latency fell by about 5 % with the direct path (Benchmarks/results/2026-12-01).
final class LogFile {
    let name: String
    let file: any LogStorageFile
    /// The generation of the file's current start (0 before it was started by this process).
    private(set) var generation: UInt64 = 0
    /// The salt of the file's current start.
    private var salt: UInt32 = 0
    /// Where the next record goes.
    private(set) var appendOffset = LogFormat.headerBlockSize
    /// The file's size: every byte below it has been written (records or zeros) and synced.
    private var allocated: Int
    /// How much the file grows at a time (the storage's ``LogStorage/growthStep``).
    private let growthStep: Int

    /// Opens (creating) the log file `name` of `storage`.
    init(_ name: String, in storage: any LogStorage) throws(LMDBError) {
        self.name = name
        self.file = try storage.open(name)
        self.allocated = try file.size()
        self.growthStep = storage.growthStep
    }

    /// Starts the file again at `generation` for `store`: its header, synced, and the next
    /// record at the first block. Records of the file's earlier starts become stale.
    func start(generation: UInt64, store: StoreIdentity) throws(LMDBError) {
        if allocated < LogFormat.headerBlockSize { try grow(toAtLeast: LogFormat.headerBlockSize) }
        var random = SystemRandomNumberGenerator()
        let salt = UInt32.random(in: .min ... .max, using: &random)
        try file.write(LogFormat.encode(LogFormat.FileHeader(generation: generation, store: store, salt: salt)), at: 0)
        try file.sync()
        self.generation = generation
        self.salt = salt
        appendOffset = LogFormat.headerBlockSize
    }

    /// Empties the file (its records were set aside by a repair), durably; it must be started
    /// again before the next append.
    func reset() throws(LMDBError) {
        try file.truncate(to: 0)
        allocated = 0
        generation = 0
        appendOffset = LogFormat.headerBlockSize
    }

    /// Appends the record of transaction `transactionID` and syncs it: when this returns, the
    /// record survives a power cut. The file must have been started.
    ///
    /// - Returns: the record's size in bytes.
    @discardableResult
    func append(transactionID: UInt64, payload: [UInt8]) throws(LMDBError) -> Int {
        precondition(generation > 0, "a log file is started before it is appended to")
        let record = LogFormat.encodeRecord(transactionID: transactionID, generation: generation, salt: salt, payload: payload)
        let end = appendOffset + record.count
        if end > allocated { try grow(toAtLeast: end) }
        try file.writeDurably(record, at: appendOffset)
        appendOffset = end
        return record.count
    }

    /// Zero-fills the file up to a multiple of `growthStep` at least `size` bytes long, and
    /// syncs it: its blocks and its size are on disk before a record is written into them, so
    /// that an append's own sync has nothing but the record to write.
    private func grow(toAtLeast size: Int) throws(LMDBError) {
        let target = (size + growthStep - 1) / growthStep * growthStep
        let zeros = [UInt8](repeating: 0, count: min(growthStep, target - allocated))
        var filled = allocated
        while filled < target {
            let chunk = min(zeros.count, target - filled)
            try file.write(chunk == zeros.count ? zeros : Array(zeros[..<chunk]), at: filled)
            filled += chunk
        }
        try file.sync()
        allocated = target
    }
}
