internal import CLMDB

/// A position in a database, for walking keys in order. Only
/// ``TransactionReading/withCursor(on:_:)`` makes one; it closes when that closure returns.
///
/// Each move returns the entry it lands on, or `nil` past either end. An entry's byte views
/// are valid only until the cursor moves again or its transaction ends.
package struct Cursor: ~Copyable {
    private let handle: OpaquePointer
    /// The database the cursor walks.
    package let database: Database

    init(handle: OpaquePointer, database: Database) {
        self.handle = handle
        self.database = database
    }

    /// The key and value the cursor is on.
    package struct Entry {
        /// The key's bytes, valid until the cursor moves.
        package let key: UnsafeRawBufferPointer
        /// The value's bytes, valid until the cursor moves.
        package let value: UnsafeRawBufferPointer
    }

    private func move(_ operation: MDB_cursor_op, key: [UInt8]? = nil) throws -> Entry? {
        var keyValue = MDB_val()
        var data = MDB_val()
        let rc: Int32
        if let key {
            rc = key.withUnsafeBytes { keyBytes in
                keyValue = MDB_val(mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
                // On success liblmdb points keyValue at the key inside the map, so the view
                // stays valid after `key` goes.
                return mdb_cursor_get(handle, &keyValue, &data, operation)
            }
        } else {
            rc = mdb_cursor_get(handle, &keyValue, &data, operation)
        }
        if rc == MDB_NOTFOUND { return nil }
        if rc != 0 { throw LMDBError(returnCode: rc, operation: "mdb_cursor_get", context: database.displayName) }
        return Entry(
            key: UnsafeRawBufferPointer(start: keyValue.mv_data, count: keyValue.mv_size),
            value: UnsafeRawBufferPointer(start: data.mv_data, count: data.mv_size))
    }

    /// Moves to the first entry (`MDB_FIRST`).
    package mutating func first() throws -> Entry? { try move(MDB_FIRST) }
    /// Moves to the last entry (`MDB_LAST`).
    package mutating func last() throws -> Entry? { try move(MDB_LAST) }
    /// Moves to the next entry (`MDB_NEXT`).
    package mutating func next() throws -> Entry? { try move(MDB_NEXT) }
    /// Moves to the previous entry (`MDB_PREV`).
    package mutating func previous() throws -> Entry? { try move(MDB_PREV) }
    /// The entry the cursor is on (`MDB_GET_CURRENT`).
    package func current() throws -> Entry? { try move(MDB_GET_CURRENT) }

    /// Moves to the first entry whose key is greater than or equal to `key` (`MDB_SET_RANGE`).
    package mutating func seek(atLeast key: [UInt8]) throws -> Entry? {
        guard !key.isEmpty else { return try first() }
        return try move(MDB_SET_RANGE, key: key)
    }

    /// Moves to the entry whose key is exactly `key` (`MDB_SET_KEY`), or returns `nil`.
    package mutating func seek(exactly key: [UInt8]) throws -> Entry? {
        guard !key.isEmpty else { return nil }
        return try move(MDB_SET_KEY, key: key)
    }
}
