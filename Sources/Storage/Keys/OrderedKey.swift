package import Foundation

/// A key under construction or taken apart: a tuple of components encoded so that comparing
/// the bytes (as LMDB does, with `memcmp`) compares the tuples component by component.
///
/// The encodings, each chosen so byte order is value order:
///
/// ```
/// UInt8/16/32/64   big-endian, fixed width
/// Int32/Int64      big-endian with the sign bit flipped (so -1 < 0 < 1, across 1970 for timestamps)
/// UUID             its 16 bytes
/// String           UTF-8, every 0x00 written as 00 FF, then the terminator 00 01
///                  (so "a" < "a\0" < "ab", and a string can be followed by more components)
/// ```
package struct OrderedKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The encoded bytes.
    package private(set) var bytes: [UInt8]

    /// Room a new key starts with: a member's id, a timestamp and a record's id (40 bytes) fit,
    /// so building a key costs one allocation, not one for each component that outgrows the
    /// last (a weigh-in builds about ten keys).
    static let initialCapacity = 48

    /// An empty key, to append components to.
    package init() {
        bytes = []
        bytes.reserveCapacity(Self.initialCapacity)
    }

    /// A key made of already encoded bytes.
    package init(bytes: [UInt8]) { self.bytes = bytes }

    /// Reserves room for `count` more bytes.
    package mutating func reserveCapacity(_ count: Int) { bytes.reserveCapacity(bytes.count + count) }

    /// Appends an unsigned integer, big-endian.
    package mutating func append<T: FixedWidthInteger & UnsignedInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends a signed 64-bit integer so that negative values sort before positive ones.
    package mutating func append(_ value: Int64) {
        append(UInt64(bitPattern: value) ^ (1 << 63))
    }

    /// Appends a signed 32-bit integer so that negative values sort before positive ones.
    package mutating func append(_ value: Int32) {
        append(UInt32(bitPattern: value) ^ (1 << 31))
    }

    /// Appends the 16 bytes of a UUID.
    package mutating func append(_ value: UUID) {
        withUnsafeBytes(of: value.uuid) { bytes.append(contentsOf: $0) }
    }

    /// Appends a string: UTF-8 with 0x00 escaped as `00 FF`, then the terminator `00 01`.
    package mutating func append(_ value: String) {
        // A string without 0x00 (nearly every one) is copied whole.
        let copied = value.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            guard !utf8.contains(0) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copied != true {
            for byte in value.utf8 {
                bytes.append(byte)
                if byte == 0 { bytes.append(0xFF) }
            }
        }
        bytes.append(0x00)
        bytes.append(0x01)
    }

    /// Appends raw bytes as they are (for a fixed-width component the caller encodes).
    package mutating func append(raw: some Sequence<UInt8>) {
        bytes.append(contentsOf: raw)
    }

    /// Appends a component that knows its own encoding.
    package mutating func append(_ component: some OrderedKeyCodable) {
        component.encode(into: &self)
    }

    /// The key made of this one followed by `component`.
    package func appending(_ component: some OrderedKeyCodable) -> OrderedKey {
        var copy = self
        copy.append(component)
        return copy
    }

    package static func < (lhs: OrderedKey, rhs: OrderedKey) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    package var description: String {
        bytes.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}

/// Reads the components of an encoded key back, in the order they were appended.
package struct OrderedKeyReader: ~Copyable {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    /// Reads `bytes`, which must outlive the reader.
    package init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// Whether every byte has been read.
    package var isAtEnd: Bool { offset == bytes.count }

    private func malformed(_ what: String) -> StorageError {
        StorageError(.malformedKey, "key of \(bytes.count) bytes ends before its \(what) at offset \(offset)")
    }

    /// Reads a big-endian unsigned integer.
    package mutating func read<T: FixedWidthInteger & UnsignedInteger>(_: T.Type = T.self) throws -> T {
        let size = MemoryLayout<T>.size
        guard bytes.count - offset >= size else { throw malformed(String(describing: T.self)) }
        var value: T = 0
        for index in offset..<(offset + size) {
            value = (value << 8) | T(bytes[index])
        }
        offset += size
        return value
    }

    /// Reads a signed 64-bit integer written by ``OrderedKey/append(_:)-(Int64)``.
    package mutating func read(_: Int64.Type = Int64.self) throws -> Int64 {
        Int64(bitPattern: try read(UInt64.self) ^ (1 << 63))
    }

    /// Reads a signed 32-bit integer.
    package mutating func read(_: Int32.Type = Int32.self) throws -> Int32 {
        Int32(bitPattern: try read(UInt32.self) ^ (1 << 31))
    }

    /// Reads a UUID's 16 bytes.
    package mutating func read(_: UUID.Type = UUID.self) throws -> UUID {
        guard bytes.count - offset >= 16 else { throw malformed("UUID") }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 16)]))
        }
        offset += 16
        return UUID(uuid: uuid)
    }

    /// Reads a string written by ``OrderedKey/append(_:)-(String)``.
    package mutating func read(_: String.Type = String.self) throws -> String {
        // Most strings hold no NUL: straight from the key's bytes to the string, without a
        // buffer between (and without any allocation for a string of up to 15 bytes).
        let start = offset
        while offset < bytes.count, bytes[offset] != 0 { offset += 1 }
        if bytes.count - offset >= 2, bytes[offset + 1] == 0x01 {
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
            offset += 2
            return text
        }
        offset = start
        var utf8: [UInt8] = []
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            guard byte == 0 else {
                utf8.append(byte)
                continue
            }
            guard offset < bytes.count else { throw malformed("string terminator") }
            let marker = bytes[offset]
            offset += 1
            switch marker {
            case 0x01: return String(decoding: utf8, as: UTF8.self)
            case 0xFF: utf8.append(0)
            default:
                throw StorageError(.malformedKey, "invalid string escape 00 \(marker) at offset \(offset - 1)")
            }
        }
        throw malformed("string terminator")
    }

    /// Steps over a string written by ``OrderedKey/append(_:)-(String)`` without building it.
    package mutating func skipString() throws {
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            guard byte == 0 else { continue }
            guard offset < bytes.count else { throw malformed("string terminator") }
            let marker = bytes[offset]
            offset += 1
            switch marker {
            case 0x01: return
            case 0xFF: continue
            default: throw StorageError(.malformedKey, "invalid string escape 00 \(marker) at offset \(offset - 1)")
            }
        }
        throw malformed("string terminator")
    }

    /// Reads a component that knows its own encoding.
    package mutating func read<T: OrderedKeyCodable>(_: T.Type = T.self) throws -> T {
        try T(reading: &self)
    }

    /// Reads the remaining bytes.
    package mutating func readRemaining() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }
}
