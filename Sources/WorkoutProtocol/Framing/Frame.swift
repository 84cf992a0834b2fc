/// One frame: its header fields, the deadline when the frame has one, and its body.
///
/// The payload on the wire is the optional deadline followed by the body:
///
/// ```
/// REQUEST with DEADLINE (flags & 0x02):
/// +----------------------+------------------------+-----------------------------+
/// | header (16 bytes)    | timeout_ms (u32, BE)   | body (zlib if COMPRESSED)   |
/// +----------------------+------------------------+-----------------------------+
///                        |<------------------ length ------------------------>|
///
/// every other frame:
/// +----------------------+------------------------------------------------------+
/// | header (16 bytes)    | body (zlib stream if COMPRESSED)                     |
/// +----------------------+------------------------------------------------------+
/// ```
///
/// ``body`` is kept as it was on the wire: when ``isCompressed`` is set it is still a
/// zlib stream, and ``decodedBody(maxDecompressedSize:)`` inflates it under a cap. The
/// flags byte is derived from ``isCompressed`` and ``deadline``, so the two can never
/// disagree.
package struct Frame: Hashable, Sendable {
    /// The frame type.
    package var type: FrameType
    /// The call id; 0 on connection-level frames.
    package var callID: UInt32
    /// The method number (REQUEST), the status (RESPONSE, STREAM_END, GOAWAY), or 0.
    package var code: UInt32
    /// The call's timeout in milliseconds (REQUEST only); `nil` when the DEADLINE flag is clear.
    package var deadline: UInt32?
    /// Whether ``body`` is a zlib stream.
    package var isCompressed: Bool
    /// The body as on the wire (after the deadline).
    package var body: [UInt8]

    /// Makes a frame.
    ///
    /// - Parameters:
    ///   - type: The frame type.
    ///   - callID: The call id.
    ///   - code: The method number or status.
    ///   - deadline: The timeout in milliseconds, REQUEST only.
    ///   - isCompressed: Whether `body` is already a zlib stream.
    ///   - body: The body.
    package init(
        type: FrameType,
        callID: UInt32 = 0,
        code: UInt32 = 0,
        deadline: UInt32? = nil,
        isCompressed: Bool = false,
        body: [UInt8] = []
    ) {
        self.type = type
        self.callID = callID
        self.code = code
        self.deadline = deadline
        self.isCompressed = isCompressed
        self.body = body
    }

    /// The flags byte for this frame.
    package var flags: FrameFlags {
        var flags: FrameFlags = []
        if isCompressed { flags.insert(.compressed) }
        if deadline != nil { flags.insert(.deadline) }
        return flags
    }

    /// The payload length: the body plus 4 bytes when there is a deadline.
    package var payloadLength: Int {
        body.count + (deadline == nil ? 0 : 4)
    }

    /// The header this frame is sent with.
    package var header: FrameHeader {
        precondition(payloadLength <= Int(UInt32.max), "frame payload does not fit a u32 length")
        return FrameHeader(length: UInt32(payloadLength), type: type, flags: flags, callID: callID, code: code)
    }

    /// The header's code read as a status (RESPONSE, STREAM_END, GOAWAY).
    package var status: StatusCode {
        StatusCode(rawValue: code)
    }

    /// Appends the frame as it is (header, deadline, body; no compression decision) to
    /// a buffer. ``FrameEncoder`` is the sender's way, which also compresses and checks
    /// the peer's limit.
    ///
    /// - Parameter buffer: The outgoing batch.
    package func encode(into buffer: inout [UInt8]) {
        buffer.reserveCapacity(buffer.count + FrameHeader.size + payloadLength)
        header.encode(into: &buffer)
        if let deadline {
            withUnsafeBytes(of: deadline.bigEndian) { buffer.append(contentsOf: $0) }
        }
        buffer.append(contentsOf: body)
    }

    /// The body, inflated when it is compressed.
    ///
    /// - Parameter maxDecompressedSize: The cap on the inflated size.
    /// - Returns: The message bytes.
    /// - Throws: ``ProtocolError`` from ``Compression/inflate(_:maxSize:)-([UInt8],_)``.
    package func decodedBody(maxDecompressedSize: Int) throws(ProtocolError) -> [UInt8] {
        guard isCompressed else { return body }
        return try Compression.inflate(body, maxSize: maxDecompressedSize)
    }
}
