internal import CZlib
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A transaction whose every page is synced, with the two meta pages of the data file as they
/// were right after it committed: the point recovery goes back to before it replays the log.
struct Checkpoint: Equatable {
    /// The transaction the meta pages make the newest.
    var transactionID: UInt64
    /// The inode of the data file it belongs to: a data file put in its place has another.
    /// (Not the device too: the same file seen through a FUSE mount has another device.)
    var inode: UInt64
    /// Pages 0 and 1 of the data file, one page size each.
    var metaPages: [UInt8]
}

/// The file holding the last checkpoint, in two slots written in turn, so that a write torn by
/// a power cut leaves the other slot whole. Several processes may write it (see ``write(_:)``);
/// the one keeping the log holds its ownership lock (``claimOwnership()``).
///
/// A slot is a 40-byte header (magic `CKP1`, the data file's page size, the transaction id, the
/// inode, 8 bytes of zero, CRC-32 of the rest) and the two meta pages. Slots are
/// ``slotStride`` bytes apart whatever the page size, so that a store moved between machines of
/// different page sizes still reads.
final class CheckpointFile {
    static let magic: UInt32 = 0x3150_4B43  // "CKP1", little-endian
    static let headerSize = 40

    /// Room for a slot of liblmdb's largest page size (64 KiB).
    static let slotStride = headerSize + 2 * 65_536

    let path: String
    private let descriptor: Int32

    /// Opens (creating) the file at `path`.
    init(path: String) throws(LMDBError) {
        self.path = path
        self.descriptor = try FileIO.open(path)
    }

    deinit {
        close(descriptor)
    }

