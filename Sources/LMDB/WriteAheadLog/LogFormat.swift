internal import CZlib

/// The byte formats of the write-ahead log's files, as values in and bytes out and back: no
/// file, no disk (the codec etcd's `wal` keeps apart in `encoder.go` and `decoder.go`).
///
/// A log file starts with one block holding its header; its records follow, back to back:
///
/// ```
/// file header (block 0, 4,096 bytes; the rest of the block is zero)
///  0       4       8               16                              32      36      40
/// +-------+-------+---------------+-------------------------------+-------+-------+
/// | WLF2  | vers. | generation    | store identity (16 bytes)     | salt  | CRC   |
/// +-------+-------+---------------+-------------------------------+-------+-------+
///
/// record (from offset 4,096 on, each where the last ended)
///  0       4       8               16              24      28      32
/// +-------+-------+---------------+---------------+-------+-------+---------------
/// | WAL2  | len.  | transaction   | generation    | pCRC  | hCRC  | payload (len.)
/// +-------+-------+---------------+---------------+-------+-------+---------------
/// ```
///
/// Integers are little-endian. CRC is CRC-32 (zlib's) of the header's first 36 bytes; pCRC of
/// the payload; hCRC of the file's salt and the record header's first 28 bytes, so that a header
/// can be recognised on its own, without its payload (the scan for records after damage needs
/// that), and only in its own file's start: the salt is drawn at random when the file starts, so
/// bytes stored in a record's payload (a value a member chose) can never pass for a header.
///
/// The *generation* tells one start of a file from the next (SQLite's WAL salts): a file is
/// started again at every checkpoint that covers everything in it, with a new, larger
/// generation in its header, and a record belongs to the file only when it carries the
/// header's generation. What is left of older records after the new ones therefore never
/// passes as new, even where it is whole. The *store identity* ties the file to the checkpoint
/// file of the same store (``CheckpointFormat``), so that a log of another store is refused,
/// never applied.
enum LogFormat {
    /// The size of the header's block, and the offset of the first record: a block, so that
    /// records appended around the page cache start aligned (``DirectAppender``).
    static let headerBlockSize = 4_096
    static let fileMagic: UInt32 = 0x3246_4C57  // "WLF2", little-endian
    static let fileVersion: UInt32 = 2
    static let fileHeaderSize = 40
    static let recordMagic: UInt32 = 0x324C_4157  // "WAL2", little-endian
    static let recordHeaderSize = 32
    /// The largest payload a record may carry: a record claiming more is damaged.
    static let maxPayload = 1 << 30

    /// What a log file's header says.
    struct FileHeader: Equatable {
        /// Which start of the file this is (larger is later).
        var generation: UInt64
        /// The store the file belongs to.
        var store: StoreIdentity
        /// Drawn at random when the file starts; every record header's CRC covers it.
        var salt: UInt32
    }

    /// A record's header, read on its own.
    struct RecordHeader: Equatable {
        var payloadLength: Int
        var transactionID: UInt64
        var generation: UInt64
        var payloadChecksum: UInt32
    }

    /// What the bytes at a record's place hold.
    enum RecordHeaderReading: Equatable {
        /// A whole, valid record header.
        case header(RecordHeader)
        /// Zeros: space the file was grown by, never written.
        case zeros
        /// Anything else: a torn or damaged record, or the middle of an older one.
        case invalid
    }

    // MARK: File header

