import Foundation
import Storage
import Testing
import TestSupport

@Suite("Ordered keys")
struct OrderedKeyTests {
    @Test("Signed timestamps sort in numeric order across 1970, as bytes", arguments: [UInt64(1), 2, 3])
    func signedOrder(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        var values: [Int64] = [.min, -1, 0, 1, .max, -86_400_000, 1_700_000_000_000]
        for _ in 0..<2000 { values.append(Int64.random(in: .min ... .max, using: &generator)) }
        let byBytes = values.sorted { $0.orderedKey < $1.orderedKey }
        #expect(byBytes == values.sorted())
        for value in values { #expect(try Int64(decodingKey: value.orderedKey.bytes) == value) }
    }

    @Test("Tuples sort component by component, strings included")
    func tupleOrder() throws {
        var generator = SeededGenerator(seed: 42)
        let alphabet: [String] = ["", "a", "ab", "a\u{0}", "a\u{0}b", "b", "\u{0}", "é", "zz"]
        struct Tuple: Comparable {
            var name: String, time: Int64, count: UInt16
            static func < (l: Tuple, r: Tuple) -> Bool {
                if l.name != r.name { return Array(l.name.utf8).lexicographicallyPrecedes(Array(r.name.utf8)) }
                return (l.time, l.count) < (r.time, r.count)
            }
        }
        var tuples: [Tuple] = []
        for _ in 0..<3000 {
            tuples.append(Tuple(
                name: alphabet.randomElement(using: &generator)!,
                time: Int64.random(in: -5...5, using: &generator),
                count: UInt16.random(in: 0...3, using: &generator)))
        }
        func encode(_ tuple: Tuple) -> OrderedKey {
            var key = OrderedKey()
            key.append(tuple.name)
            key.append(tuple.time)
            key.append(tuple.count)
            return key
        }
        let byBytes = tuples.sorted { encode($0) < encode($1) }
        #expect(byBytes.map { encode($0) } == tuples.sorted().map { encode($0) })
        for tuple in tuples {
            let bytes = encode(tuple).bytes
            try bytes.withUnsafeBytes { raw throws in
                var reader = OrderedKeyReader(raw)
                let name = try reader.read(String.self)
                let time = try reader.read(Int64.self)
                let count = try reader.read(UInt16.self)
                let atEnd = reader.isAtEnd
                #expect(name == tuple.name && time == tuple.time && count == tuple.count && atEnd)
            }
        }
    }

    @Test("Strings are stored as their UTF-8 with 0x00 escaped, then 00 01: the bytes on disk")
    func stringBytes() {
        func encoded(_ string: String) -> [UInt8] {
            var key = OrderedKey()
            key.append(string)
            return key.bytes
        }
        #expect(encoded("") == [0x00, 0x01])
        #expect(encoded("a\u{0}b") == [0x61, 0x00, 0xFF, 0x62, 0x00, 0x01])
        let long = "member@example.org\u{0}\u{0}é"
        var expected: [UInt8] = Array("member@example.org".utf8) + [0x00, 0xFF, 0x00, 0xFF] + [0xC3, 0xA9]
        expected += [0x00, 0x01]
        #expect(encoded(long) == expected)
        #expect(encoded("anna@example.org") == Array("anna@example.org".utf8) + [0x00, 0x01])
    }

    @Test("Malformed keys are refused, not misread", arguments: [
        [UInt8](),
        [0x61, 0x00],
        [0x61, 0x00, 0x07],
        [0x61],
    ])
    func malformedString(bytes: [UInt8]) {
        let error = #expect(throws: StorageError.self) { _ = try String(decodingKey: bytes) }
        #expect(error?.code == .malformedKey)
    }

    @Test("Strings read back as written, with and without escaped NULs, and can be stepped over", arguments: [
        "", "a", "greek yogurt", "wholegrain chicken breast", "a\u{0}b", "\u{0}", "member@example.org\u{0}\u{0}é", "ü\u{0}",
    ])
    func stringRoundTrip(text: String) throws {
        var key = OrderedKey()
        key.append(text)
        key.append(text + "!")
        key.append(UInt32(9))
        try key.bytes.withUnsafeBytes { bytes in
            var reader = OrderedKeyReader(bytes)
            #expect(try reader.read(String.self) == text)
            try reader.skipString()
            #expect(try reader.read(UInt32.self) == 9 && reader.isAtEnd)
        }
    }

    @Test("Stepping over a malformed string is refused", arguments: [[UInt8](), [0x61, 0x00], [0x61, 0x00, 0x07], [0x61]])
    func malformedSkip(bytes: [UInt8]) {
        let error = #expect(throws: StorageError.self) {
            try bytes.withUnsafeBytes { raw in
                var reader = OrderedKeyReader(raw)
                try reader.skipString()
            }
        }
        #expect(error?.code == .malformedKey)
    }

    @Test("A key with bytes left over is refused")
    func leftoverBytes() {
        var key = OrderedKey()
        key.append(UInt32(7))
        key.append(UInt8(1))
        let error = #expect(throws: StorageError.self) { _ = try UInt32(decodingKey: key.bytes) }
        #expect(error?.code == .malformedKey)
    }

    @Test("A prefix range holds exactly the keys that start with the prefix")
    func prefixRange() {
        var prefix = OrderedKey()
        prefix.append(UInt32(0x0000_00FF))
        let range = KeyRange.prefix(prefix)
        #expect(range.contains(prefix.bytes))
        #expect(range.contains(prefix.bytes + [0xFF, 0xFF]))
        #expect(!range.contains([0, 0, 1, 0]))
        #expect(!range.contains([0, 0, 0, 0xFE, 0xFF]))
        #expect(KeyRange.prefix(OrderedKey(bytes: [0xFF, 0xFF])).upper == .unbounded)
    }
}
