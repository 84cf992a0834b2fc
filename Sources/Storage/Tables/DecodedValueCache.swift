import Foundation
import Synchronization

/// The decoded values of a table's most used records, each kept with the exact bytes it
/// stands for, so a read of a record that has not changed skips decoding it.
///
/// A lookup hands over the bytes the transaction read, and the cache answers only when they
/// are the bytes it kept: what a transaction sees is always what is stored, whichever
/// transaction or version wrote the cached value, and a value cached by a write that was then
/// rolled back is never answered (its bytes are not the stored ones). Only the cost of a
/// lookup (a hash of the key, a comparison of the bytes) is added to a read that misses.
///
/// A member's record is read by every call they make and rewritten by every write: a
/// weigh-in decoded it twice (the session check, then the index upkeep of the put) and
/// encoded it once. With the record cached as it is put, neither read decodes.
final class DecodedValueCache<Value: StoredValue>: Sendable {
    /// The most records kept; a record cached past it replaces the whole cache.
    let capacity: Int
    private let entries = Mutex<[Key: Entry]>([:])

    /// A record's key bytes, hashed in one pass (an array of bytes hashes byte by byte).
    private struct Key: Hashable, Sendable {
        let bytes: [UInt8]

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    private struct Entry: Sendable {
        let storedBytes: [UInt8]
        let value: Value
    }

    /// An empty cache of at most `capacity` records.
    init(capacity: Int) {
        precondition(capacity > 0, "a cache holds at least one record")
        self.capacity = capacity
    }

    /// The value cached for `key` when it was decoded from (or encoded as) exactly
    /// `storedBytes`, else `nil`.
    func value(forKey key: [UInt8], storedBytes: UnsafeRawBufferPointer) -> Value? {
        entries.withLock { entries in
            guard let entry = entries[Key(bytes: key)], entry.storedBytes.count == storedBytes.count else { return nil }
            let same = entry.storedBytes.withUnsafeBytes { kept in
                kept.count == 0 || memcmp(kept.baseAddress!, storedBytes.baseAddress!, kept.count) == 0
            }
            return same ? entry.value : nil
        }
    }

    /// Keeps `value` as what `storedBytes`, stored under `key`, decode to.
    func remember(_ value: Value, storedBytes: [UInt8], forKey key: [UInt8]) {
        entries.withLock { entries in
            let key = Key(bytes: key)
            if entries.count >= capacity, entries[key] == nil { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(storedBytes: storedBytes, value: value)
        }
    }

    /// How many records are cached.
    var count: Int { entries.withLock { $0.count } }
}
