/// The file holding the last checkpoint (formats: ``CheckpointFormat``). Several processes may
/// write it (see ``write(_:)``); the one keeping the log holds its ownership lock
/// (``claimOwnership()``).
final class CheckpointFile {
    let name: String
    private let file: any LogStorageFile

    /// Opens (creating) the checkpoint file `name` of `storage`.
    init(_ name: String, in storage: any LogStorage) throws(LMDBError) {
        self.name = name
        self.file = try storage.open(name)
    }

    /// Takes the file's ownership lock without waiting: the process that holds it keeps the log.
    func claimOwnership() throws(LMDBError) -> Bool { try file.claimOwnership() }

    /// Gives up the ownership lock, if this process held it.
    func releaseOwnership() { file.releaseOwnership() }

    /// The newest whole checkpoint of either format, or `nil` when there is none (a new file).
    func latest() throws(LMDBError) -> Checkpoint? {
        try slots().map(\.checkpoint).max { ($0.transactionID, $0.oldestGeneration) < ($1.transactionID, $1.oldestGeneration) }
    }

    /// Every whole slot: its index in the second format (`nil`: a slot of the first).
    private func slots() throws(LMDBError) -> [(index: Int?, checkpoint: Checkpoint)] {
        var found: [(index: Int?, checkpoint: Checkpoint)] = []
        for index in 0..<2 {
            let first = try slot(at: CheckpointFormat.firstFormatSlotOffset(index), headerSize: CheckpointFormat.firstFormatHeaderSize, pages: 2)
            if let checkpoint = CheckpointFormat.decodeFirstFormat(first) { found.append((nil, checkpoint)) }
            let second = try slot(at: CheckpointFormat.slotOffset(index), headerSize: CheckpointFormat.headerSize, pages: 3)
            if let checkpoint = CheckpointFormat.decode(second) { found.append((index, checkpoint)) }
        }
        return found
    }

    /// A slot's bytes: its header, then as many of the pages it can hold as its header's page
    /// size says (both formats keep the page size at offset 4), not the whole stride. A
    /// checkpoint reads all four slots, and a running store checkpoints every MiB it logs.
    private func slot(at offset: Int, headerSize: Int, pages: Int) throws(LMDBError) -> [UInt8] {
        let header = try file.read(count: headerSize, at: offset)
        guard header.count == headerSize else { return header }
        let pageSize = header.withUnsafeBytes { Int(LogFormat.load(UInt32.self, $0, 4)) }
        guard pageSize > 0, pageSize <= CheckpointFormat.maxPageSize else { return header }
        return header + (try file.read(count: pages * pageSize, at: offset + headerSize))
    }

    /// Writes `checkpoint` into the slot of the second format not holding the newest one, and
    /// syncs it, unless the newest is as new already (a later transaction, or the same one with
    /// a later oldest generation): checkpoints never go back, whichever process writes them
    /// (under the file's record lock, so that processes take turns).
    ///
    /// - Returns: the transaction of the newest checkpoint now recorded.
    ///
    /// A slot whose write or sync failed in this process is not trusted, whatever it reads
    /// (after a failed sync, Linux may report the next one successful without writing the
    /// page): the next checkpoint goes into that slot again, and the other, synced one stays.
    @discardableResult
    func write(_ checkpoint: Checkpoint) throws(LMDBError) -> UInt64 {
        try write { _ in checkpoint } ?? checkpoint.transactionID
    }

    /// Writes the checkpoint `make` builds from the newest one recorded (`nil`: none), all
    /// under the record lock, as ``write(_:)`` does; `make` may return `nil` to write nothing.
    ///
    /// - Returns: the transaction of the newest checkpoint now recorded (`nil`: none).
    @discardableResult
    func write(_ make: (Checkpoint?) -> Checkpoint?) throws(LMDBError) -> UInt64? {
        try file.withRecordLock { () throws(LMDBError) -> UInt64? in
            let slots = try slots().filter { $0.index == nil || $0.index != untrustedSlot }
            // Of one transaction, the checkpoint keeping fewer generations is the newer (the
            // log started again after it).
            func order(_ checkpoint: Checkpoint) -> (UInt64, UInt64) { (checkpoint.transactionID, checkpoint.oldestGeneration) }
            let newest = slots.map(\.checkpoint).max { order($0) < order($1) }
            guard let checkpoint = make(newest) else { return newest?.transactionID }
            if let newest, order(newest) >= order(checkpoint) { return newest.transactionID }
            let newestSecond = slots.filter { $0.index != nil }.max { $0.checkpoint.transactionID < $1.checkpoint.transactionID }
            let index = untrustedSlot ?? newestSecond.map { 1 - $0.index! } ?? 0
            untrustedSlot = index
            try file.write(CheckpointFormat.encode(checkpoint), at: CheckpointFormat.slotOffset(index))
            try file.sync()
            untrustedSlot = nil
            return checkpoint.transactionID
        }
    }

    /// The slot whose last write or sync failed.
    private var untrustedSlot: Int?
}
