/// The write-ahead log's rules as one value: where the next record goes, when a checkpoint is
/// due, when writes must stop. Its events (a commit, an append that failed, a checkpoint
/// recorded, a sync of the data file that failed, closing) return what to do; it does no I/O,
/// so every rule is a table test (``WriteAheadLog`` carries the actions out).
///
/// The rules it holds (numbered as ``WriteAheadLog``'s):
/// 1. A transaction whose changes were not recorded checkpoints at once, and so does one that
///    does not follow this process's last (another process committed in between, rule 5).
/// 2. After an append failed, every commit checkpoints until one checkpoint succeeds.
/// 3. A checkpoint never goes back: recording an older one than the recorded one changes
///    nothing.
/// 4. After a failed sync of the data file no checkpoint is recorded again in this process.
/// 7. The other file is started again once the current one passes ``Limits/switchBytes`` and
///    the recorded checkpoint covers every record in the other.
/// 8. A background checkpoint starts after ``Limits/checkpointCommits`` logged commits or
///    ``Limits/checkpointBytes`` logged bytes, one at a time.
/// 9. Writes are refused while the log holds ``Limits/ceilingBytes`` or more that no recorded
///    checkpoint covers.
struct LogPolicy: Equatable {
    /// The sizes and counts the rules use.
    struct Limits: Equatable {
        /// A background checkpoint starts after this many logged commits...
        var checkpointCommits = 256
        /// ... or this many logged bytes, whichever comes first.
        var checkpointBytes = 1 << 20
        /// Past this offset, appends go to the other file once a checkpoint covers it.
        var switchBytes = 4 << 20
        /// Past this many bytes no checkpoint covers, writes are refused (rule 9).
        var ceilingBytes = 256 << 20
    }

    /// One log file as the policy sees it.
    struct FileState: Equatable {
        /// The generation of its current start (0: not started by this process).
        var generation: UInt64
        /// The last transaction logged in it since that start (0: none).
        var lastTransaction: UInt64 = 0
        /// Where its next record goes.
        var end = LogFormat.headerBlockSize
    }

    /// What to do with a commit.
    enum CommitAction: Equatable {
        /// Append its record to `file`, of `generation`.
        case append(file: Int, generation: UInt64)
        /// Start `file` again at `generation` (its header), then append the record to it.
        case startAndAppend(file: Int, generation: UInt64)
        /// Checkpoint synchronously instead of logging (rules 1 and 2).
        case checkpoint
    }

    let limits: Limits
    private(set) var files: [FileState]
    /// The file appended to.
    private(set) var current = 0
    /// The largest generation any file was started at.
    private(set) var newestGeneration: UInt64
    /// The newest transaction this process committed or found at opening.
    private(set) var lastCommitted: UInt64
    /// The transaction of the checkpoint last recorded.
    private(set) var checkpointed: UInt64
    /// Whether a background checkpoint is being taken.
    private(set) var checkpointInFlight = false
    /// Whether the next commit must checkpoint instead of logging (rule 2).
    private(set) var mustCheckpoint = true
    /// Whether a sync of the data file failed (rule 4).
    private(set) var dataSyncFailed = false
    private(set) var closed = false
    private var commitsSinceCheckpoint = 0
    private var bytesSinceCheckpoint = 0
    /// Bytes appended since opening...
    private(set) var appendedBytes = 0
    /// ... of which a recorded checkpoint covers these...
    private var coveredBytes = 0
    /// ... and the one being taken in the background will cover these.
    private var inFlightCovers = 0

    /// A log just opened: nothing may be logged before the opening's checkpoint starts a file.
    ///
    /// - Parameters:
    ///   - lastCommitted: the environment's newest transaction.
    ///   - checkpointed: the transaction of the recorded checkpoint (0: none).
    ///   - newestGeneration: the largest generation found in the files or the checkpoint.
    init(limits: Limits, lastCommitted: UInt64, checkpointed: UInt64, newestGeneration: UInt64) {
        self.limits = limits
        self.files = [FileState(generation: 0), FileState(generation: 0)]
        self.lastCommitted = lastCommitted
        self.checkpointed = checkpointed
        self.newestGeneration = newestGeneration
    }

    /// Bytes in the log that no recorded checkpoint covers.
    var uncoveredBytes: Int { appendedBytes - coveredBytes }

    /// Whether a write may begin (rule 9): `nil`, or the bytes the log holds uncovered.
    func refusal() -> Int? {
        uncoveredBytes >= limits.ceilingBytes ? uncoveredBytes : nil
    }

