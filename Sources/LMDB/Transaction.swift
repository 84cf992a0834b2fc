internal import CLMDB

/// What read-only and read-write transactions both can do: point lookups, cursors, statistics.
///
/// Every byte view handed to a closure is valid only inside that closure (liblmdb: "Values
/// returned from the database are valid only until a subsequent update operation, or the
/// end of the transaction"); copy what you keep.
package protocol TransactionReading: ~Copyable {
    /// liblmdb's transaction handle. Valid only while the transaction is; never stored.
    var unsafeHandle: OpaquePointer { get }
    /// The largest key the environment accepts.
    var maxKeySize: Int { get }
}

extension TransactionReading where Self: ~Copyable {
    /// Looks a key up and hands its value's bytes to `body`, without copying them.
    ///
    /// Wraps `mdb_get`.
    /// - Parameters:
    ///   - database: the table.
    ///   - key: the key's bytes.
    ///   - body: reads the value; the view is valid only inside it.
    /// - Returns: what `body` returns, or `nil` when the key is absent.
    package func withValue<R>(
        in database: Database, forKey key: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        try key.withUnsafeBytes { keyBytes in try withValue(in: database, forKey: keyBytes, body) }
    }

    /// Looks up a key given as a byte view (one a cursor handed out, say) and hands its
    /// value's bytes to `body`, copying neither.
    ///
    /// Wraps `mdb_get`.
    /// - Parameters:
    ///   - database: the table.
    ///   - key: the key's bytes, valid for the length of the call.
    ///   - body: reads the value; the view is valid only inside it.
    /// - Returns: what `body` returns, or `nil` when the key is absent.
    package func withValue<R>(
        in database: Database, forKey key: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        try validateKey(byteCount: key.count, database: database)
        var keyValue = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var data = MDB_val()
        let rc = mdb_get(unsafeHandle, database.dbi, &keyValue, &data)
        if rc == MDB_NOTFOUND { return nil }
        if rc != 0 { throw LMDBError(returnCode: rc, operation: "mdb_get", context: database.displayName) }
        return try body(UnsafeRawBufferPointer(start: data.mv_data, count: data.mv_size))
    }

    /// Looks a key up and returns a copy of its value, or `nil` when the key is absent.
    ///
    /// Wraps `mdb_get`.
    package func value(in database: Database, forKey key: [UInt8]) throws -> [UInt8]? {
        try withValue(in: database, forKey: key) { Array($0) }
    }

    /// Opens a cursor on `database` for the length of `body`. Wraps `mdb_cursor_open`
    /// and `mdb_cursor_close`.
    @discardableResult
    package func withCursor<R>(on database: Database, _ body: (inout Cursor) throws -> R) throws -> R {
        var cursorHandle: OpaquePointer?
        try check("mdb_cursor_open", context: database.displayName) {
            mdb_cursor_open(unsafeHandle, database.dbi, &cursorHandle)
        }
        guard let cursorHandle else {
            throw LMDBError(code: .invalidArgument, operation: "mdb_cursor_open", message: "returned no cursor")
        }
        defer { mdb_cursor_close(cursorHandle) }
        var cursor = Cursor(handle: cursorHandle, database: database)
        return try body(&cursor)
    }

    /// The number of entries and pages of a database. Wraps `mdb_stat`.
    package func statistics(of database: Database) throws -> DatabaseStatistics {
        var stat = MDB_stat()
        try check("mdb_stat", context: database.displayName) { mdb_stat(unsafeHandle, database.dbi, &stat) }
        return DatabaseStatistics(
            entries: stat.ms_entries,
            depth: Int(stat.ms_depth),
            pages: stat.ms_branch_pages + stat.ms_leaf_pages + stat.ms_overflow_pages)
    }

    /// Opens a database that already exists, or returns `nil` when there is none of that name.
    /// Wraps `mdb_dbi_open` without `MDB_CREATE`.
    ///
    /// - Parameter name: the database's name, or `nil` for the main database.
    package func existingDatabase(named name: String?) throws -> Database? {
        do {
            return try openDatabase(named: name, flags: [])
        } catch let error as LMDBError where error.code == .notFound {
            return nil
        }
    }

