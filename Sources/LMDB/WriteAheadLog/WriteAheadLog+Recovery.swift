import Foundation

extension WriteAheadLog {
    /// How opening treats a log it cannot replay whole.
    enum RecoveryMode: Sendable {
        /// Refuse to open, naming the file, the offset and what to do (the default).
        case strict
        /// Keep what is provably good (every transaction up to the damage; the data file alone
        /// when the log or the checkpoint belongs to another one), set the rest aside as
        /// `NAME.set-aside` files, and say what was dropped (`workoutd repair`).
        case repair
    }

    /// What ``prepare(storage:dataFile:mode:)`` did before liblmdb opened the environment.
    struct Prepared {
        var checkpoints: CheckpointFile
        /// Whether this process keeps the log (rule 5).
        var isOwner: Bool
        /// The log's files (none for a process that does not keep it).
        var logs: [LogFile] = []
        /// Their headers as found (`nil`: none whole).
        var headers: [LogFormat.FileHeader?] = []
        /// The recorded checkpoint.
        var checkpoint: Checkpoint?
        /// The checkpoint whose meta pages were put back, after which the log is replayed.
        var restored: Checkpoint?
        /// The store's identity (a new one for a store without a checkpoint of this format).
        var store = StoreIdentity.random()
        /// The largest generation found.
        var newestGeneration: UInt64 = 0
        var mode = RecoveryMode.strict
        var storage: any LogStorage
        /// The files a repair set aside.
        var setAside: [String] = []
    }

    /// Before liblmdb opens the environment: claims the log (rule 5); when this process keeps
    /// it, checks that the log, the checkpoint and the data file belong together (rule 7), and,
    /// when no other process has the environment open, puts the recorded checkpoint's meta pages
    /// back into the data file, so that liblmdb opens the checkpoint's tree.
    ///
    /// - Throws: ``LMDBError/Code/writeAheadLogForeign`` when they do not belong together (in
    ///   `.strict` mode), or what reading the files throws.
    static func prepare(storage: any LogStorage, dataFile: any LogDataFile, mode: RecoveryMode) throws(LMDBError) -> Prepared {
        let checkpoints = try CheckpointFile(checkpointFileName, in: storage)
        guard try checkpoints.claimOwnership() else { return Prepared(checkpoints: checkpoints, isOwner: false, storage: storage) }
        var prepared = Prepared(checkpoints: checkpoints, isOwner: true, mode: mode, storage: storage)
        prepared.logs = try logFileNames.map { name throws(LMDBError) in try LogFile(name, in: storage) }
        prepared.headers = try prepared.logs.map { log throws(LMDBError) in try header(of: log) }
        prepared.newestGeneration = prepared.headers.compactMap { $0?.generation }.max() ?? 0
        guard let checkpoint = try checkpoints.latest() else {
            // A new store, or one never opened with a log: unless a log holds records. Then
            // the checkpoint was lost, and nothing proves the data file whole either (its newest
            // meta page may name pages a power cut dropped): not even a repair opens it.
            for log in prepared.logs where try holdsRecords(log) {
                throw LMDBError(
                    code: .writeAheadLogForeign, operation: "opening the write-ahead log",
                    message: "\(storage.describe(log.name)) holds write-ahead log records, but \(storage.describe(checkpointFileName)) holds no checkpoint for them to follow: "
                        + "they cannot be applied, and nothing shows the data file whole without it. The store was not opened. Restore the last backup (workoutd restore).")
            }
            return prepared
        }
        guard checkpoint.transactionID < generationLimit, checkpoint.oldestGeneration < generationLimit else {
            throw LMDBError(
                code: .writeAheadLogDamaged, operation: "opening the write-ahead log",
                message: "\(storage.describe(checkpointFileName)) names transaction \(checkpoint.transactionID) and generation \(checkpoint.oldestGeneration), which no store reaches: it is damaged, and the store was not opened. Restore the last backup (workoutd restore).")
        }
        prepared.checkpoint = checkpoint
        prepared.newestGeneration = max(prepared.newestGeneration, checkpoint.oldestGeneration)
        guard dataFile.exists() else {
            try prepared.refuseOrSetAside(
                logFileNames + [checkpointFileName],
                "\(dataFile) is missing, but the checkpoint and the write-ahead log of a store are beside it")
            return prepared
        }
        if let inode = checkpoint.firstFormatInode {
            try prepared.prepareFirstFormat(checkpoint, recordedInode: inode, dataFile: dataFile)
            return prepared
        }
        prepared.store = checkpoint.store
        for (log, found) in zip(prepared.logs, prepared.headers) {
            guard let found, found.store != checkpoint.store else { continue }
            try prepared.refuseOrSetAside(
                [log.name],
                "\(storage.describe(log.name)) is the write-ahead log of another store (identity \(found.store)), not of the one whose checkpoint is in \(storage.describe(checkpointFileName)) (identity \(checkpoint.store))")
        }
        for (log, found) in zip(prepared.logs, prepared.headers) where found == nil {
            // A file without a whole header: what its records say, recognised by their
            // payloads. One after the checkpoint, of a live generation, means its header was
            // damaged after records followed it; their generations must not start again.
            var pending: UInt64?
            try LogScanner.recordsWithoutHeader(of: log.file) { record throws(LMDBError) in
                if record.generation < generationLimit { prepared.newestGeneration = max(prepared.newestGeneration, record.generation) }
                if record.generation >= checkpoint.oldestGeneration, record.transactionID > checkpoint.transactionID {
                    pending = min(pending ?? record.transactionID, record.transactionID)
                }
            }
            guard let pending else { continue }
            guard mode == .repair else {
                throw LMDBError(
                    code: .writeAheadLogDamaged, operation: "opening the write-ahead log",
                    message: "\(storage.describe(log.name)) is damaged at offset 0 (its header), and it holds records from transaction \(pending) on: they cannot be replayed, and the store was not opened. "
                        + "Restore the last backup (workoutd restore), or run workoutd repair to keep every transaction up to \(checkpoint.transactionID) and set the rest of the log aside.")
            }
            prepared.setAside.append(try prepared.setAside(log.file, named: log.name))
            try log.reset()
        }
        // After a process (not a power) failure another process may have the environment open:
        // its page cache holds every commit, and nothing is put back or replayed.
        guard !(try dataFile.isOpenElsewhere()) else { return prepared }
        if let root = checkpoint.rootPage, try dataFile.page(root.number, pageSize: root.bytes.count) != root.bytes {
            try prepared.refuseOrSetAside(
                logFileNames + [checkpointFileName],
                "\(dataFile) is not the data file that the checkpoint in \(storage.describe(checkpointFileName)) and its write-ahead log belong to (its page \(root.number) is not the checkpoint's copy of it): a data file put in the store's place")
            prepared.checkpoint = nil
            prepared.store = .random()
            return prepared
        }
        try dataFile.restoreMetaPages(checkpoint.metaPages)
        prepared.restored = checkpoint
        return prepared
    }

