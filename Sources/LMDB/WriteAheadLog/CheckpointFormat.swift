internal import CZlib

/// A transaction all of whose pages are synced, with what recovery needs to go back to it: the
/// data file's two meta pages as they were right after it committed, and what ties it to its
/// data file and its log.
struct Checkpoint: Equatable {
    /// The transaction the meta pages make the newest.
    var transactionID: UInt64
    /// Pages 0 and 1 of the data file, one page size each.
    var metaPages: [UInt8]
    /// The store whose log files this checkpoint goes with.
    var store: StoreIdentity
    /// Records of files of an older generation are all covered by this checkpoint.
    var oldestGeneration: UInt64
    /// The root page of the checkpoint's main tree, as it was synced: the data file it belongs
    /// to holds these bytes at this page (the checkpoint's tree is never written over while it
    /// is the recorded one), a copy of that file too, another data file does not. `nil` when
    /// the tree is empty.
    var rootPage: DataPage?
    /// Set only for a checkpoint of the first format, which named its data file by the inode.
    var firstFormatInode: UInt64? = nil
}

/// A page of the data file: its number and its bytes.
struct DataPage: Equatable {
    var number: UInt64
    var bytes: [UInt8]
}

/// The byte format of the checkpoint file: slots written in turn, so that a write torn by a
/// power cut leaves the other slot whole.
///
/// ```
/// slot (second format; 2 slots from offset 262,224, 196,664 bytes apart)
///  0       4       8               16              24                      40              48      52      56
/// +-------+-------+---------------+---------------+-----------------------+---------------+-------+-------+
/// | CKP2  | page  | transaction   | oldest gen.   | store identity (16)   | root page no. | 0     | CRC   |
/// +-------+-------+---------------+---------------+-----------------------+---------------+-------+-------+
/// then the two meta pages (2 × page size), then the root page (page size; absent when the
/// root page number is all ones: an empty tree)
/// ```
///
/// The CRC is CRC-32 of the slot (header and pages) with the CRC field left out. The first
/// format's two slots (`CKP1`, 2026-11: magic, page size, transaction, the data file's inode,
/// 8 bytes of zero, CRC, then the meta pages; at offsets 0 and 131,112) are read, never written:
/// the second format's slots lie after them, so that the first checkpoint of the second format
/// never writes over the newest of the first.
enum CheckpointFormat {
    static let magic: UInt32 = 0x3250_4B43  // "CKP2", little-endian
    static let headerSize = 56
    /// The largest page size liblmdb uses (64 KiB), so that a store moved between machines of
    /// different page sizes still reads.
    static let maxPageSize = 65_536
    static let slotStride = headerSize + 3 * maxPageSize
    static let noRootPage = UInt64.max

    static let firstFormatMagic: UInt32 = 0x3150_4B43  // "CKP1", little-endian
    static let firstFormatHeaderSize = 40
    static let firstFormatStride = firstFormatHeaderSize + 2 * maxPageSize

    /// Where slot `index` (0 or 1) of the second format starts.
    static func slotOffset(_ index: Int) -> Int { 2 * firstFormatStride + index * slotStride }
    /// Where slot `index` (0 or 1) of the first format starts.
    static func firstFormatSlotOffset(_ index: Int) -> Int { index * firstFormatStride }

    /// The bytes of a slot holding `checkpoint`.
    static func encode(_ checkpoint: Checkpoint) -> [UInt8] {
        let pageSize = checkpoint.metaPages.count / 2
        precondition(pageSize > 0 && pageSize <= maxPageSize && 2 * pageSize == checkpoint.metaPages.count,
                     "a checkpoint holds two meta pages")
        precondition(checkpoint.rootPage.map { $0.bytes.count == pageSize } ?? true, "a root page is one page")
        var bytes = [UInt8](repeating: 0, count: headerSize)
        bytes.withUnsafeMutableBytes { header in
            header.storeBytes(of: magic.littleEndian, toByteOffset: 0, as: UInt32.self)
            header.storeBytes(of: UInt32(pageSize).littleEndian, toByteOffset: 4, as: UInt32.self)
            header.storeBytes(of: checkpoint.transactionID.littleEndian, toByteOffset: 8, as: UInt64.self)
            header.storeBytes(of: checkpoint.oldestGeneration.littleEndian, toByteOffset: 16, as: UInt64.self)
            header.storeBytes(of: checkpoint.store.high.littleEndian, toByteOffset: 24, as: UInt64.self)
            header.storeBytes(of: checkpoint.store.low.littleEndian, toByteOffset: 32, as: UInt64.self)
            header.storeBytes(of: (checkpoint.rootPage?.number ?? noRootPage).littleEndian, toByteOffset: 40, as: UInt64.self)
        }
        bytes += checkpoint.metaPages
        if let root = checkpoint.rootPage { bytes += root.bytes }
        let crc = checksum(bytes, skipping: 52..<56)
        bytes.withUnsafeMutableBytes { $0.storeBytes(of: crc.littleEndian, toByteOffset: 52, as: UInt32.self) }
        return bytes
    }

