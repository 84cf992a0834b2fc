@testable import LMDB
import Testing

/// The log's byte formats, on byte arrays: no file, no disk.
@Suite("The write-ahead log's records, headers and checkpoints encode and decode")
struct LogFormatTests {
    static let store = StoreIdentity(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210)

    @Test("A record decodes to what was encoded, for payloads of every size", arguments: [0, 1, 31, 32, 700, 70_000])
    func recordRoundTrip(size: Int) throws {
        let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let bytes = LogFormat.encodeRecord(transactionID: 42, generation: 7, salt: 5, payload: payload)
        #expect(bytes.count == LogFormat.recordHeaderSize + size)
        let reading = bytes.withUnsafeBytes { LogFormat.decodeRecordHeader($0, salt: 5) }
        guard case .header(let header) = reading else {
            Issue.record("no header: \(reading)")
            return
        }
        #expect(header == LogFormat.RecordHeader(
            payloadLength: size, transactionID: 42, generation: 7, payloadChecksum: payload.withUnsafeBytes { LogFormat.checksum($0) }))
        #expect(bytes[LogFormat.recordHeaderSize...].withUnsafeBytes { LogFormat.payloadMatches(header, $0) })
    }

    @Test("Every byte of a record's header, changed, makes it invalid; a payload byte fails its checksum")
    func everyByteCounts() {
        let payload: [UInt8] = Array("a weigh-in of 71.5 kg".utf8)
        let bytes = LogFormat.encodeRecord(transactionID: 9, generation: 3, salt: 5, payload: payload)
        for index in 0..<LogFormat.recordHeaderSize {
            var damaged = bytes
            damaged[index] ^= 0x01
            #expect(damaged.withUnsafeBytes { LogFormat.decodeRecordHeader($0, salt: 5) } == .invalid, "byte \(index)")
        }
        guard case .header(let header) = bytes.withUnsafeBytes({ LogFormat.decodeRecordHeader($0, salt: 5) }) else {
            Issue.record("no header")
            return
        }
        for index in LogFormat.recordHeaderSize..<bytes.count {
            var damaged = bytes
            damaged[index] ^= 0x80
            #expect(!damaged[LogFormat.recordHeaderSize...].withUnsafeBytes { LogFormat.payloadMatches(header, $0) }, "byte \(index)")
        }
    }

    @Test("Zeros read as space never written, not as damage")
    func zeros() {
        let zeros = [UInt8](repeating: 0, count: LogFormat.recordHeaderSize)
        #expect(zeros.withUnsafeBytes { LogFormat.decodeRecordHeader($0, salt: 5) } == .zeros)
    }

    @Test("A file header decodes to its generation and store, and not at all when damaged")
    func fileHeader() {
        let header = LogFormat.FileHeader(generation: 12, store: Self.store, salt: 0xDEAD_BEEF)
        let bytes = LogFormat.encode(header)
        #expect(bytes.count == LogFormat.headerBlockSize)
        #expect(bytes.withUnsafeBytes { LogFormat.decodeFileHeader($0) } == header)
        for index in 0..<LogFormat.fileHeaderSize {
            var damaged = bytes
            damaged[index] ^= 0x10
            #expect(damaged.withUnsafeBytes { LogFormat.decodeFileHeader($0) } == nil, "byte \(index)")
        }
    }

    @Test("A record of the first format is read back, and refused when damaged")
    func firstFormat() {
        // As the first format's writer laid it out: WAL1, length, transaction, CRC, 4 zeros.
        let payload: [UInt8] = [1, 2, 3, 4, 5]
        var bytes = [UInt8](repeating: 0, count: LogFormat.FirstFormat.headerSize)
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: LogFormat.FirstFormat.magic.littleEndian, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: UInt32(payload.count).littleEndian, toByteOffset: 4, as: UInt32.self)
            raw.storeBytes(of: UInt64(77).littleEndian, toByteOffset: 8, as: UInt64.self)
        }
        let crc = (Array(bytes[0..<16]) + payload).withUnsafeBytes { LogFormat.checksum($0) }
        bytes.withUnsafeMutableBytes { $0.storeBytes(of: crc.littleEndian, toByteOffset: 16, as: UInt32.self) }
        bytes += payload
        let decoded = bytes.withUnsafeBytes { LogFormat.FirstFormat.decode($0) }
        #expect(decoded?.transactionID == 77)
        #expect(decoded.map { Array(bytes[$0.payload]) } == payload)
        bytes[LogFormat.FirstFormat.headerSize] ^= 1
        #expect(bytes.withUnsafeBytes { LogFormat.FirstFormat.decode($0) } == nil)
    }

    @Test("A checkpoint slot decodes to what was encoded, with and without a root page", arguments: [true, false])
    func checkpointRoundTrip(withRoot: Bool) {
        let pageSize = 4_096
        let checkpoint = Checkpoint(
            transactionID: 1_234, metaPages: (0..<(2 * pageSize)).map { UInt8(truncatingIfNeeded: $0) }, store: Self.store,
            oldestGeneration: 5, rootPage: withRoot ? DataPage(number: 17, bytes: [UInt8](repeating: 0xAB, count: pageSize)) : nil)
        let bytes = CheckpointFormat.encode(checkpoint)
        #expect(CheckpointFormat.decode(bytes) == checkpoint)
        #expect(CheckpointFormat.decode(bytes + [UInt8](repeating: 0, count: 100)) == checkpoint)
        for index in stride(from: 0, to: bytes.count, by: 97) {
            var damaged = bytes
            damaged[index] ^= 0x04
            #expect(CheckpointFormat.decode(damaged) == nil, "byte \(index)")
        }
    }

    @Test("The meta page layout reads liblmdb's newest meta page's transaction and main root")
    func metaPageLayout() {
        let pageSize = 4_096
        var pages = [UInt8](repeating: 0, count: 2 * pageSize)
        pages.withUnsafeMutableBytes { raw in
            for (page, transaction, root) in [(0, UInt64(8), UInt64(3)), (1, UInt64(9), UInt64.max)] {
                let base = page * pageSize
                raw.storeBytes(of: MetaPageLayout.magic.littleEndian, toByteOffset: base + 16, as: UInt32.self)
                raw.storeBytes(of: MetaPageLayout.version.littleEndian, toByteOffset: base + 20, as: UInt32.self)
                raw.storeBytes(of: transaction.littleEndian, toByteOffset: base + MetaPageLayout.transactionOffset, as: UInt64.self)
                raw.storeBytes(of: root.littleEndian, toByteOffset: base + MetaPageLayout.mainRootOffset, as: UInt64.self)
            }
        }
        let newest = MetaPageLayout.newest(in: pages)
        #expect(newest?.transactionID == 9)
        #expect(newest.map { $0.mainRoot == nil } == true)
    }
}