    /// The header of `log`'s current start, or `nil`.
    fileprivate static func header(of log: LogFile) throws(LMDBError) -> LogFormat.FileHeader? {
        let bytes = try log.file.read(count: LogFormat.fileHeaderSize, at: 0)
        // A generation no store reaches is damage (and would overflow the next one).
        return bytes.withUnsafeBytes { LogFormat.decodeFileHeader($0) }.flatMap { $0.generation < generationLimit ? $0 : nil }
    }

    /// Larger generations and transactions than any store reaches (one a microsecond for ten
    /// thousand years is 2^58): a value read at or past it is damage.
    static let generationLimit: UInt64 = 1 << 62

    /// Whether `log` holds any whole record, of either format.
    private static func holdsRecords(_ log: LogFile) throws(LMDBError) -> Bool {
        if let header = try header(of: log) {
            if case .record = try LogScanner(log.file, header: header).next() { return true }
            return false
        }
        var found = false
        try LogScanner.firstFormatRecords(of: log.file) { _, _ throws(LMDBError) in found = true }
        return found
    }

    // MARK: Replay

    /// Applies the log's records after `checkpoint`, one at a time, in order, each as the
    /// transaction it was; stops at the end of the newest file, and at damage with acknowledged
    /// records after it refuses (`.strict`) or stops there and sets the log aside (`.repair`).
    func replay(after checkpoint: Checkpoint, prepared: Prepared) throws(LMDBError) -> WriteAheadLogRecovery {
        var recovery = WriteAheadLogRecovery(setAside: prepared.setAside)
        if checkpoint.firstFormatInode != nil {
            try replayFirstFormat(after: checkpoint.transactionID, prepared: prepared, into: &recovery)
            return recovery
        }
        let live = prepared.headers.indices
            .compactMap { index in prepared.headers[index].map { (index, $0) } }
            .filter { $0.1.generation >= checkpoint.oldestGeneration }
            .sorted { $0.1.generation < $1.1.generation }
        var next = checkpoint.transactionID + 1
        var replayedBytes = 0
        var replayedSinceCheckpoint = 0
        for (position, (index, header)) in live.enumerated() {
            let log = prepared.logs[index]
            let scanner = try LogScanner(log.file, header: header)
            var damage: (offset: Int, detail: String)?
            scan: while true {
                switch try scanner.next() {
                case .record(let transactionID, let payload, let offset):
                    if transactionID < next { continue }
                    guard transactionID == next else {
                        damage = (offset, "the record of transaction \(transactionID) comes where \(next) belongs")
                        break scan
                    }
                    try payload.withRawBytes { raw throws(LMDBError) in try subject.apply(transactionID, payload: raw) }
                    next += 1
                    recovery.replayedTransactions += 1
                    replayedBytes += payload.count
                    replayedSinceCheckpoint += 1
                    if replayedBytes >= Self.replayCheckpointBytes || replayedSinceCheckpoint >= Self.replayCheckpointTransactions {
                        try checkpointDuringReplay(keeping: checkpoint.oldestGeneration)
                        replayedBytes = 0
                        replayedSinceCheckpoint = 0
                    }
                case .end(.clean), .end(.torn):
                    break scan
                case .end(.corrupt(let offset, let detail, let later)):
                    // Damage among records the checkpoint covers (or already replayed) hides
                    // nothing needed: go on after it.
                    if later.transactionID <= next {
                        scanner.resume(at: later.offset)
                        continue
                    }
                    damage = (offset, detail)
                    break scan
                }
            }
            guard let damage else { continue }
            let place = "\(prepared.storage.describe(log.name)) is damaged at offset \(damage.offset) (\(damage.detail))"
            guard prepared.mode == .repair else { throw Self.damageRefusal(place, next: next) }
            var last = try scanner.census(from: damage.offset).last
            for (later, laterHeader) in live.dropFirst(position + 1) {
                if let found = try LogScanner(prepared.logs[later].file, header: laterHeader).census(from: LogFormat.headerBlockSize).last {
                    last = max(last ?? found, found)
                }
            }
            // The damaged transaction and every one after it that the log held.
            let dropped = last.map { $0 >= next ? Int(clamping: $0 - next + 1) : 1 } ?? 1
            recovery.damage = "\(place): kept every transaction up to \(next - 1); dropped \(dropped) logged from the damage on"
                + (last.map { $0 >= next ? ", up to transaction \($0)" : "" } ?? "")
            recovery.droppedTransactions = dropped
            for (setAside, _) in live { recovery.setAside.append(try prepared.setAside(prepared.logs[setAside].file, named: prepared.logs[setAside].name)) }
            return recovery
        }
        return recovery
    }

