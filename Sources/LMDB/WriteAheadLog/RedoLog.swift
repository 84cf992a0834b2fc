internal import CLMDB

/// What one write transaction changed, in the order it changed it: the payload of the
/// transaction's record in the write-ahead log. Replayed on the snapshot the transaction began
/// from, it makes the snapshot the transaction committed.
///
/// Only effects are recorded: a put that `.noOverwrite` refused and a delete of an absent key
/// are not. A nested transaction shares its parent's log and, when it is abandoned, rolls the
/// log back to where it began (``rollBack(to:)``).
///
/// Encoding, little-endian: an operation byte, then the database's name (a length byte, 255
/// for the main database, then UTF-8), then per operation: put, the key and the value (each a
/// 4-byte length, then the bytes); delete, the key; remove-all, nothing; open, the 4-byte
/// `mdb_dbi_open` flags.
final class RedoLog {
    /// One recorded change.
    enum Operation: UInt8 {
        case put = 1
        case delete = 2
        case removeAll = 3
        case openDatabase = 4
    }

    /// The length byte that stands for the main (unnamed) database.
    private static let mainDatabaseMarker: UInt8 = 255

    /// The encoded operations.
    private(set) var bytes: [UInt8]

    /// Room the encoding starts with: a weigh-in's changes take about 700 bytes, so a lone
    /// write's record grows in place, and a batch's doubles from there.
    static let initialCapacity = 2048

    init() {
        bytes = []
        bytes.reserveCapacity(Self.initialCapacity)
    }

    /// The length of the encoding so far: a mark a nested transaction rolls back to.
    var count: Int { bytes.count }

    /// Forgets what was recorded after `count` (an abandoned nested transaction's changes).
    func rollBack(to count: Int) {
        bytes.removeSubrange(count...)
    }

    func recordPut(in database: Database, key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        begin(.put, name: database.name)
        appendBlob(key)
        appendBlob(value)
    }

    func recordDelete(in database: Database, key: UnsafeRawBufferPointer) {
        begin(.delete, name: database.name)
        appendBlob(key)
    }

    func recordRemoveAll(in database: Database) {
        begin(.removeAll, name: database.name)
    }

    func recordOpen(named name: String?, flags: UInt32) {
        begin(.openDatabase, name: name)
        appendInteger(flags)
    }

    private func begin(_ operation: Operation, name: String?) {
        bytes.append(operation.rawValue)
        guard let name else {
            bytes.append(Self.mainDatabaseMarker)
            return
        }
        let length = name.utf8.count
        // liblmdb keeps database names as keys of the main database; ours are short.
        precondition(length < Int(Self.mainDatabaseMarker), "a database name of \(length) bytes is too long to log")
        bytes.append(UInt8(length))
        bytes.append(contentsOf: name.utf8)
    }

    private func appendBlob(_ blob: UnsafeRawBufferPointer) {
        appendInteger(UInt32(blob.count))
        bytes.append(contentsOf: blob)
    }

    private func appendInteger(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    // MARK: Replay

    /// Applies a recorded payload inside `txn`, a write transaction on the snapshot the
    /// recorded transaction began from.
    ///
    /// - Throws: ``LMDBError`` `.corrupted` when the payload does not decode (a checksum passed,
    ///   so this is a bug, not a torn write), or liblmdb's error.
    static func replay(_ payload: UnsafeRawBufferPointer, in txn: OpaquePointer) throws(LMDBError) {
        var reader = PayloadReader(payload)
        var databases: [String?: MDB_dbi] = [:]
        func database(_ name: String?, flags: UInt32 = 0) throws(LMDBError) -> MDB_dbi {
            if flags == 0, let known = databases[name] { return known }
            var dbi = MDB_dbi()
            try check("mdb_dbi_open", context: name ?? "(main)") { mdb_dbi_open(txn, name, flags, &dbi) }
            databases[name] = dbi
            return dbi
        }
        while !reader.isAtEnd {
            guard let operation = Operation(rawValue: try reader.byte()) else { throw reader.corrupted("an unknown operation") }
            let name = try reader.name()
            switch operation {
            case .put:
                let dbi = try database(name)
                let key = try reader.blob()
                let value = try reader.blob()
                var keyValue = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
                var data = MDB_val(mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
                try check("mdb_put", context: "replaying the write-ahead log") { mdb_put(txn, dbi, &keyValue, &data, 0) }
            case .delete:
                let dbi = try database(name)
                let key = try reader.blob()
                var keyValue = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
                try check("mdb_del", context: "replaying the write-ahead log") { mdb_del(txn, dbi, &keyValue, nil) }
            case .removeAll:
                let dbi = try database(name)
                try check("mdb_drop", context: "replaying the write-ahead log") { mdb_drop(txn, dbi, 0) }
            case .openDatabase:
                _ = try database(name, flags: try reader.integer())
            }
        }
    }
}

/// Reads a ``RedoLog`` payload, refusing one that ends early.
private struct PayloadReader {
    private let payload: UnsafeRawBufferPointer
    private var offset = 0

    init(_ payload: UnsafeRawBufferPointer) {
        self.payload = payload
    }

    var isAtEnd: Bool { offset == payload.count }

    func corrupted(_ what: String) -> LMDBError {
        LMDBError(code: .corrupted, operation: "replaying the write-ahead log", message: "\(what) at byte \(offset) of a record")
    }

    mutating func byte() throws(LMDBError) -> UInt8 {
        guard offset < payload.count else { throw corrupted("a record that ends early") }
        defer { offset += 1 }
        return payload[offset]
    }

    mutating func integer() throws(LMDBError) -> UInt32 {
        guard payload.count - offset >= 4 else { throw corrupted("a record that ends early") }
        defer { offset += 4 }
        return UInt32(littleEndian: payload.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    mutating func blob() throws(LMDBError) -> UnsafeRawBufferPointer {
        let count = Int(try integer())
        guard payload.count - offset >= count else { throw corrupted("a record that ends early") }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: payload[offset..<(offset + count)])
    }

    mutating func name() throws(LMDBError) -> String? {
        let length = try byte()
        if length == 255 { return nil }
        guard payload.count - offset >= Int(length) else { throw corrupted("a record that ends early") }
        defer { offset += Int(length) }
        return String(decoding: payload[offset..<(offset + Int(length))], as: UTF8.self)
    }
}
