import Foundation
import LMDB
@testable import Storage
import Synchronization
import Testing

/// Numbers every decoding, so a test can tell a value decoded again from one handed back.
private let decodings = Atomic<Int>(0)

/// A value that tells which decoding made it (0: it was made in memory, never decoded).
private struct Tagged: StoredValue, Equatable {
    var text: String
    var decoding = 0

    init(_ text: String) { self.text = text }

    init(storedBytes: UnsafeRawBufferPointer) throws {
        text = String(decoding: storedBytes, as: UTF8.self)
        decoding = decodings.add(1, ordering: .relaxed).newValue
    }

    func storedBytes() throws -> [UInt8] { Array(text.utf8) }

    static func == (lhs: Tagged, rhs: Tagged) -> Bool { lhs.text == rhs.text }
}

@Suite("A table's decoded-value cache answers only for the bytes that are stored")
struct DecodedValueCacheTests {
    private struct Rollback: Error {}

    /// The same database twice: with the cache, and without it (as another process, or code
    /// that does not know of the cache, writes).
    private func tables(_ store: Store, capacity: Int = 8) throws -> (cached: Table<String, Tagged>, plain: Table<String, Tagged>) {
        let plain = try store.table("counters", keyType: String.self, valueType: Tagged.self)
        return (plain.cachingDecodedValues(capacity: capacity), plain)
    }

    @Test("A record read again, or read after it was stored, is not decoded again")
    func hits() throws {
        try withStore { store, _ in
            let (cached, _) = try tables(store)
            try store.writeAndWait { txn in try txn.put(Tagged("ada"), forKey: "a", in: cached) }
            let afterPut = try store.read { txn throws in try txn.get("a", from: cached) }
            #expect(afterPut == Tagged("ada"))
            #expect(afterPut?.decoding == 0)
            // A record stored by someone else is decoded once, then answered from the cache.
            _ = try store.writeAndWait { txn in try txn.put(Array("bob".utf8), forKey: "b".orderedKey.bytes, in: cached.database) }
            let first = try store.read { txn throws in try txn.get("b", from: cached) }
            let second = try store.read { txn throws in try txn.get("b", from: cached) }
            #expect(first?.text == "bob" && first?.decoding != 0)
            #expect(second?.text == "bob" && second?.decoding == first?.decoding)
        }
    }

    @Test("Bytes stored past the cache, a rolled-back write and an older snapshot each read what is stored")
    func neverStale() throws {
        try withStore { store, _ in
            let (cached, plain) = try tables(store)
            try store.writeAndWait { txn in try txn.put(Tagged("one"), forKey: "k", in: cached) }

            // Another writer (no cache) replaces the bytes: the cached value is not answered.
            try store.writeAndWait { txn in try txn.put(Tagged("two"), forKey: "k", in: plain) }
            #expect(try store.read { txn throws in try txn.get("k", from: cached) }?.text == "two")

            // A write that is rolled back leaves its value in the cache, never in the answers.
            #expect(throws: Rollback.self) {
                try store.writeAndWait { txn in
                    try txn.put(Tagged("three"), forKey: "k", in: cached)
                    #expect(try txn.get("k", from: cached)?.text == "three")
                    throw Rollback()
                }
            }
            #expect(try store.read { txn throws in try txn.get("k", from: cached) }?.text == "two")

            // A read transaction begun before a write keeps reading its own snapshot.
            try store.read { txn throws in
                try store.writeAndWait { txn in try txn.put(Tagged("four"), forKey: "k", in: cached) }
                #expect(try txn.get("k", from: cached)?.text == "two")
            }
            #expect(try store.read { txn throws in try txn.get("k", from: cached) }?.text == "four")

            // Deleted: absent, whatever the cache holds.
            _ = try store.writeAndWait { txn in try txn.delete("k", from: cached) }
            #expect(try store.read { txn throws in try txn.get("k", from: cached) } == nil)
        }
    }

    @Test("The cache holds at most its capacity, and every record still reads right")
    func bounded() throws {
        try withStore { store, _ in
            let (cached, _) = try tables(store, capacity: 4)
            let keys = (0..<20).map { "key\($0)" }
            try store.writeAndWait { txn in
                for key in keys { try txn.put(Tagged("value of \(key)"), forKey: key, in: cached) }
            }
            for _ in 0..<2 {
                for key in keys {
                    #expect(try store.read { txn throws in try txn.get(key, from: cached) }?.text == "value of \(key)")
                }
            }
            #expect(try store.read { txn throws in try txn.get("absent", from: cached) } == nil)
            #expect((cached.cache?.count ?? 0) <= 4)
        }
    }
}
