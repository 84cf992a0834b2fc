/// Just enough of protobuf's binary wire format to splice stored messages into a reply
/// without decoding them: appending a length-delimited field, and finding one in a message.
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

    /// The payload of the last occurrence of length-delimited field `number` in `message`
    /// (protobuf's "last one wins" for a singular field), or `nil` when absent or when the
    /// bytes are not a well-formed message.
    static func lengthDelimitedField(_ number: Int, in message: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        var offset = 0
        var found: UnsafeRawBufferPointer?
        while offset < message.count {
            guard let key = readVarint(message, &offset) else { return nil }
            let fieldNumber = Int(key >> 3)
            switch key & 7 {
            case 0:
                guard readVarint(message, &offset) != nil else { return nil }
            case 1:
                offset += 8
            case 2:
                guard let length = readVarint(message, &offset), length <= UInt64(message.count - offset) else { return nil }
                let end = offset + Int(length)
                if fieldNumber == number { found = UnsafeRawBufferPointer(rebasing: message[offset..<end]) }
                offset = end
            case 5:
                offset += 4
            default:
                return nil  // groups (3, 4) and reserved types do not occur in our messages
            }
            guard offset <= message.count else { return nil }
        }
        return found
    }

    /// The value of the last occurrence of varint field `number` (wire type 0) in `message`,
    /// or `nil` when absent or when the bytes are not a well-formed message.
    static func varintField(_ number: Int, in message: UnsafeRawBufferPointer) -> UInt64? {
        var offset = 0
        var found: UInt64?
        while offset < message.count {
            guard let key = readVarint(message, &offset) else { return nil }
            switch key & 7 {
            case 0:
                guard let value = readVarint(message, &offset) else { return nil }
                if Int(key >> 3) == number { found = value }
            case 1:
                offset += 8
            case 2:
                guard let length = readVarint(message, &offset), length <= UInt64(message.count - offset) else { return nil }
                offset += Int(length)
            case 5:
                offset += 4
            default:
                return nil
            }
            guard offset <= message.count else { return nil }
        }
        return found
    }

    /// Whether `message` parses as a sequence of well-formed fields (without checking what
    /// they hold).
    static func isWellFormed(_ message: UnsafeRawBufferPointer) -> Bool {
        forEachFixed64Field(in: message) { _, _ in }
    }

    /// Calls `body` with the number and value of every 64-bit field (wire type 1: double,
    /// fixed64) of `message`, in wire order, skipping fields of other types.
    ///
    /// - Returns: `false` when the bytes are not a well-formed message (`body` may have been
    ///   called for the fields before the fault).
    static func forEachFixed64Field(in message: UnsafeRawBufferPointer, _ body: (_ number: Int, _ bits: UInt64) -> Void) -> Bool {
        var offset = 0
        while offset < message.count {
            guard let key = readVarint(message, &offset) else { return false }
            switch key & 7 {
            case 0:
                guard readVarint(message, &offset) != nil else { return false }
            case 1:
                guard message.count - offset >= 8 else { return false }
                body(Int(key >> 3), UInt64(littleEndian: message.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
                offset += 8
            case 2:
                guard let length = readVarint(message, &offset), length <= UInt64(message.count - offset) else { return false }
                offset += Int(length)
            case 5:
                guard message.count - offset >= 4 else { return false }
                offset += 4
            default:
                return false
            }
        }
        return true
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
