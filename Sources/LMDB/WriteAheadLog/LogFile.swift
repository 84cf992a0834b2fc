internal import CZlib
import Synchronization
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The write-ahead log's file: one record a committed write transaction, appended and synced
/// before the transaction's callers hear of it, read back when the environment opens after a
/// crash.
///
/// A record is a 24-byte header (magic `WAL1`, the payload's length, the transaction id, a
/// CRC-32 of those and the payload, 4 bytes of zero), then the payload (a ``RedoLog``). The
/// file grows in zero-filled, synced steps, so that an append inside it changes no file size
/// and its sync writes the record alone. Once a checkpoint covers every record, the next append
/// starts at the beginning again; what is left of older records after the new ones is told
/// apart by their transaction ids, never replayed.
///
/// Appends go around the page cache when the file system allows it (``DirectAppender``: a
/// descriptor opened `O_DIRECT | O_DSYNC`, one `pwrite` a record that returns once the record
/// is durable), and otherwise through it (`pwrite`, then `fdatasync`). The direct path skips
/// the kernel's writeback machinery (finding the dirty page again, marking it, submitting it)
/// and one system call of two; a lone weigh-in's server CPU and latency fell by about 5 %
/// with it, the median of eight alternating rounds (Benchmarks/results/2026-12-01/direct-log).
final class LogFile {
    static let magic: UInt32 = 0x314C_4157  // "WAL1", little-endian
    static let headerSize = 24
    /// How much the file grows at a time (zero-filled).
    static let growthStep = 1 << 20

    /// One record read back.
    struct Record {
        var transactionID: UInt64
        var payload: [UInt8]
    }

    let path: String
    private let descriptor: Int32
    /// Where the next record goes.
    private(set) var appendOffset = 0
    /// The file's size: every byte below it has been written (records or zeros) and synced.
    private var allocated: Int
    /// The direct path, while the file system takes it (see ``DirectAppender``).
    private var direct: DirectAppender?
    /// How many records went around the page cache (read from any thread).
    let directAppends = Atomic<Int>(0)

    /// Opens (creating) the log at `path`.
    ///
    /// - Parameter directIO: Whether to try appending around the page cache; the log falls
    ///   back to the page cache where the file system refuses it.
    init(path: String, directIO: Bool) throws(LMDBError) {
        let descriptor = try FileIO.open(path)
        do {
            self.allocated = try FileIO.size(descriptor, path: path)
        } catch {
            close(descriptor)
            throw error
        }
        self.path = path
        self.descriptor = descriptor
        self.direct = directIO ? DirectAppender(path: path) : nil
    }

    deinit {
        close(descriptor)
    }

    /// Appends the record of transaction `transactionID` and syncs it: when this returns, the
    /// record survives a power cut.
    func append(transactionID: UInt64, payload: [UInt8]) throws(LMDBError) {
        var record = [UInt8](repeating: 0, count: Self.headerSize + payload.count)
        record.withUnsafeMutableBytes { bytes in
            bytes.storeBytes(of: Self.magic.littleEndian, toByteOffset: 0, as: UInt32.self)
            bytes.storeBytes(of: UInt32(payload.count).littleEndian, toByteOffset: 4, as: UInt32.self)
            bytes.storeBytes(of: transactionID.littleEndian, toByteOffset: 8, as: UInt64.self)
        }
        record.replaceSubrange(Self.headerSize..., with: payload)
        let checksum = Self.checksum(header: record, payload: payload)
        record.withUnsafeMutableBytes { $0.storeBytes(of: checksum.littleEndian, toByteOffset: 16, as: UInt32.self) }
        let end = appendOffset + record.count
        if end > allocated { try grow(toAtLeast: end) }
        if let direct {
            switch try direct.append(record, at: appendOffset) {
            case .written:
                appendOffset = end
                directAppends.add(1, ordering: .relaxed)
                return
            case .unsupported:
                // The file system took the descriptor but not its writes.
                self.direct = nil
            case .notAtTail:
                break
            }
        }
        try writeFully(record, at: appendOffset)
        try sync()
        appendOffset = end
    }

    /// Forgets every record (they belong to a data file that was replaced), durably.
    func reset() throws(LMDBError) {
        guard ftruncate(descriptor, 0) == 0 else { throw LMDBError(returnCode: errno, operation: "ftruncate", context: path) }
        try sync()
        allocated = 0
        appendOffset = 0
        direct?.forgetTail()
    }

    /// The next record goes at the start of the file (a checkpoint covers every record in it).
    func rewind() {
        appendOffset = 0
        direct?.forgetTail()
    }

    /// The records from the start of the file up to the first that is torn, damaged or absent.
    func records() throws(LMDBError) -> [Record] {
        let bytes = try readAll()
        var records: [Record] = []
        var offset = 0
        while bytes.count - offset >= Self.headerSize {
            let magic = bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
            let length = bytes.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))) }
            guard magic == Self.magic, bytes.count - offset - Self.headerSize >= length else { break }
            let header = Array(bytes[offset..<(offset + Self.headerSize)])
            let payload = Array(bytes[(offset + Self.headerSize)..<(offset + Self.headerSize + length)])
            let stored = bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset + 16, as: UInt32.self)) }
            guard stored == Self.checksum(header: header, payload: payload) else { break }
            let id = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)) }
            records.append(Record(transactionID: id, payload: payload))
            offset += Self.headerSize + length
        }
        return records
    }

    /// CRC-32 of the header's first 16 bytes (magic, length, transaction id) and the payload.
    private static func checksum(header: [UInt8], payload: [UInt8]) -> UInt32 {
        var crc = header.withUnsafeBufferPointer { crc32(0, $0.baseAddress, 16) }
        crc = payload.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
        return UInt32(truncatingIfNeeded: crc)
    }

    /// Zero-fills the file up to a multiple of ``growthStep`` at least `size` bytes long, and
    /// syncs it: its blocks and its size are on disk before a record is written into them, so
    /// that an append's own sync has nothing but the record to write.
    private func grow(toAtLeast size: Int) throws(LMDBError) {
        let target = (size + Self.growthStep - 1) / Self.growthStep * Self.growthStep
        let zeros = [UInt8](repeating: 0, count: min(Self.growthStep, target - allocated))
        var filled = allocated
        while filled < target {
            let chunk = min(zeros.count, target - filled)
            try writeFully(Array(zeros[..<chunk]), at: filled)
            filled += chunk
        }
        try sync()
        allocated = target
    }

    private func writeFully(_ bytes: [UInt8], at offset: Int) throws(LMDBError) {
        try FileIO.write(descriptor, bytes, at: offset, path: path)
    }

    private func sync() throws(LMDBError) {
        try FileIO.sync(descriptor, path: path)
    }

    private func readAll() throws(LMDBError) -> [UInt8] {
        try FileIO.read(descriptor, count: allocated, at: 0, path: path)
    }
}
