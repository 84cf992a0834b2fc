public import LMDB

/// A named LMDB database whose keys are `Key` tuples in order-preserving encoding and whose
/// values are `Value` records.
///
/// A plain value: get it from ``Store/table(_:keyType:valueType:)`` once, use it in any transaction.
public struct Table<Key: OrderedKeyCodable, Value: StoredValue>: Sendable {
    /// The underlying database.
    public let database: Database

    /// Wraps an opened database.
    public init(database: Database) { self.database = database }

    /// The table's name.
    public var name: String { database.name ?? "(main)" }

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
    public func get<K, V>(_ key: K, from table: Table<K, V>) throws -> V? {
        let keyBytes = key.orderedKey.bytes
        return try withValue(in: table.database, forKey: keyBytes) { bytes in
            try keyBytes.withUnsafeBytes { try table.decodeValue(bytes, key: $0) }
        }
    }

    /// Whether `key` is present in `table`.
    public func contains<K, V>(_ key: K, in table: Table<K, V>) throws -> Bool {
        try withValue(in: table.database, forKey: key.orderedKey.bytes) { _ in true } ?? false
    }

    /// The number of entries in `table`.
    public func count<K, V>(of table: Table<K, V>) throws -> Int {
        try statistics(of: table.database).entries
    }
}

extension WriteTransaction {
    /// Stores `value` under `key`, replacing what was there.
    public mutating func put<K, V>(_ value: V, forKey key: K, in table: Table<K, V>) throws {
        try put(value.storedBytes(), forKey: key.orderedKey.bytes, in: table.database)
    }

    /// Stores `value` under `key` only if the key is absent.
    ///
    /// - Returns: `false` (and stores nothing) when the key was already present.
    public mutating func insert<K, V>(_ value: V, forKey key: K, in table: Table<K, V>) throws -> Bool {
        try put(value.storedBytes(), forKey: key.orderedKey.bytes, in: table.database, flags: .noOverwrite)
    }

    /// Deletes `key` from `table`.
    ///
    /// - Returns: `false` when it was absent.
    @discardableResult
    public mutating func delete<K, V>(_ key: K, from table: Table<K, V>) throws -> Bool {
        try delete(key.orderedKey.bytes, in: table.database)
    }
}