    // MARK: Commits

    /// Transaction `transactionID` committed; `recordBytes` is its record's size, `nil` when its
    /// changes were not recorded.
    mutating func commit(_ transactionID: UInt64, recordBytes: Int?) -> CommitAction {
        let followsOwn = transactionID == lastCommitted + 1
        lastCommitted = transactionID
        guard recordBytes != nil, followsOwn, !mustCheckpoint, !closed else {
            // Until a checkpoint covers this transaction, nothing may be logged after it.
            mustCheckpoint = true
            return .checkpoint
        }
        let other = 1 - current
        if files[current].end >= limits.switchBytes, checkpointed >= files[other].lastTransaction {
            current = other
            newestGeneration += 1
            files[current] = FileState(generation: newestGeneration)
            return .startAndAppend(file: current, generation: newestGeneration)
        }
        return .append(file: current, generation: files[current].generation)
    }

    /// The commit's record was appended, `bytes` long.
    ///
    /// - Returns: whether a background checkpoint is to start now (rule 8); it covers every
    ///   record so far, of this file or older ones.
    mutating func appended(_ transactionID: UInt64, bytes: Int) -> Bool {
        files[current].lastTransaction = transactionID
        files[current].end += bytes
        appendedBytes += bytes
        commitsSinceCheckpoint += 1
        bytesSinceCheckpoint += bytes
        guard commitsSinceCheckpoint >= limits.checkpointCommits || bytesSinceCheckpoint >= limits.checkpointBytes,
              !checkpointInFlight, !closed, !dataSyncFailed
        else { return false }
        checkpointInFlight = true
        inFlightCovers = appendedBytes
        commitsSinceCheckpoint = 0
        bytesSinceCheckpoint = 0
        return true
    }

    /// The commit's append (or starting its file) failed: it checkpoints instead, and so does
    /// every commit until a checkpoint succeeds (rule 2).
    mutating func appendFailed() -> CommitAction {
        mustCheckpoint = true
        return .checkpoint
    }

    // MARK: Checkpoints

    /// The oldest generation a checkpoint taken now must keep: records of older files are all
    /// at or before it. For a background checkpoint, the current file's (later records go to it
    /// or to a file started after it).
    var oldestGenerationInUse: UInt64 { files[current].generation }

    /// A synchronous checkpoint is about to be taken; it covers every record, and starts the
    /// current file again afterwards.
    ///
    /// - Returns: the generation the current file starts again at, the oldest one the
    ///   checkpoint keeps.
    mutating func planSynchronousCheckpoint() -> UInt64 {
        newestGeneration += 1
        return newestGeneration
    }

    /// The synchronous checkpoint of `transactionID` was recorded (or a newer one was found,
    /// rule 3); `started` says whether the current file then started again at `generation`.
    mutating func synchronousCheckpointRecorded(_ transactionID: UInt64, startedAt generation: UInt64?) {
        checkpointed = max(checkpointed, transactionID)
        coveredBytes = appendedBytes
        commitsSinceCheckpoint = 0
        bytesSinceCheckpoint = 0
        // Every record in either file is now covered.
        files[1 - current].lastTransaction = 0
        if let generation {
            files[current] = FileState(generation: generation)
            mustCheckpoint = false
        } else {
            // The file could not be started again: nothing may be logged until one can.
            files[current].lastTransaction = 0
            mustCheckpoint = true
        }
    }

    /// The synchronous checkpoint's slot could not be written or synced. It may be on disk all
    /// the same, naming the generation the current file was to start at as the oldest one kept:
    /// nothing may be logged in the current generation until a checkpoint succeeds (rule 2).
    mutating func synchronousCheckpointFailed() {
        mustCheckpoint = true
    }

    /// The background checkpoint's outcome: `recorded` is the newest checkpoint now recorded
    /// (its own, or a newer one, rule 3), `nil` when it failed or was dropped.
    mutating func backgroundCheckpointEnded(recorded: UInt64?) {
        checkpointInFlight = false
        guard let recorded else { return }
        checkpointed = max(checkpointed, recorded)
        coveredBytes = max(coveredBytes, inFlightCovers)
    }

    /// A sync of the data file failed (rule 4).
    mutating func dataSyncDidFail() {
        dataSyncFailed = true
    }

    /// The log is closing: no background checkpoint starts from now on.
    mutating func close() {
        closed = true
    }
}
