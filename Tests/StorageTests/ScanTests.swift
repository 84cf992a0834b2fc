import Foundation
import LMDB
import Storage
import Testing
import TestSupport

@Suite("Range scans agree with a brute-force model")
struct ScanTests {
    /// Keys (user, time, sequence) with negative and positive times.
    static func makeKeys(_ generator: inout SeededGenerator, count: Int) -> [OrderedKey] {
        var keys = Set<OrderedKey>()
        while keys.count < count {
            var key = OrderedKey()
            key.append(UInt32.random(in: 0..<8, using: &generator))
            key.append(Int64.random(in: -50_000...50_000, using: &generator) * 1_000)
            key.append(UInt16.random(in: 0..<4, using: &generator))
            keys.insert(key)
        }
        return keys.sorted()
    }

    static func randomBound(_ generator: inout SeededGenerator, keys: [OrderedKey]) -> KeyRange.Bound {
        var bytes: [UInt8]
        if Bool.random(using: &generator) {
            bytes = keys.randomElement(using: &generator)!.bytes
        } else {
            var key = OrderedKey()
            key.append(UInt32.random(in: 0..<9, using: &generator))
            if Bool.random(using: &generator) { key.append(Int64.random(in: -60_000...60_000, using: &generator) * 1_000) }
            bytes = key.bytes
        }
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: return .unbounded
        case 1, 2: return .inclusive(bytes)
        default: return .exclusive(bytes)
        }
    }

    @Test("Random ranges, both directions, limits and resume keys", arguments: [UInt64(7), 8, 9])
    func randomized(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let keys = Self.makeKeys(&generator, count: 3000)
        try withStore { store, _ in
            let notes: Table<OrderedKey, [UInt8]> = try store.table("counters")
            _ = try store.writeAndWait { txn in
                for key in keys { try txn.put(key.bytes, forKey: key, in: notes) }
            }
            for round in 0..<300 {
                var range = KeyRange(lower: Self.randomBound(&generator, keys: keys), upper: Self.randomBound(&generator, keys: keys))
                if round % 10 == 0 {
                    var prefix = OrderedKey()
                    prefix.append(UInt32.random(in: 0..<8, using: &generator))
                    range = .prefix(prefix)
                }
                let direction: ScanDirection = Bool.random(using: &generator) ? .forward : .backward
                let limit: Int? = Bool.random(using: &generator) ? Int.random(in: 1...50, using: &generator) : nil
                var expected = keys.filter { range.contains($0.bytes) }
                if direction == .backward { expected.reverse() }

                var seen: [OrderedKey] = []
                var after: [UInt8]?
                var pages = 0
                repeat {
                    let page = try store.read { txn throws in
                        try txn.scan(notes, ScanRequest(range: range, direction: direction, limit: limit, after: after))
                    }
                    if let limit { #expect(page.elements.count <= limit) }
                    #expect(page.elements.allSatisfy { $0.value == $0.key.bytes })
                    seen += page.elements.map(\.key)
                    after = page.resumeAfter
                    pages += 1
                } while after != nil && pages <= keys.count
                #expect(seen == expected, "seed \(seed) round \(round) range \(range) \(direction) limit \(String(describing: limit))")
            }
        }
    }

    @Test("A resume key from outside the range still yields only the range")
    func resumeOutsideRange() throws {
        try withStore { store, _ in
            let table: Table<UInt32, [UInt8]> = try store.table("counters")
            _ = try store.writeAndWait { txn in
                for value: UInt32 in 0..<20 { try txn.put([UInt8(value)], forKey: value, in: table) }
            }
            let range = KeyRange.halfOpen(UInt32(5).orderedKey, UInt32(10).orderedKey)
            try store.read { txn throws in
                let below = try txn.scan(table, ScanRequest(range: range, after: UInt32(2).orderedKey.bytes))
                #expect(below.elements.map(\.key) == Array(5..<10))
                let above = try txn.scan(table, ScanRequest(range: range, direction: .backward, after: UInt32(15).orderedKey.bytes))
                #expect(above.elements.map(\.key) == Array((5..<10).reversed()))
                let empty = try txn.scan(table, ScanRequest(range: range, limit: 0))
                #expect(empty.elements.isEmpty && empty.resumeAfter == nil)
            }
        }
    }

    @Test("A keys-only scan pages like a full one and never decodes a value")
    func keysOnly() throws {
        try withStore { store, _ in
            let raw: Table<UInt32, [UInt8]> = try store.table("notes")
            let notes: Table<UInt32, Note> = try store.table("notes")
            // Bytes that are no Note: a scan that decoded them would throw.
            _ = try store.writeAndWait { txn in
                for key: UInt32 in 0..<20 { try txn.put([0xFF, 0xFF, UInt8(key)], forKey: key, in: raw) }
            }
            let range = KeyRange.halfOpen(UInt32(5).orderedKey, UInt32(15).orderedKey)
            try store.read { txn throws in
                #expect(throws: StorageError.self) { _ = try txn.scan(notes, ScanRequest(range: range)) }
                let first = try txn.scanKeys(notes, ScanRequest(range: range, limit: 4))
                #expect(first.elements == [5, 6, 7, 8])
                let resume: [UInt8] = try #require(first.resumeAfter)
                let rest = try txn.scanKeys(notes, ScanRequest(range: range, after: resume))
                #expect(rest.elements == Array(9..<15))
                #expect(rest.resumeAfter == nil)
                let backward = try txn.scanKeys(notes, ScanRequest(range: range, direction: .backward))
                #expect(backward.elements == Array((5..<15).reversed()))
            }
        }
    }

    @Test("A page its visitor ends (a byte budget) resumes at the first entry it declined, both directions", arguments: [ScanDirection.forward, .backward])
    func visitorEndsPage(direction: ScanDirection) throws {
        try withStore { store, _ in
            let table: Table<UInt32, [UInt8]> = try store.table("counters")
            // Entries of 1 to 7 bytes; a page takes at most 10 bytes, and always its first entry.
            _ = try store.writeAndWait { txn in
                for value: UInt32 in 0..<40 { try txn.put([UInt8](repeating: 1, count: Int(value % 7) + 1), forKey: value, in: table) }
            }
            let range = KeyRange.halfOpen(UInt32(3).orderedKey, UInt32(37).orderedKey)
            var expected = Array(UInt32(3)..<37)
            if direction == .backward { expected.reverse() }
            var seen: [UInt32] = []
            var after: [UInt8]?
            var pages = 0
            repeat {
                var bytes = 0
                var page: [UInt32] = []
                after = try store.read { txn throws in
                    try txn.scanPage(table, ScanRequest(range: range, direction: direction, limit: 5, after: after)) { key, value in
                        if !page.isEmpty && bytes + value.count > 10 { return .stop }
                        bytes += value.count
                        page.append(key)
                        return .take
                    }
                }
                #expect(!page.isEmpty && page.count <= 5)
                #expect(page.count == 1 || bytes <= 10)
                seen += page
                pages += 1
            } while after != nil && pages <= 40
            #expect(seen == expected)
            #expect(pages > 34 / 5)
        }
    }
}
