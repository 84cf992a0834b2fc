package import LMDB

/// A named LMDB database whose keys are `Key` tuples in order-preserving encoding and whose
/// values are `Value` records.
///
/// A plain value: get it from ``Store/table(_:keyType:valueType:)`` once, use it in any transaction.
package struct Table<Key: OrderedKeyCodable, Value: StoredValue>: Sendable {
    /// The underlying database.
    package let database: Database
    /// Decoded values kept with their bytes (``cachingDecodedValues(capacity:)``), or `nil`.
    let cache: DecodedValueCache<Value>?

    /// Wraps an opened database.
    package init(database: Database) {
        self.database = database
        self.cache = nil
    }

    private init(database: Database, cache: DecodedValueCache<Value>) {
        self.database = database
        self.cache = cache
    }

    /// This table, keeping the decoded values of up to `capacity` records it reads or
    /// stores, for a table whose few records are read far more often than they change (the
    /// members, their sessions). See ``DecodedValueCache``.
    package func cachingDecodedValues(capacity: Int) -> Table {
        Table(database: database, cache: DecodedValueCache(capacity: capacity))
    }

    /// The value of `bytes`, read under `key`: the cached one when it stands for exactly
    /// these bytes, else decoded (and cached).
    func value(_ bytes: UnsafeRawBufferPointer, key: [UInt8]) throws -> Value {
        guard let cache else { return try key.withUnsafeBytes { try decodeValue(bytes, key: $0) } }
        if let cached = cache.value(forKey: key, storedBytes: bytes) { return cached }
        let value = try key.withUnsafeBytes { try decodeValue(bytes, key: $0) }
        cache.remember(value, storedBytes: Array(bytes), forKey: key)
        return value
    }

    /// The table's name.
    package var name: String { database.name ?? "(main)" }

    /// Decodes a value read from this table, naming the table and key when it fails.
    func decodeValue(_ bytes: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer) throws -> Value {
        do {
            return try Value(storedBytes: bytes)
        } catch {
            throw StorageError(
                .corruptValue,
                "value under key \(OrderedKey(bytes: Array(key))) in table \(name) does not decode as \(Value.self)",
                underlying: SendableError(error))
        }
    }

    /// Decodes a key read from this table, naming the table when it fails.
    func decodeKey(_ bytes: UnsafeRawBufferPointer) throws -> Key {
        do {
            return try Key(decodingKey: bytes)
        } catch {
            throw StorageError(
                .malformedKey, "key \(OrderedKey(bytes: Array(bytes))) in table \(name) does not decode as \(Key.self)",
                underlying: SendableError(error))
        }
    }
}

/// Carries a non-Sendable error's description across threads.
struct SendableError: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ error: any Error) { description = String(describing: error) }
}

extension TransactionReading where Self: ~Copyable {
    /// The value stored under `key`, or `nil`.
    package func get<K, V>(_ key: K, from table: Table<K, V>) throws -> V? {
        let keyBytes = key.orderedKey.bytes
        return try withValue(in: table.database, forKey: keyBytes) { bytes in try table.value(bytes, key: keyBytes) }
    }

    /// Whether `key` is present in `table`.
    package func contains<K, V>(_ key: K, in table: Table<K, V>) throws -> Bool {
        try withValue(in: table.database, forKey: key.orderedKey.bytes) { _ in true } ?? false
    }

    /// The number of entries in `table`.
    package func count<K, V>(of table: Table<K, V>) throws -> Int {
        try statistics(of: table.database).entries
    }
}

extension WriteTransaction {
    /// Stores `value` under `key`, replacing what was there.
    package mutating func put<K, V>(_ value: V, forKey key: K, in table: Table<K, V>) throws {
        let keyBytes = key.orderedKey.bytes
        let bytes = try value.storedBytes()
        try put(bytes, forKey: keyBytes, in: table.database)
        table.cache?.remember(value, storedBytes: bytes, forKey: keyBytes)
    }

    /// Stores `value` under `key` only if the key is absent.
    ///
    /// - Returns: `false` (and stores nothing) when the key was already present.
    package mutating func insert<K, V>(_ value: V, forKey key: K, in table: Table<K, V>) throws -> Bool {
        let keyBytes = key.orderedKey.bytes
        let bytes = try value.storedBytes()
        guard try put(bytes, forKey: keyBytes, in: table.database, flags: .noOverwrite) else { return false }
        table.cache?.remember(value, storedBytes: bytes, forKey: keyBytes)
        return true
    }

    /// Deletes `key` from `table`.
    ///
    /// - Returns: `false` when it was absent.
    @discardableResult
    package mutating func delete<K, V>(_ key: K, from table: Table<K, V>) throws -> Bool {
        try delete(key.orderedKey.bytes, in: table.database)
    }
}
