package import LMDB

/// A secondary index: a table whose keys are derived from another table's records and whose
/// values are those records' primary keys.
///
/// The index keys a record produces must be unique across records, so they normally end
/// with the primary key: `(user, time, record id)` indexes records by user and time.
/// ``IndexedTable`` keeps an index in step with its table inside the same transaction.
package struct SecondaryIndex<IndexKey: OrderedKeyCodable, PrimaryKey: OrderedKeyCodable, Value: StoredValue>: Sendable {
    /// The database holding the index entries.
    package let database: Database
    /// The index keys of one record (none, one or several).
    package let keys: @Sendable (_ primaryKey: PrimaryKey, _ value: Value) -> [IndexKey]

    /// Declares an index stored in `database` whose entries `keys` derives from each record.
    package init(database: Database, keys: @escaping @Sendable (_ primaryKey: PrimaryKey, _ value: Value) -> [IndexKey]) {
        self.database = database
        self.keys = keys
    }

    /// The index's name.
    package var name: String { database.name ?? "(main)" }

    func encodedKeys(_ primaryKey: PrimaryKey, _ value: Value) -> [[UInt8]] {
        keys(primaryKey, value).map { $0.orderedKey.bytes }
    }
}

/// A table together with the secondary indexes that must agree with it.
///
/// Writing through it (``WriteTransaction/put(_:forKey:in:)-(_,_,IndexedTable<K,V>)`` and
/// ``WriteTransaction/delete(_:from:)-(_,IndexedTable<K,V>)``) updates every index in the
/// same transaction: entries of the old version of a record that the new one no longer
/// has are removed, new ones added. A record and its index entries therefore never disagree,
/// even after a crash.
package struct IndexedTable<Key: OrderedKeyCodable, Value: StoredValue>: Sendable {
    /// The primary table.
    package let table: Table<Key, Value>
    let indexes: [ErasedIndex]

    /// An index seen only as a database and a key function, so indexes of different key
    /// types can sit in one list.
    struct ErasedIndex: Sendable {
        let database: Database
        let keys: @Sendable (Key, Value) -> [[UInt8]]
    }

    /// A table with no indexes yet.
    package init(_ table: Table<Key, Value>) {
        self.table = table
        self.indexes = []
    }

    private init(table: Table<Key, Value>, indexes: [ErasedIndex]) {
        self.table = table
        self.indexes = indexes
    }

    /// This table with `index` kept in step too.
    package func indexed<IndexKey>(by index: SecondaryIndex<IndexKey, Key, Value>) -> IndexedTable {
        IndexedTable(table: table, indexes: indexes + [ErasedIndex(database: index.database, keys: index.encodedKeys)])
    }
}

/// A disagreement between a table and one of its indexes, found by
/// ``TransactionReading/verifyIndexes(of:)``.
package struct IndexProblem: Sendable, Hashable, CustomStringConvertible {
    /// The index's name.
    package var index: String
    /// The index key involved (hex).
    package var indexKey: String
    /// What is wrong.
    package var problem: String

    package var description: String { "\(index) \(indexKey): \(problem)" }
}

extension WriteTransaction {
    /// Stores `value` under `key` and brings every index of `table` in step.
    ///
    /// - Returns: the value that was replaced, or `nil` for a new record.
    @discardableResult
    package mutating func put<K, V>(_ value: V, forKey key: K, in table: IndexedTable<K, V>) throws -> V? {
        let keyBytes = key.orderedKey.bytes
        let previous = try get(key, from: table.table)
        let bytes = try value.storedBytes()
        try put(bytes, forKey: keyBytes, in: table.table.database)
        table.table.cache?.remember(value, storedBytes: bytes, forKey: keyBytes)
        for index in table.indexes {
            let new = index.keys(key, value)
            let oldKeys = previous.map { index.keys(key, $0) } ?? []
            // Most updates leave the indexed fields alone (a weigh-in rewrites its member's
            // record, never the email): nothing to compare entry by entry.
            if oldKeys == new { continue }
            let old = Set(oldKeys)
            for stale in old.subtracting(new) {
                try delete(stale, in: index.database)
            }
            for entry in new where !old.contains(entry) {
                try put(keyBytes, forKey: entry, in: index.database)
            }
        }
        return previous
    }

    /// Deletes `key`'s record and its index entries.
    ///
    /// - Returns: the deleted value, or `nil` when there was none.
    @discardableResult
    package mutating func delete<K, V>(_ key: K, from table: IndexedTable<K, V>) throws -> V? {
        guard let previous = try get(key, from: table.table) else { return nil }
        try delete(key.orderedKey.bytes, in: table.table.database)
        for index in table.indexes {
            for entry in index.keys(key, previous) {
                try delete(entry, in: index.database)
            }
        }
        return previous
    }
}

extension TransactionReading where Self: ~Copyable {
    /// One page of an index's entries: index keys with the primary keys they point at.
    package func scan<IK, K, V>(_ index: SecondaryIndex<IK, K, V>, _ request: ScanRequest) throws -> ScanPage<(indexKey: IK, primaryKey: K)> {
        var elements: [(indexKey: IK, primaryKey: K)] = []
        let resume = try scanRaw(index.database, request) { key, value in
            elements.append((try IK(decodingKey: key), try K(decodingKey: value)))
        }
        return ScanPage(elements: elements, resumeAfter: resume)
    }