    /// Opens a named database inside this transaction. Wraps `mdb_dbi_open`.
    func openDatabase(named name: String?, flags: DatabaseFlags) throws -> Database {
        var dbi = MDB_dbi()
        try check("mdb_dbi_open", context: name ?? "(main)") {
            mdb_dbi_open(unsafeHandle, name, flags.rawValue, &dbi)
        }
        return Database(handle: UInt32(dbi), name: name)
    }

    /// Refuses a key liblmdb would refuse, with a message that says why.
    func validateKey(_ key: [UInt8], database: Database) throws(LMDBError) {
        try validateKey(byteCount: key.count, database: database)
    }

    func validateKey(byteCount: Int, database: Database) throws(LMDBError) {
        if byteCount == 0 {
            throw LMDBError(code: .badValueSize, operation: "key", message: "an empty key is not allowed (\(database.displayName))")
        }
        if byteCount > maxKeySize {
            throw LMDBError(
                code: .badValueSize, operation: "key",
                message: "a key of \(byteCount) bytes is longer than LMDB's limit of \(maxKeySize) (\(database.displayName))")
        }
    }
}

/// A read-only transaction: a consistent snapshot of the environment.
///
/// Only ``Environment/read(_:)`` makes one, and it ends when that closure returns.
package struct ReadTransaction: TransactionReading, ~Copyable {
    package let unsafeHandle: OpaquePointer
    package let maxKeySize: Int

    init(handle: OpaquePointer, maxKeySize: Int) {
        self.unsafeHandle = handle
        self.maxKeySize = maxKeySize
    }
}

