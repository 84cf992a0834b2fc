import SwiftProtobuf

/// Just enough of protobuf's binary wire format to splice stored messages into a reply
/// without decoding them (appending a length-delimited field), and to read a few fields of a
/// stored message on a hot path without decoding the rest (walking its fields).
///
/// A stored record is its wire message's own encoding (see `StoredMessage`), and a repeated
/// message field is each element's bytes after its tag and length, so a reply listing records
/// can be built by copying their stored bytes.
enum RawProtobuf {
    /// Appends field `number` as a length-delimited field (wire type 2) holding `bytes`.
    static func appendLengthDelimited(field number: Int, _ bytes: UnsafeRawBufferPointer, to buffer: inout [UInt8]) {
        appendVarint(UInt64(number << 3 | 2), to: &buffer)
        appendVarint(UInt64(bytes.count), to: &buffer)
        buffer.append(contentsOf: bytes)
    }

    /// Appends `message`, encoded, as length-delimited field `number` (a singular message field,
    /// or one element of a repeated one).
    static func appendMessage(field number: Int, _ message: some SwiftProtobuf.Message, to buffer: inout [UInt8]) throws {
        let bytes: [UInt8] = try message.serializedBytes()
        bytes.withUnsafeBytes { appendLengthDelimited(field: number, $0, to: &buffer) }
    }

    /// One field's value as the wire carries it.
    enum WireValue {
        /// Wire type 0: int32, int64, uint32, uint64, bool, enum (sint as zigzag).
        case varint(UInt64)
        /// Wire type 1: double, fixed64, sfixed64, as their bits.
        case fixed64(UInt64)
        /// Wire type 2: bytes, string, an embedded message, a packed repeated field.
        case lengthDelimited(UnsafeRawBufferPointer)
        /// Wire type 5: float, fixed32, sfixed32, as their bits.
        case fixed32(UInt32)
    }

    /// Calls `body` with the number and value of every field of `message`, in wire order.
    ///
    /// - Returns: `false` when the bytes are not a well-formed message (`body` may have been
    ///   called for the fields before the fault); groups (wire types 3 and 4) count as not
    ///   well-formed: they do not occur in our messages.
    static func forEachField(in message: UnsafeRawBufferPointer, _ body: (_ number: Int, _ value: WireValue) -> Void) -> Bool {
        var offset = 0
        while offset < message.count {
            guard let key = readVarint(message, &offset) else { return false }
            let number = Int(key >> 3)
            switch key & 7 {
            case 0:
                guard let value = readVarint(message, &offset) else { return false }
                body(number, .varint(value))
            case 1:
                guard message.count - offset >= 8 else { return false }
                body(number, .fixed64(UInt64(littleEndian: message.loadUnaligned(fromByteOffset: offset, as: UInt64.self))))
                offset += 8
            case 2:
                guard let length = readVarint(message, &offset), length <= UInt64(message.count - offset) else { return false }
                let end = offset + Int(length)
                body(number, .lengthDelimited(UnsafeRawBufferPointer(rebasing: message[offset..<end])))
                offset = end
            case 5:
                guard message.count - offset >= 4 else { return false }
                body(number, .fixed32(UInt32(littleEndian: message.loadUnaligned(fromByteOffset: offset, as: UInt32.self))))
                offset += 4
            default:
                return false
            }
        }
        return true
    }

    /// Whether `message` parses as a sequence of well-formed fields (without checking what
    /// they hold).
    static func isWellFormed(_ message: UnsafeRawBufferPointer) -> Bool {
        forEachField(in: message) { _, _ in }
    }

    /// The payload of the last occurrence of length-delimited field `number` in `message`
    /// (protobuf's "last one wins" for a singular field), or `nil` when absent or when the
    /// bytes are not a well-formed message.
    static func lengthDelimitedField(_ number: Int, in message: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        var found: UnsafeRawBufferPointer?
        let wellFormed = forEachField(in: message) { fieldNumber, value in
            if fieldNumber == number, case .lengthDelimited(let payload) = value { found = payload }
        }
        return wellFormed ? found : nil
    }

    /// The value of the last occurrence of varint field `number` in `message`, or `nil` when
    /// absent or when the bytes are not a well-formed message.
    static func varintField(_ number: Int, in message: UnsafeRawBufferPointer) -> UInt64? {
        var found: UInt64?
        let wellFormed = forEachField(in: message) { fieldNumber, value in
            if fieldNumber == number, case .varint(let varint) = value { found = varint }
        }
        return wellFormed ? found : nil
    }

    static func appendVarint(_ value: UInt64, to buffer: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            buffer.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        buffer.append(UInt8(value))
    }

    private static func readVarint(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count, shift < 64 {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }
}
