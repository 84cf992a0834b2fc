/// Reads one log file's records in order, a window of the file at a time (memory bounded by the
/// window and the largest record, whatever the file's size), and says how the records ended:
///
/// - *clean*: zeros (space never written) or a whole record of an older generation (what is
///   left of the file's earlier start);
/// - *torn*: bytes that are no whole record of this generation, with no record of this
///   generation after them: the append a crash cut short;
/// - *corrupt*: the same, or a record out of order, with a record of this generation after it:
///   that later record was appended only once the damaged one had been synced, so the damage
///   is to acknowledged bytes (etcd's `ErrCRCMismatch`, against its torn `io.ErrUnexpectedEOF`).
///
/// A damaged last record cannot be told from a torn one (etcd and SQLite can't either): it is
/// read as torn.
final class LogScanner {
    /// What the scanner read next.
    enum Step {
        case record(transactionID: UInt64, payload: [UInt8], offset: Int)
        case end(End)
    }

    /// How a file's records ended, and where.
    enum End: Equatable {
        case clean(offset: Int)
        case torn(offset: Int)
        /// Damage at `offset`; `later` is the first whole record of this generation after it
        /// (from where ``resume(at:)`` may go on, when what the damage hides is not needed).
        case corrupt(offset: Int, detail: String, later: LaterRecord)
    }

    /// A whole record found after damage.
    struct LaterRecord: Equatable {
        var transactionID: UInt64
        var offset: Int
    }

    /// How much of the file is read at a time.
    static let windowSize = 1 << 20

    private let file: any LogStorageFile
    private let generation: UInt64
    private let salt: UInt32
    private let fileSize: Int
    /// Where the next record starts.
    private(set) var offset: Int
    /// The transaction of the record read last.
    private var previous: UInt64?
    private var window: [UInt8] = []
    private var windowStart = 0

    /// Scans `file`'s records of the start its `header` describes, from `offset` (the first
    /// record's, after the header's block).
    init(_ file: any LogStorageFile, header: LogFormat.FileHeader, from offset: Int = LogFormat.headerBlockSize) throws(LMDBError) {
        self.file = file
        self.generation = header.generation
        self.salt = header.salt
        self.fileSize = try file.size()
        self.offset = offset
    }

    /// The next record, or how the records ended (then again at every call).
    func next() throws(LMDBError) -> Step {
        guard let headerBytes = try bytes(at: offset, count: LogFormat.recordHeaderSize) else {
            return .end(.clean(offset: offset))
        }
        let reading = headerBytes.withUnsafeBytes { LogFormat.decodeRecordHeader($0, salt: salt) }
        switch reading {
        case .zeros:
            return try ending(.clean(offset: offset))
        case .invalid:
            return try ending(.torn(offset: offset))
        case .header(let header):
            guard header.generation == generation else { return try ending(.clean(offset: offset)) }
            guard let payload = try bytes(at: offset + LogFormat.recordHeaderSize, count: header.payloadLength),
                  payload.withUnsafeBytes({ LogFormat.payloadMatches(header, $0) })
            else { return try ending(.torn(offset: offset)) }
            if let previous, header.transactionID != previous &+ 1 {
                return .end(.corrupt(
                    offset: offset, detail: "the record of transaction \(header.transactionID) follows that of \(previous)",
                    later: LaterRecord(transactionID: header.transactionID, offset: offset)))
            }
            previous = header.transactionID
            let start = offset
            offset += LogFormat.recordHeaderSize + header.payloadLength
            return .record(transactionID: header.transactionID, payload: payload, offset: start)
        }
    }

    /// `end`, unless a record of this generation lies after its offset: then the records are
    /// corrupt there.
    private func ending(_ end: End) throws(LMDBError) -> Step {
        guard let (transactionID, at) = try laterRecord(after: offset) else { return .end(end) }
        let what: String
        switch end {
        case .clean: what = "zeros or an older record"
        case .torn, .corrupt: what = "a damaged record"
        }
        return .end(.corrupt(
            offset: offset, detail: "\(what), and the record of transaction \(transactionID) at offset \(at) after it",
            later: LaterRecord(transactionID: transactionID, offset: at)))
    }

    /// Goes on reading at `offset` (a ``LaterRecord``'s), as from the start of a file: the
    /// records before it are not needed.
    func resume(at offset: Int) {
        self.offset = offset
        previous = nil
    }