    /// The header block of a file started at `generation` for `store`.
    static func encode(_ header: FileHeader) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: headerBlockSize)
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: fileMagic.littleEndian, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: fileVersion.littleEndian, toByteOffset: 4, as: UInt32.self)
            raw.storeBytes(of: header.generation.littleEndian, toByteOffset: 8, as: UInt64.self)
            raw.storeBytes(of: header.store.high.littleEndian, toByteOffset: 16, as: UInt64.self)
            raw.storeBytes(of: header.store.low.littleEndian, toByteOffset: 24, as: UInt64.self)
            raw.storeBytes(of: header.salt.littleEndian, toByteOffset: 32, as: UInt32.self)
            let crc = checksum(UnsafeRawBufferPointer(rebasing: raw[0..<36]))
            raw.storeBytes(of: crc.littleEndian, toByteOffset: 36, as: UInt32.self)
        }
        return bytes
    }

    /// The header at the start of `bytes`, or `nil` when they hold none whole (a new file, a
    /// file of the first log format, a torn or damaged header).
    static func decodeFileHeader(_ bytes: UnsafeRawBufferPointer) -> FileHeader? {
        guard bytes.count >= fileHeaderSize,
              load(UInt32.self, bytes, 0) == fileMagic,
              load(UInt32.self, bytes, 4) == fileVersion,
              load(UInt32.self, bytes, 36) == checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<36]))
        else { return nil }
        return FileHeader(
            generation: load(UInt64.self, bytes, 8),
            store: StoreIdentity(high: load(UInt64.self, bytes, 16), low: load(UInt64.self, bytes, 24)),
            salt: load(UInt32.self, bytes, 32))
    }

    // MARK: Records

    /// The bytes of the record of transaction `transactionID` in a file of `generation` and
    /// `salt`.
    static func encodeRecord(transactionID: UInt64, generation: UInt64, salt: UInt32, payload: [UInt8]) -> [UInt8] {
        precondition(payload.count <= maxPayload, "a write-ahead log record of \(payload.count) bytes is too large")
        var record = [UInt8](repeating: 0, count: recordHeaderSize + payload.count)
        record.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: recordMagic.littleEndian, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: UInt32(payload.count).littleEndian, toByteOffset: 4, as: UInt32.self)
            raw.storeBytes(of: transactionID.littleEndian, toByteOffset: 8, as: UInt64.self)
            raw.storeBytes(of: generation.littleEndian, toByteOffset: 16, as: UInt64.self)
            let payloadCRC = payload.withUnsafeBytes { checksum($0) }
            raw.storeBytes(of: payloadCRC.littleEndian, toByteOffset: 24, as: UInt32.self)
            let headerCRC = headerChecksum(UnsafeRawBufferPointer(rebasing: raw[0..<28]), salt: salt)
            raw.storeBytes(of: headerCRC.littleEndian, toByteOffset: 28, as: UInt32.self)
            if !payload.isEmpty {
                payload.withUnsafeBytes { (raw.baseAddress! + recordHeaderSize).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            }
        }
        return record
    }

    /// Reads the record header at the start of `bytes` (at least ``recordHeaderSize`` long) of a
    /// file whose header has `salt`.
    static func decodeRecordHeader(_ bytes: UnsafeRawBufferPointer, salt: UInt32) -> RecordHeaderReading {
        precondition(bytes.count >= recordHeaderSize, "a record header is \(recordHeaderSize) bytes")
        guard let header = peekRecordHeader(bytes) else {
            return bytes[0..<recordHeaderSize].allSatisfy { $0 == 0 } ? .zeros : .invalid
        }
        guard load(UInt32.self, bytes, 28) == headerChecksum(UnsafeRawBufferPointer(rebasing: bytes[0..<28]), salt: salt) else {
            return .invalid
        }
        return .header(header)
    }

    /// The record header at the start of `bytes` as its fields say, without its CRC (which
    /// needs the file's salt): for a file whose own header is lost, whose records are then
    /// recognised by their payload's CRC alone. `nil` without the magic or with an impossible
    /// length.
    static func peekRecordHeader(_ bytes: UnsafeRawBufferPointer) -> RecordHeader? {
        guard bytes.count >= recordHeaderSize, load(UInt32.self, bytes, 0) == recordMagic else { return nil }
        let length = Int(load(UInt32.self, bytes, 4))
        guard length <= maxPayload else { return nil }
        return RecordHeader(
            payloadLength: length, transactionID: load(UInt64.self, bytes, 8), generation: load(UInt64.self, bytes, 16),
            payloadChecksum: load(UInt32.self, bytes, 24))
    }

    /// A record header's CRC: of the salt, then the header's first 28 bytes.
    private static func headerChecksum(_ header: UnsafeRawBufferPointer, salt: UInt32) -> UInt32 {
        withUnsafeBytes(of: salt.littleEndian) { saltBytes in
            var crc = crc32(0, saltBytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 4)
            crc = crc32(crc, header.baseAddress!.assumingMemoryBound(to: UInt8.self), uInt(header.count))
            return UInt32(truncatingIfNeeded: crc)
        }
    }

    /// Whether `payload` is the one `header` describes.
    static func payloadMatches(_ header: RecordHeader, _ payload: UnsafeRawBufferPointer) -> Bool {
        payload.count == header.payloadLength && checksum(payload) == header.payloadChecksum
    }

    // MARK: The first format

    /// A record of the log's first format (`WAL1`, 2026-11), read once when a store it wrote
    /// opens: a 24-byte header (magic, payload length, transaction id, CRC-32 of the first 16
    /// header bytes and the payload, 4 bytes of zero) and the payload, from offset 0, with no
    /// file header and no generation.
    enum FirstFormat {
        static let magic: UInt32 = 0x314C_4157  // "WAL1", little-endian
        static let headerSize = 24

        /// The record at the start of `bytes`: its transaction and its length in all, or `nil`
        /// when none is there whole.
        static func decode(_ bytes: UnsafeRawBufferPointer) -> (transactionID: UInt64, payload: Range<Int>)? {
            guard bytes.count >= headerSize, load(UInt32.self, bytes, 0) == magic else { return nil }
            let length = Int(load(UInt32.self, bytes, 4))
            guard bytes.count - headerSize >= length else { return nil }
            var crc = crc32(0, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 16)
            if length > 0 { crc = crc32(crc, (bytes.baseAddress! + headerSize).assumingMemoryBound(to: UInt8.self), uInt(length)) }
            guard load(UInt32.self, bytes, 16) == UInt32(truncatingIfNeeded: crc) else { return nil }
            return (load(UInt64.self, bytes, 8), headerSize..<(headerSize + length))
        }
    }

    // MARK: Helpers

    /// CRC-32 (zlib's) of `bytes`.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        return UInt32(truncatingIfNeeded: crc32(0, base.assumingMemoryBound(to: UInt8.self), uInt(bytes.count)))
    }

    static func load<T: FixedWidthInteger>(_ type: T.Type, _ bytes: UnsafeRawBufferPointer, _ offset: Int) -> T {
        T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}

/// A store's identity: 128 random bits drawn when its first checkpoint of this format is
/// recorded, carried by the checkpoint file and every log file of the store.
struct StoreIdentity: Hashable, CustomStringConvertible {
    var high: UInt64
    var low: UInt64

    /// A new, random identity.
    static func random() -> StoreIdentity {
        var generator = SystemRandomNumberGenerator()
        return StoreIdentity(high: generator.next(), low: generator.next())
    }

    var description: String {
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return hex(high) + hex(low)
    }
}