    /// The refusal of an opening at damage (`place` says where): transaction `next` and the
    /// acknowledged ones after it cannot be replayed.
    private static func damageRefusal(_ place: String, next: UInt64) -> LMDBError {
        LMDBError(
            code: .writeAheadLogDamaged, operation: "replaying the write-ahead log",
            message: "\(place): transaction \(next) and the acknowledged ones after it cannot be replayed, and the store was not opened. "
                + "Restore the last backup (workoutd restore), or run workoutd repair to keep every transaction up to \(next - 1) and set the rest of the log aside.")
    }

    /// A replay checkpoints after this many replayed bytes, or transactions, whichever comes
    /// first (what a running store's background checkpoints do by default).
    static let replayCheckpointBytes = 1 << 20
    /// See ``replayCheckpointBytes``.
    static let replayCheckpointTransactions = 1_024

    /// Checkpoints what the replay applied so far, keeping the log as it is (its files hold the
    /// records still to come: `oldestGeneration` stays), and moves the pin to it. Without it,
    /// the pin on the restored checkpoint would keep liblmdb from reusing any page the replay
    /// frees, and the data file (and the memory mapping it) would grow by every replayed
    /// transaction's pages: a gigabyte for 64 MiB of weigh-ins. A crash after it replays from
    /// here.
    private func checkpointDuringReplay(keeping oldestGeneration: UInt64) throws(LMDBError) {
        let (image, pin) = try subject.captureNewest(pinning: true)
        do {
            try subject.syncData()
            try checkpoints.write(Checkpoint(
                transactionID: image.transactionID, metaPages: image.metaPages, store: store,
                oldestGeneration: oldestGeneration, rootPage: image.rootPage))
        } catch {
            pin?.end()
            throw error
        }
        let old = state.withLock { state -> (any LogPin)? in
            defer { state.pin = pin }
            return state.pin
        }
        old?.end()
    }