    /// The first whole record header of this generation after `offset`, at any byte.
    private func laterRecord(after offset: Int) throws(LMDBError) -> (UInt64, Int)? {
        let headerSize = LogFormat.recordHeaderSize
        var position = offset + 1
        while position + headerSize <= fileSize {
            let count = min(fileSize - position, Self.windowSize + headerSize - 1)
            let chunk = try file.read(count: count, at: position)
            let found: (UInt64, Int)? = chunk.withUnsafeBytes { raw in
                var index = 0
                while index + headerSize <= raw.count {
                    defer { index += 1 }
                    guard raw.loadUnaligned(fromByteOffset: index, as: UInt32.self) == LogFormat.recordMagic.littleEndian,
                          case .header(let header) = LogFormat.decodeRecordHeader(UnsafeRawBufferPointer(rebasing: raw[index..<(index + headerSize)]), salt: salt),
                          header.generation == generation
                    else { continue }
                    return (header.transactionID, position + index)
                }
                return nil
            }
            if let found { return found }
            guard chunk.count == count else { break }
            position += count - (headerSize - 1)
        }
        return nil
    }

    /// How many whole records of this generation lie from `offset` on, wherever they start, and
    /// the largest transaction among them: what a repair drops after damage.
    func census(from offset: Int) throws(LMDBError) -> (count: Int, last: UInt64?) {
        var count = 0
        var last: UInt64?
        var position = offset - 1
        while let (transactionID, at) = try laterRecord(after: position) {
            let header = try file.read(count: LogFormat.recordHeaderSize, at: at)
            guard case .header(let decoded) = header.withUnsafeBytes({ LogFormat.decodeRecordHeader($0, salt: salt) }) else { break }
            let payload = try file.read(count: decoded.payloadLength, at: at + LogFormat.recordHeaderSize)
            if payload.withUnsafeBytes({ LogFormat.payloadMatches(decoded, $0) }) {
                count += 1
                last = max(last ?? 0, transactionID)
                position = at + LogFormat.recordHeaderSize + decoded.payloadLength - 1
            } else {
                position = at
            }
        }
        return (count, last)
    }

    /// `count` bytes at `offset`, or `nil` where the file ends first.
    private func bytes(at offset: Int, count: Int) throws(LMDBError) -> [UInt8]? {
        guard offset + count <= fileSize else { return nil }
        if offset < windowStart || offset + count > windowStart + window.count {
            if count > Self.windowSize { return try file.read(count: count, at: offset) }
            window = try file.read(count: min(Self.windowSize, fileSize - offset), at: offset)
            windowStart = offset
            guard offset + count <= windowStart + window.count else { return nil }
        }
        let start = offset - windowStart
        return Array(window[start..<(start + count)])
    }

    /// Visits the records of a file whose header is lost, from the first block on, as long as
    /// they follow each other whole (each recognised by its payload's CRC, the header's needing
    /// the lost salt), a window at a time.
    static func recordsWithoutHeader(
        of file: any LogStorageFile, _ visit: (LogFormat.RecordHeader) throws(LMDBError) -> Void
    ) throws(LMDBError) {
        let size = try file.size()
        var offset = LogFormat.headerBlockSize
        while offset + LogFormat.recordHeaderSize <= size {
            let bytes = try file.read(count: LogFormat.recordHeaderSize, at: offset)
            guard let header = bytes.withUnsafeBytes({ LogFormat.peekRecordHeader($0) }),
                  header.payloadLength <= size - offset - LogFormat.recordHeaderSize
            else { return }
            let payload = try file.read(count: header.payloadLength, at: offset + LogFormat.recordHeaderSize)
            guard payload.withUnsafeBytes({ LogFormat.payloadMatches(header, $0) }) else { return }
            try visit(header)
            offset += LogFormat.recordHeaderSize + header.payloadLength
        }
    }

    /// Visits the records of a file of the log's first format, from its start to the first that
    /// is not whole, a window at a time.
    static func firstFormatRecords(
        of file: any LogStorageFile, _ visit: (UInt64, UnsafeRawBufferPointer) throws(LMDBError) -> Void
    ) throws(LMDBError) {
        let size = try file.size()
        var offset = 0
        while offset + LogFormat.FirstFormat.headerSize <= size {
            let header = try file.read(count: LogFormat.FirstFormat.headerSize, at: offset)
            let length = header.withUnsafeBytes { Int(LogFormat.load(UInt32.self, $0, 4)) }
            guard length <= LogFormat.maxPayload, offset + LogFormat.FirstFormat.headerSize + length <= size else { return }
            let bytes = try file.read(count: LogFormat.FirstFormat.headerSize + length, at: offset)
            let decoded = bytes.withUnsafeBytes { LogFormat.FirstFormat.decode($0) }
            guard let (transactionID, payload) = decoded else { return }
            try bytes.withRawBytes { raw throws(LMDBError) in try visit(transactionID, UnsafeRawBufferPointer(rebasing: raw[payload])) }
            offset += bytes.count
        }
    }
}
