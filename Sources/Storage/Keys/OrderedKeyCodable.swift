package import Foundation

/// A value that can be a key, or a component of one, in an order-preserving encoding:
/// for any two values `a < b` exactly when `a`'s bytes sort before `b`'s.
///
/// Tuple keys are structs that append their components in order:
///
/// ```swift
/// struct UserTimeKey: OrderedKeyCodable {
///     var user: UUID; var time: Int64; var record: UUID
///     func encode(into key: inout OrderedKey) { key.append(user); key.append(time); key.append(record) }
///     init(reading reader: inout OrderedKeyReader) throws {
///         user = try reader.read(); time = try reader.read(); record = try reader.read()
///     }
/// }
/// ```
package protocol OrderedKeyCodable: Sendable {
    /// Appends this value's encoding to `key`.
    func encode(into key: inout OrderedKey)
    /// Reads a value back from its encoding.
    init(reading reader: inout OrderedKeyReader) throws
}

extension OrderedKeyCodable {
    /// The encoding of this value alone.
    package var orderedKey: OrderedKey {
        var key = OrderedKey()
        encode(into: &key)
        return key
    }

    /// Decodes a whole key, refusing leftover bytes.
    package init(decodingKey bytes: UnsafeRawBufferPointer) throws {
        var reader = OrderedKeyReader(bytes)
        self = try Self(reading: &reader)
        guard reader.isAtEnd else {
            throw StorageError(.malformedKey, "key of \(bytes.count) bytes has bytes left after a \(Self.self)")
        }
    }

    /// Decodes a whole key from an array.
    package init(decodingKey bytes: [UInt8]) throws {
        self = try bytes.withUnsafeBytes { try Self(decodingKey: $0) }
    }
}

extension UInt64: OrderedKeyCodable {
    package func encode(into key: inout OrderedKey) { key.append(self) }
    package init(reading reader: inout OrderedKeyReader) throws { self = try reader.read(UInt64.self) }
}

extension UInt32: OrderedKeyCodable {
    package func encode(into key: inout OrderedKey) { key.append(self) }
    package init(reading reader: inout OrderedKeyReader) throws { self = try reader.read(UInt32.self) }
}

extension UInt16: OrderedKeyCodable {
    package func encode(into key: inout OrderedKey) { key.append(self) }
    package init(reading reader: inout OrderedKeyReader) throws { self = try reader.read(UInt16.self) }
}

extension UInt8: OrderedKeyCodable {
    package func encode(into key: inout OrderedKey) { key.append(self) }
    package init(reading reader: inout OrderedKeyReader) throws { self = try reader.read(UInt8.self) }
}

extension Int64: OrderedKeyCodable {
    package func encode(into key: inout OrderedKey) { key.append(self) }
    package init(reading reader: inout OrderedKeyReader) throws { self = try reader.read(Int64.self) }
}

extension Int32: OrderedKeyCodable {
    package func encode(into key: inout OrderedKey) { key.append(self) }
    package init(reading reader: inout OrderedKeyReader) throws { self = try reader.read(Int32.self) }
}

extension UUID: OrderedKeyCodable {
    package func encode(into key: inout OrderedKey) { key.append(self) }
    package init(reading reader: inout OrderedKeyReader) throws { self = try reader.read(UUID.self) }
}

extension String: OrderedKeyCodable {
    package func encode(into key: inout OrderedKey) { key.append(self) }
    package init(reading reader: inout OrderedKeyReader) throws { self = try reader.read(String.self) }
}

/// An already encoded key is a key as it is: it takes the rest of the bytes when read.
extension OrderedKey: OrderedKeyCodable {
    package func encode(into key: inout OrderedKey) { key.append(raw: bytes) }
    package init(reading reader: inout OrderedKeyReader) throws { self.init(bytes: reader.readRemaining()) }
}