    /// Replays a log of the first format: in each file the records from its start to the first
    /// that is not whole, those after the checkpoint in order; a record after a missing one is
    /// damage, as in the second format.
    private func replayFirstFormat(after transactionID: UInt64, prepared: Prepared, into recovery: inout WriteAheadLogRecovery) throws(LMDBError) {
        // The file holding the next transaction goes first: the log went on in the other one.
        var firsts: [UInt64?] = []
        for log in prepared.logs {
            var first: UInt64?
            try LogScanner.firstFormatRecords(of: log.file) { id, _ throws(LMDBError) in
                if id > transactionID { first = min(first ?? id, id) }
            }
            firsts.append(first)
        }
        let order = prepared.logs.indices.sorted { (firsts[$0] ?? .max) < (firsts[$1] ?? .max) }
        var next = transactionID + 1
        var replayed = 0
        var beyond: UInt64?
        for index in order {
            try LogScanner.firstFormatRecords(of: prepared.logs[index].file) { id, payload throws(LMDBError) in
                guard id > transactionID, id < Self.generationLimit else { return }
                guard id == next else {
                    beyond = max(beyond ?? id, id)
                    return
                }
                try subject.apply(id, payload: payload)
                next += 1
                replayed += 1
            }
        }
        recovery.replayedTransactions = replayed
        guard let beyond, beyond >= next else { return }
        let place = "\(prepared.storage.describe(Self.logFileNames[0])) and \(Self.logFileNames[1]) (the first log format) lack transaction \(next), though they hold records up to \(beyond)"
        guard prepared.mode == .repair else { throw Self.damageRefusal(place, next: next) }
        recovery.damage = "\(place): kept every transaction up to \(next - 1); dropped \(Int(clamping: beyond - next + 1)) logged from the damage on"
        recovery.droppedTransactions = Int(clamping: beyond - next + 1)
        for log in prepared.logs { recovery.setAside.append(try prepared.setAside(log.file, named: log.name)) }
    }
}

extension WriteAheadLog.Prepared {
    /// In `.strict` mode refuses to open with `problem`; in `.repair` mode sets the files
    /// `names` aside and empties them, so that the opening goes on without them.
    mutating func refuseOrSetAside(_ names: [String], _ problem: String) throws(LMDBError) {
        guard mode == .repair else {
            throw LMDBError(
                code: .writeAheadLogForeign, operation: "opening the write-ahead log",
                message: "\(problem). Nothing of it was applied, and the store was not opened. "
                    + "If the data file was put there on purpose, run workoutd repair to set the old log aside; otherwise put back the data file it belongs to, or restore the last backup (workoutd restore).")
        }
        for name in names {
            if name == WriteAheadLog.checkpointFileName {
                let file = try storage.open(name)
                setAside.append(try setAside(file, named: name))
                checkpoint = nil
            } else if let log = logs.first(where: { $0.name == name }) {
                setAside.append(try setAside(log.file, named: name))
                try log.reset()
            }
        }
        headers = try logs.map { log throws(LMDBError) in try WriteAheadLog.header(of: log) }
    }

    /// Copies `file` to `NAME.set-aside-TIME-RANDOM` (a name of its own: an earlier repair's
    /// copy is never written over), durably; a checkpoint file is then emptied.
    ///
    /// - Returns: the copy's path.
    func setAside(_ file: any LogStorageFile, named name: String) throws(LMDBError) -> String {
        var random = SystemRandomNumberGenerator()
        let copyName = name + ".set-aside-\(Int(Date().timeIntervalSince1970))-" + String(UInt16.random(in: .min ... .max, using: &random), radix: 16)
        let copy = try storage.open(copyName)
        try copy.truncate(to: 0)
        let size = try file.size()
        var offset = 0
        while offset < size {
            let chunk = try file.read(count: min(LogScanner.windowSize, size - offset), at: offset)
            try copy.write(chunk, at: offset)
            offset += chunk.count
        }
        try copy.sync()
        if name == WriteAheadLog.checkpointFileName { try file.truncate(to: 0) }
        return storage.describe(copyName)
    }

    /// Prepares a store whose checkpoint is of the log's first format, which named its data
    /// file by the inode: the log applies where the inode matches, or where none of its records
    /// is pending (a store closed cleanly, then moved); otherwise only a repair applies it.
    mutating func prepareFirstFormat(_ checkpoint: Checkpoint, recordedInode: UInt64, dataFile: any LogDataFile) throws(LMDBError) {
        guard !(try dataFile.isOpenElsewhere()) else { return }
        if try dataFile.inode() != recordedInode {
            var pending = 0
            for log in logs {
                try LogScanner.firstFormatRecords(of: log.file) { id, _ throws(LMDBError) in
                    if id > checkpoint.transactionID { pending += 1 }
                }
            }
            // Closed cleanly, then moved: the data file is whole as it is.
            guard pending > 0 else {
                self.checkpoint = nil
                return
            }
            guard mode == .repair else {
                throw LMDBError(
                    code: .writeAheadLogForeign, operation: "opening the write-ahead log",
                    message: "\(dataFile) is not the file the checkpoint in \(storage.describe(WriteAheadLog.checkpointFileName)) was taken of (another inode: copied or moved after a crash), and its write-ahead log holds \(pending) transactions not yet in it. "
                        + "The release that wrote this log named the data file by its inode; this one names it by what it holds. Nothing was applied, and the store was not opened. "
                        + "Run workoutd repair to apply the log to this file as the one it was copied from, or open it in the directory it was written in.")
            }
        }
        try dataFile.restoreMetaPages(checkpoint.metaPages)
        restored = checkpoint
    }
}