    /// Takes the file's ownership lock (`flock`, exclusive, without waiting): the process that
    /// holds it keeps the log. Released when the file is closed.
    func claimOwnership() throws(LMDBError) -> Bool {
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            if errno == EWOULDBLOCK { return false }
            throw LMDBError(returnCode: errno, operation: "flock", context: path)
        }
        return true
    }

    /// Forgets every checkpoint (they belong to a data file that was replaced), durably.
    func reset() throws(LMDBError) {
        guard ftruncate(descriptor, 0) == 0 else { throw LMDBError(returnCode: errno, operation: "ftruncate", context: path) }
        try FileIO.sync(descriptor, path: path)
    }

    /// Gives up the ownership lock, if this process held it.
    func releaseOwnership() {
        _ = flock(descriptor, LOCK_UN)
    }

    /// The newest whole checkpoint, or `nil` when there is none (a new file).
    func latest() throws(LMDBError) -> Checkpoint? {
        try newest()?.checkpoint
    }

    private func newest() throws(LMDBError) -> (slot: Int, checkpoint: Checkpoint)? {
        var best: (slot: Int, checkpoint: Checkpoint)?
        for slot in 0..<2 {
            let bytes = try FileIO.read(descriptor, count: Self.slotStride, at: slot * Self.slotStride, path: path)
            guard let checkpoint = decode(bytes) else { continue }
            if best.map({ checkpoint.transactionID > $0.checkpoint.transactionID }) ?? true { best = (slot, checkpoint) }
        }
        return best
    }

    /// Writes `checkpoint` into the slot not holding the newest one, and syncs it, unless the
    /// newest is as new already: checkpoints never go back, whichever process writes them
    /// (under a write lock on the file, `fcntl`, so that processes take turns).
    ///
    /// - Returns: the transaction of the newest checkpoint now recorded.
    @discardableResult
    func write(_ checkpoint: Checkpoint) throws(LMDBError) -> UInt64 {
        let pageSize = checkpoint.metaPages.count / 2
        precondition(pageSize > 0 && 2 * pageSize == checkpoint.metaPages.count && Self.headerSize + 2 * pageSize <= Self.slotStride,
                     "a checkpoint holds two meta pages")
        try lockRecords(F_WRLCK)
        defer { try? lockRecords(F_UNLCK) }
        let newest = try newest()
        if let newest, newest.checkpoint.transactionID >= checkpoint.transactionID { return newest.checkpoint.transactionID }
        var bytes = [UInt8](repeating: 0, count: Self.headerSize)
        bytes.withUnsafeMutableBytes { header in
            header.storeBytes(of: Self.magic.littleEndian, toByteOffset: 0, as: UInt32.self)
            header.storeBytes(of: UInt32(pageSize).littleEndian, toByteOffset: 4, as: UInt32.self)
            header.storeBytes(of: checkpoint.transactionID.littleEndian, toByteOffset: 8, as: UInt64.self)
            header.storeBytes(of: checkpoint.inode.littleEndian, toByteOffset: 16, as: UInt64.self)
        }
        bytes += checkpoint.metaPages
        let checksum = Self.checksum(bytes)
        bytes.withUnsafeMutableBytes { $0.storeBytes(of: checksum.littleEndian, toByteOffset: 32, as: UInt32.self) }
        let slot = newest.map { 1 - $0.slot } ?? 0
        try FileIO.write(descriptor, bytes, at: slot * Self.slotStride, path: path)
        try FileIO.sync(descriptor, path: path)
        return checkpoint.transactionID
    }

    /// Takes (waiting) or releases the whole file's `fcntl` record lock.
    private func lockRecords(_ type: Int32) throws(LMDBError) {
        var lock = flock()
        lock.l_type = Int16(type)
        lock.l_whence = Int16(SEEK_SET)
        while fcntl(descriptor, F_SETLKW, &lock) != 0 {
            if errno == EINTR { continue }
            throw LMDBError(returnCode: errno, operation: "fcntl", context: path)
        }
    }

    private func decode(_ bytes: [UInt8]) -> Checkpoint? {
        guard bytes.count >= Self.headerSize else { return nil }
        let (magic, size, id, inode, stored) = bytes.withUnsafeBytes { raw in
            (UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self)),
             UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4, as: UInt32.self)),
             UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
             UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)),
             UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 32, as: UInt32.self)))
        }
        let end = Self.headerSize + 2 * Int(size)
        guard magic == Self.magic, size > 0, end <= bytes.count else { return nil }
        let slot = Array(bytes[..<end])
        guard stored == Self.checksum(slot) else { return nil }
        return Checkpoint(transactionID: id, inode: inode, metaPages: Array(slot[Self.headerSize...]))
    }

    /// CRC-32 of the slot with its checksum field (bytes 32..<36) left out.
    private static func checksum(_ slot: [UInt8]) -> UInt32 {
        var crc = slot.withUnsafeBufferPointer { crc32(0, $0.baseAddress, 32) }
        crc = slot.withUnsafeBufferPointer { crc32(crc, $0.baseAddress! + 36, uInt($0.count - 36)) }
        return UInt32(truncatingIfNeeded: crc)
    }
}

/// The data file's two meta pages, read and put back.
enum MetaPages {
    /// Reads pages 0 and 1 of the data file at `path`.
    static func read(dataFile path: String, pageSize: Int) throws(LMDBError) -> [UInt8] {
        let descriptor = try FileIO.open(path)
        defer { close(descriptor) }
        let bytes = try FileIO.read(descriptor, count: 2 * pageSize, at: 0, path: path)
        guard bytes.count == 2 * pageSize else {
            throw LMDBError(code: .invalid, operation: "reading the meta pages", message: "\(path) is shorter than two pages")
        }
        return bytes
    }

    /// Writes `pages` over pages 0 and 1 of the data file at `path` unless they already hold
    /// them, and syncs the file.
    ///
    /// - Returns: whether the file was changed.
    @discardableResult
    static func restore(_ pages: [UInt8], dataFile path: String) throws(LMDBError) -> Bool {
        let descriptor = try FileIO.open(path)
        defer { close(descriptor) }
        if try FileIO.read(descriptor, count: pages.count, at: 0, path: path) == pages { return false }
        try FileIO.write(descriptor, pages, at: 0, path: path)
        try FileIO.sync(descriptor, path: path)
        return true
    }
}
