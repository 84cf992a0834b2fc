package import SwiftProtobuf

/// A request body encoded once, whose record id and timestamp are patched in place for each
/// request: no message is built and no protobuf encoded in the hot path.
///
/// The template is the message encoded with sentinel values: ``idSentinel`` as its record id
/// (a `bytes` field, 16 bytes in the encoding) and ``timeSentinel`` as its timestamp (an
/// `int64` field, a varint). Finding those byte runs gives their offsets. Every timestamp from
/// 2^35 to 2^42 − 1 ms (1971 to 2109) is a 6-byte varint, like the sentinel, so any real
/// timestamp fits the same 6 bytes and the message keeps its length.
package struct RequestTemplate: Sendable {
    /// The method the body is for.
    package let method: UInt32
    /// The body, with the current id and time.
    package private(set) var bytes: [UInt8]
    /// Where the 16 id bytes are, if the message has an id.
    package let idOffset: Int?
    /// Where the 6 varint bytes of the time are, if the message has a time.
    package let timeOffset: Int?

    /// The id the template is encoded with; must not occur in the rest of the message.
    package static let idSentinel: [UInt8] = Array("wkbench-id-slot!".utf8)
    /// The time the template is encoded with (2^41 + 12345, a 6-byte varint).
    package static let timeSentinel: Int64 = (1 << 41) + 12_345
    /// The timestamps a 6-byte varint holds.
    package static let timeRange: ClosedRange<Int64> = (1 << 35)...((1 << 42) - 1)

    /// A failure to build a template: the sentinel is missing or appears twice.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Encodes `message` (built with ``idSentinel`` and/or ``timeSentinel`` where the
    /// per-request values go) and finds the slots.
    ///
    /// - Parameters:
    ///   - method: The method number.
    ///   - message: The message with sentinels.
    ///   - hasID: Whether the message carries ``idSentinel``.
    ///   - hasTime: Whether it carries ``timeSentinel``.
    /// - Throws: ``Failure`` when a sentinel is not found exactly once; protobuf's errors.
    package init(method: UInt32, message: some SwiftProtobuf.Message, hasID: Bool, hasTime: Bool) throws {
        self.method = method
        bytes = try message.serializedBytes()
        idOffset = hasID ? try Self.find(Self.idSentinel, in: bytes, what: "record id") : nil
        timeOffset = hasTime ? try Self.find(Self.varint(UInt64(Self.timeSentinel)), in: bytes, what: "timestamp") : nil
    }

    /// A template without slots: the same body every time.
    package init(method: UInt32, message: some SwiftProtobuf.Message) throws {
        try self.init(method: method, message: message, hasID: false, hasTime: false)
    }

    /// Puts a fresh id (from `ids`, stamped `milliseconds`) and `milliseconds` as the time
    /// into the body.
    ///
    /// - Precondition: `milliseconds` is within ``timeRange``.
    @inline(__always)
    package mutating func stamp(milliseconds: Int64, ids: inout TimeOrderedIDGenerator) {
        let idOffset = idOffset
        let timeOffset = timeOffset
        bytes.withUnsafeMutableBytes { body in
            if let idOffset {
                ids.write(milliseconds: UInt64(milliseconds), to: body.baseAddress! + idOffset)
            }
            if let timeOffset {
                Self.writeSixByteVarint(UInt64(milliseconds), to: body.baseAddress! + timeOffset)
            }
        }
    }

    /// Writes `value` (2^35 ≤ value < 2^42) as exactly 6 varint bytes.
    @inline(__always)
    static func writeSixByteVarint(_ value: UInt64, to destination: UnsafeMutableRawPointer) {
        precondition(value >= 1 << 35 && value < 1 << 42, "the time does not fit 6 varint bytes")
        var rest = value
        for index in 0..<5 {
            destination.storeBytes(of: UInt8(truncatingIfNeeded: rest & 0x7F) | 0x80, toByteOffset: index, as: UInt8.self)
            rest >>= 7
        }
        destination.storeBytes(of: UInt8(truncatingIfNeeded: rest), toByteOffset: 5, as: UInt8.self)
    }

    /// The varint encoding of `value`.
    static func varint(_ value: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
        return bytes
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], what: String) throws -> Int {
        var found: [Int] = []
        if haystack.count >= needle.count {
            for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
                found.append(start)
            }
        }
        guard found.count == 1 else {
            throw Failure(description: "the request template's \(what) sentinel occurs \(found.count) times (needs exactly 1)")
        }
        return found[0]
    }
}
