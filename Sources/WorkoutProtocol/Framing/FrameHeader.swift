/// The fixed 16-byte header in front of every frame's payload.
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                     length (u32, payload bytes)               |  0
/// +---------------+---------------+-------------------------------+
/// |   type (u8)   |  flags (u8)   |      reserved (u16) = 0       |  4
/// +---------------+---------------+-------------------------------+
/// |                          call_id (u32)                        |  8
/// +---------------------------------------------------------------+
/// |      code (u32): method for REQUEST; status for RESPONSE,     | 12
/// |                 STREAM_END, GOAWAY; else 0                    |
/// +---------------------------------------------------------------+
/// |                 payload (length bytes) ...                    | 16
/// +---------------------------------------------------------------+
/// ```
///
/// All integers are big-endian. Encoding and decoding are plain loads and stores:
/// no allocation, no validation. ``validate(receivedBy:maxPayloadSize:)`` checks a
/// decoded header against the protocol's rules.
package struct FrameHeader: Hashable, Sendable {
    /// The size of the header on the wire.
    package static let size = 16

    /// The number of payload bytes that follow the header.
    package var length: UInt32
    /// The frame type.
    package var type: FrameType
    /// The flags.
    package var flags: FrameFlags
    /// The reserved field; zero in every valid frame.
    package var reserved: UInt16
    /// The call the frame belongs to; 0 for connection-level frames.
    package var callID: UInt32
    /// The method number (REQUEST), the status (RESPONSE, STREAM_END, GOAWAY), or 0.
    package var code: UInt32

    /// Makes a header.
    ///
    /// - Parameters:
    ///   - length: The payload length in bytes.
    ///   - type: The frame type.
    ///   - flags: The flags.
    ///   - reserved: The reserved field (0 unless a test wants a malformed header).
    ///   - callID: The call id.
    ///   - code: The method number or status.
    package init(
        length: UInt32,
        type: FrameType,
        flags: FrameFlags = [],
        reserved: UInt16 = 0,
        callID: UInt32,
        code: UInt32 = 0
    ) {
        self.length = length
        self.type = type
        self.flags = flags
        self.reserved = reserved
        self.callID = callID
        self.code = code
    }

    /// The first 8 bytes as one big-endian word.
    @inline(__always)
    private var firstWord: UInt64 {
        UInt64(length) << 32 | UInt64(type.rawValue) << 24 | UInt64(flags.rawValue) << 16
            | UInt64(reserved)
    }

    /// The last 8 bytes as one big-endian word.
    @inline(__always)
    private var secondWord: UInt64 {
        UInt64(callID) << 32 | UInt64(code)
    }

    /// Appends the 16 header bytes to a buffer (no allocation when the buffer has capacity).
    ///
    /// - Parameter buffer: The buffer to append to.
    package func encode(into buffer: inout [UInt8]) {
        var words = (firstWord.bigEndian, secondWord.bigEndian)
        withUnsafeBytes(of: &words) { buffer.append(contentsOf: $0) }
    }

    /// Writes the 16 header bytes at the start of a buffer.
    ///
    /// - Parameter destination: At least ``size`` writable bytes; fewer is a programmer error.
    package func encode(to destination: UnsafeMutableRawBufferPointer) {
        precondition(destination.count >= Self.size, "a frame header needs 16 bytes")
        destination.storeBytes(of: firstWord.bigEndian, toByteOffset: 0, as: UInt64.self)
        destination.storeBytes(of: secondWord.bigEndian, toByteOffset: 8, as: UInt64.self)
    }

    /// Reads a header from the start of a buffer, without validating it.
    ///
    /// - Parameter source: The received bytes.
    /// - Returns: The header, or `nil` when fewer than ``size`` bytes are there.
    package static func decode(from source: UnsafeRawBufferPointer) -> FrameHeader? {
        guard source.count >= size else { return nil }
        let first = UInt64(bigEndian: source.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        let second = UInt64(bigEndian: source.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        return FrameHeader(
            length: UInt32(truncatingIfNeeded: first >> 32),
            type: FrameType(rawValue: UInt8(truncatingIfNeeded: first >> 24)),
            flags: FrameFlags(rawValue: UInt8(truncatingIfNeeded: first >> 16)),
            reserved: UInt16(truncatingIfNeeded: first),
            callID: UInt32(truncatingIfNeeded: second >> 32),
            code: UInt32(truncatingIfNeeded: second)
        )
    }
}