/// A read-write transaction. Only ``Environment/write(_:)`` makes one; it commits when that
/// closure returns and aborts when it throws. ``withNestedTransaction(_:)`` opens a child
/// whose changes can be abandoned without abandoning the parent's.
package struct WriteTransaction: TransactionReading, ~Copyable {
    package let unsafeHandle: OpaquePointer
    package let maxKeySize: Int
    /// Set when liblmdb answered `MDB_MAP_FULL`: the transaction can then only be aborted,
    /// and ``Environment/write(_:)`` grows the map and runs its closure again.
    package internal(set) var hitMapFull = false
    /// Where the transaction's changes are recorded for the write-ahead log, when the
    /// environment keeps one.
    let redo: RedoLog?

    init(handle: OpaquePointer, maxKeySize: Int, redo: RedoLog? = nil) {
        self.unsafeHandle = handle
        self.maxKeySize = maxKeySize
        self.redo = redo
    }

    private mutating func noteFailure(_ rc: Int32) {
        if rc == MDB_MAP_FULL { hitMapFull = true }
    }

    /// Stores `value` under `key`. Wraps `mdb_put`.
    ///
    /// - Parameters:
    ///   - value: the bytes to store.
    ///   - key: the key (1 to ``maxKeySize`` bytes).
    ///   - database: the table.
    ///   - flags: `.noOverwrite` to refuse replacing an existing value, `.append` for keys
    ///     known to sort last.
    /// - Returns: `false` when `.noOverwrite` was given and the key already existed, else `true`.
    @discardableResult
    package mutating func put(
        _ value: [UInt8], forKey key: [UInt8], in database: Database, flags: WriteFlags = []
    ) throws -> Bool {
        try validateKey(key, database: database)
        let rc = key.withUnsafeBytes { keyBytes in
            value.withUnsafeBytes { valueBytes in
                var keyValue = MDB_val(mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
                var data = MDB_val(mv_size: valueBytes.count, mv_data: UnsafeMutableRawPointer(mutating: valueBytes.baseAddress))
                let rc = mdb_put(unsafeHandle, database.dbi, &keyValue, &data, flags.rawValue)
                if rc == 0 { redo?.recordPut(in: database, key: keyBytes, value: valueBytes) }
                return rc
            }
        }
        if rc == MDB_KEYEXIST, flags.contains(.noOverwrite) { return false }
        if rc != 0 {
            noteFailure(rc)
            throw LMDBError(returnCode: rc, operation: "mdb_put", context: database.displayName)
        }
        return true
    }

    /// Deletes `key` and its value. Wraps `mdb_del`.
    ///
    /// - Returns: `false` when the key was absent.
    @discardableResult
    package mutating func delete(_ key: [UInt8], in database: Database) throws -> Bool {
        try validateKey(key, database: database)
        let rc = key.withUnsafeBytes { keyBytes in
            var keyValue = MDB_val(mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
            let rc = mdb_del(unsafeHandle, database.dbi, &keyValue, nil)
            if rc == 0 { redo?.recordDelete(in: database, key: keyBytes) }
            return rc
        }
        if rc == MDB_NOTFOUND { return false }
        if rc != 0 {
            noteFailure(rc)
            throw LMDBError(returnCode: rc, operation: "mdb_del", context: database.displayName)
        }
        return true
    }

    /// Removes every entry of `database`, keeping the database. Wraps `mdb_drop` with 0.
    package mutating func removeAll(in database: Database) throws {
        // Emptying an empty database changes nothing: not even liblmdb is asked (its drop would
        // still make the transaction commit a snapshot, which the write-ahead log would then
        // have to checkpoint).
        guard try statistics(of: database).entries > 0 else { return }
        let rc = mdb_drop(unsafeHandle, database.dbi, 0)
        if rc != 0 {
            noteFailure(rc)
            throw LMDBError(returnCode: rc, operation: "mdb_drop", context: database.displayName)
        }
        redo?.recordRemoveAll(in: database)
    }

    /// Opens (creating) a named database inside this transaction; it becomes visible to
    /// other transactions when this one commits. Wraps `mdb_dbi_open`.
    package mutating func createDatabase(named name: String, flags: DatabaseFlags = [.create]) throws -> Database {
        try openDatabaseRecorded(named: name, flags: flags.union(.create))
    }

    /// Opens a database as ``TransactionReading/openDatabase(named:flags:)`` does, recording the
    /// opening for the write-ahead log (it creates the database when `flags` has `.create`).
    func openDatabaseRecorded(named name: String?, flags: DatabaseFlags) throws -> Database {
        // Only a creation changes anything: opening an existing database is not recorded (a
        // recorded change must make the transaction commit a snapshot of its own).
        if flags.contains(.create), let existing = try existingDatabase(named: name) { return existing }
        let database = try openDatabase(named: name, flags: flags)
        if flags.contains(.create) { redo?.recordOpen(named: name, flags: flags.rawValue) }
        return database
    }

    /// Runs `body` in a child transaction: its changes join this transaction when `body`
    /// returns, and are abandoned (leaving this transaction as it was) when `body` throws.
    ///
    /// Wraps `mdb_txn_begin` with a parent, `mdb_txn_commit` and `mdb_txn_abort`. While the
    /// child is open the parent must not be used; the `mutating` signature makes Swift
    /// enforce that.
    @discardableResult
    package mutating func withNestedTransaction<R>(_ body: (inout WriteTransaction) throws -> R) throws -> R {
        var childHandle: OpaquePointer?
        let env = mdb_txn_env(unsafeHandle)
        let rc = mdb_txn_begin(env, unsafeHandle, 0, &childHandle)
        guard rc == 0, let childHandle else {
            noteFailure(rc)
            throw LMDBError(returnCode: rc, operation: "mdb_txn_begin", context: "nested")
        }
        var child = WriteTransaction(handle: childHandle, maxKeySize: maxKeySize, redo: redo)
        // What the child records is forgotten with it when it is abandoned.
        let mark = redo?.count ?? 0
        let result: R
        do {
            result = try body(&child)
        } catch {
            mdb_txn_abort(childHandle)
            redo?.rollBack(to: mark)
            if child.hitMapFull { hitMapFull = true }
            throw error
        }
        if child.hitMapFull {
            mdb_txn_abort(childHandle)
            redo?.rollBack(to: mark)
            hitMapFull = true
            throw LMDBError(returnCode: MDB_MAP_FULL, operation: "mdb_txn_commit", context: "nested")
        }
        // The child handle is freed by mdb_txn_commit whatever it returns.
        let commitRC = mdb_txn_commit(childHandle)
        if commitRC != 0 {
            redo?.rollBack(to: mark)
            noteFailure(commitRC)
            throw LMDBError(returnCode: commitRC, operation: "mdb_txn_commit", context: "nested")
        }
        return result
    }
}