    /// The checkpoint in a slot of the second format, or `nil` when the slot holds none whole.
    static func decode(_ bytes: [UInt8]) -> Checkpoint? {
        guard bytes.count >= headerSize else { return nil }
        return bytes.withUnsafeBytes { raw -> Checkpoint? in
            let pageSize = Int(LogFormat.load(UInt32.self, raw, 4))
            let rootNumber = LogFormat.load(UInt64.self, raw, 40)
            let pages = rootNumber == noRootPage ? 2 : 3
            guard LogFormat.load(UInt32.self, raw, 0) == magic, pageSize > 0, pageSize <= maxPageSize,
                  headerSize + pages * pageSize <= bytes.count
            else { return nil }
            let end = headerSize + pages * pageSize
            guard LogFormat.load(UInt32.self, raw, 52) == checksum(bytes[..<end], skipping: 52..<56) else { return nil }
            let metaEnd = headerSize + 2 * pageSize
            return Checkpoint(
                transactionID: LogFormat.load(UInt64.self, raw, 8),
                metaPages: Array(bytes[headerSize..<metaEnd]),
                store: StoreIdentity(high: LogFormat.load(UInt64.self, raw, 24), low: LogFormat.load(UInt64.self, raw, 32)),
                oldestGeneration: LogFormat.load(UInt64.self, raw, 16),
                rootPage: rootNumber == noRootPage ? nil : DataPage(number: rootNumber, bytes: Array(bytes[metaEnd..<end])))
        }
    }

    /// The checkpoint in a slot of the first format, or `nil` when the slot holds none whole.
    static func decodeFirstFormat(_ bytes: [UInt8]) -> Checkpoint? {
        guard bytes.count >= firstFormatHeaderSize else { return nil }
        return bytes.withUnsafeBytes { raw -> Checkpoint? in
            let pageSize = Int(LogFormat.load(UInt32.self, raw, 4))
            let end = firstFormatHeaderSize + 2 * pageSize
            guard LogFormat.load(UInt32.self, raw, 0) == firstFormatMagic, pageSize > 0, end <= bytes.count,
                  LogFormat.load(UInt32.self, raw, 32) == checksum(bytes[..<end], skipping: 32..<36)
            else { return nil }
            return Checkpoint(
                transactionID: LogFormat.load(UInt64.self, raw, 8), metaPages: Array(bytes[firstFormatHeaderSize..<end]),
                store: StoreIdentity(high: 0, low: 0), oldestGeneration: 0, rootPage: nil,
                firstFormatInode: LogFormat.load(UInt64.self, raw, 16))
        }
    }

    /// CRC-32 of `bytes` with the range `skipped` (the CRC field) left out.
    private static func checksum(_ bytes: ArraySlice<UInt8>, skipping skipped: Range<Int>) -> UInt32 {
        bytes.withUnsafeBytes { raw in
            var crc = crc32(0, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), uInt(skipped.lowerBound))
            crc = crc32(crc, (raw.baseAddress! + skipped.upperBound).assumingMemoryBound(to: UInt8.self), uInt(raw.count - skipped.upperBound))
            return UInt32(truncatingIfNeeded: crc)
        }
    }

    private static func checksum(_ bytes: [UInt8], skipping skipped: Range<Int>) -> UInt32 {
        checksum(bytes[...], skipping: skipped)
    }
}

/// The data file's meta pages, as liblmdb's `mdb.c` lays them out (data format version 1):
/// a 16-byte page header, then `MDB_meta`: magic and version (4 bytes each), the map's
/// address and size (8 each), the free and main databases' `MDB_db` (48 bytes each, the root
/// page number last), the last page number and the transaction id (8 each).
enum MetaPageLayout {
    static let magic: UInt32 = 0xBEEF_C0DE
    static let version: UInt32 = 1
    static let magicOffset = 16
    static let mainRootOffset = 16 + 24 + 48 + 40
    static let transactionOffset = 16 + 24 + 96 + 8
    /// liblmdb's `P_INVALID`: no page (an empty tree).
    static let invalidPage = UInt64.max

    /// The main tree's root page number and the transaction of the meta page that names the
    /// higher transaction of the two in `metaPages`, or `nil` when neither is a meta page.
    static func newest(in metaPages: [UInt8]) -> (transactionID: UInt64, mainRoot: UInt64?)? {
        let pageSize = metaPages.count / 2
        var best: (transactionID: UInt64, mainRoot: UInt64?)?
        metaPages.withUnsafeBytes { raw in
            for page in 0..<2 {
                let base = page * pageSize
                guard pageSize >= transactionOffset + 8,
                      LogFormat.load(UInt32.self, raw, base + magicOffset) == magic,
                      LogFormat.load(UInt32.self, raw, base + magicOffset + 4) == version
                else { continue }
                let transaction = LogFormat.load(UInt64.self, raw, base + transactionOffset)
                let root = LogFormat.load(UInt64.self, raw, base + mainRootOffset)
                if best.map({ transaction > $0.transactionID }) ?? true {
                    best = (transaction, root == invalidPage ? nil : root)
                }
            }
        }
        return best
    }
}
