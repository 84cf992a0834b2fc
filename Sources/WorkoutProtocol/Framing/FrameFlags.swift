/// The `flags` byte of a frame header (offset 5).
///
/// Unknown bits are representable (so they can be reported); ``reserved`` names them.
package struct FrameFlags: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The byte on the wire.
    package let rawValue: UInt8

    /// Wraps a byte from the wire; every byte is accepted.
    ///
    /// - Parameter rawValue: The flags byte.
    package init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// 0x01: the message body is a zlib stream (RFC 1950). REQUEST, RESPONSE,
    /// STREAM_MESSAGE, STREAM_END and GOAWAY only.
    package static let compressed = FrameFlags(rawValue: 0x01)
    /// 0x02: the payload starts with a `u32 timeout_ms`, never compressed. REQUEST only.
    package static let deadline = FrameFlags(rawValue: 0x02)

    /// The bits the protocol defines.
    package static let defined: FrameFlags = [.compressed, .deadline]

    /// The bits that are set but not defined (must be empty).
    package var reserved: FrameFlags {
        subtracting(.defined)
    }

    /// `"COMPRESSED|DEADLINE"`, `"none"`, or the hex byte for reserved bits: `"COMPRESSED|0x80"`.
    package var description: String {
        var parts: [String] = []
        if contains(.compressed) { parts.append("COMPRESSED") }
        if contains(.deadline) { parts.append("DEADLINE") }
        if !reserved.isEmpty { parts.append("0x" + hex(reserved.rawValue)) }
        return parts.isEmpty ? "none" : parts.joined(separator: "|")
    }
}