    /// One page of records found through an index, in index order: a range scan of the index
    /// plus one lookup per entry, O(log n + k).
    ///
    /// - Throws: ``StorageError`` `corruptValue` when an entry points at no record.
    package func scanRecords<IK, K, V>(
        _ index: SecondaryIndex<IK, K, V>, in table: IndexedTable<K, V>, _ request: ScanRequest
    ) throws -> ScanPage<(key: K, value: V)> {
        var elements: [(key: K, value: V)] = []
        let resume = try scanRaw(index.database, request) { indexKey, primaryKey in
            let keyBytes = Array(primaryKey)
            let record = try withValue(in: table.table.database, forKey: keyBytes) { bytes in
                try table.table.decodeValue(bytes, key: primaryKey)
            }
            guard let record else {
                throw StorageError(
                    .corruptValue,
                    "index \(index.name) entry \(OrderedKey(bytes: Array(indexKey))) points at a missing record")
            }
            elements.append((try table.table.decodeKey(primaryKey), record))
        }
        return ScanPage(elements: elements, resumeAfter: resume)
    }

    /// Hands `body` the stored bytes of each record an index range names, in index order,
    /// without decoding them: for a reply that is the records' own encoding (a stored
    /// protobuf message spliced into a response), where decoding and re-encoding would be
    /// wasted work.
    ///
    /// The bytes are valid only during the call to `body`.
    ///
    /// - Returns: The index key to resume after when `request.limit` ended the scan, else `nil`.
    /// - Throws: ``StorageError`` `corruptValue` when an entry points at a missing record,
    ///   or what `body` throws.
    @discardableResult
    package func scanRecordBytes<IK, K, V>(
        _ index: SecondaryIndex<IK, K, V>, in table: IndexedTable<K, V>, _ request: ScanRequest,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> [UInt8]? {
        try scanRaw(index.database, request) { indexKey, primaryKey in
            let found = try withValue(in: table.table.database, forKey: primaryKey) { bytes in
                try body(bytes)
                return true
            }
            guard found == true else {
                throw StorageError(
                    .corruptValue,
                    "index \(index.name) entry \(OrderedKey(bytes: Array(indexKey))) points at a missing record")
            }
        }
    }

    /// Hands `body` the index key and the stored bytes of each record an index range names,
    /// in index order, without decoding them, until `body` declines one: a page of records
    /// that ends where the reply is full (a byte budget), or at `request.limit`.
    ///
    /// Both buffers are valid only during the call to `body`.
    ///
    /// - Parameters:
    ///   - index: The index whose range is scanned.
    ///   - table: The records it names.
    ///   - request: Range, direction, limit and resume key.
    ///   - body: Returns ``ScanStep/take`` to count a record in, ``ScanStep/stop`` to end the
    ///     page before it; it must take the first record it is handed.
    /// - Returns: The index key to resume after (the last record taken) when `request.limit`
    ///   or `body` ended the scan and the range holds more, else `nil`.
    /// - Throws: ``StorageError`` `corruptValue` when an entry points at a missing record,
    ///   or what `body` throws.
    @discardableResult
    package func scanRecordBytesPage<IK, K, V>(
        _ index: SecondaryIndex<IK, K, V>, in table: IndexedTable<K, V>, _ request: ScanRequest,
        _ body: (_ indexKey: UnsafeRawBufferPointer, _ record: UnsafeRawBufferPointer) throws -> ScanStep
    ) throws -> [UInt8]? {
        try scanRawPage(index.database, request) { indexKey, primaryKey in
            let step = try withValue(in: table.table.database, forKey: primaryKey) { bytes in
                try body(indexKey, bytes)
            }
            guard let step else {
                throw StorageError(
                    .corruptValue,
                    "index \(index.name) entry \(OrderedKey(bytes: Array(indexKey))) points at a missing record")
            }
            return step
        }
    }

    /// Checks that every index entry of `table` points at a record that produces it, and
    /// that every record has all its entries. Reads every entry: for tests and `check` tools.
    package func verifyIndexes<K, V>(of table: IndexedTable<K, V>) throws -> [IndexProblem] {
        var problems: [IndexProblem] = []
        var expected: [Int: Set<[UInt8]>] = [:]
        _ = try scanRaw(table.table.database, ScanRequest()) { key, value in
            let primaryKey = try table.table.decodeKey(key)
            let record = try table.table.decodeValue(value, key: key)
            for (position, index) in table.indexes.enumerated() {
                for entry in index.keys(primaryKey, record) {
                    expected[position, default: []].insert(entry)
                    let problem: String? = switch try self.value(in: index.database, forKey: entry) {
                    case nil: "missing entry for record \(OrderedKey(bytes: Array(key)))"
                    case let target? where target != Array(key):
                        "points at \(OrderedKey(bytes: target)) instead of \(OrderedKey(bytes: Array(key)))"
                    default: nil
                    }
                    if let problem {
                        problems.append(IndexProblem(
                            index: index.database.name ?? "(main)", indexKey: OrderedKey(bytes: entry).description,
                            problem: problem))
                    }
                }
            }
        }
        for (position, index) in table.indexes.enumerated() {
            let wanted = expected[position] ?? []
            _ = try scanRaw(index.database, ScanRequest()) { key, _ in
                if !wanted.contains(Array(key)) {
                    problems.append(IndexProblem(
                        index: index.database.name ?? "(main)", indexKey: OrderedKey(bytes: Array(key)).description,
                        problem: "entry belongs to no record"))
                }
            }
        }
        return problems
    }
}
