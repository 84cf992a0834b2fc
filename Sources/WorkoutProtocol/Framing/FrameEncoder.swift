/// Writes outgoing frames into one contiguous batch buffer, compressing bodies where it
/// pays, under the peer's limits.
///
/// A sender compresses a body only when all hold: the peer accepts compression, the
/// frame type allows it, the body is at least ``Compression/minimumBodySize`` bytes and
/// no larger than the peer's decompression cap, and the zlib stream is smaller than the
/// body. The stream is deflated straight into the batch buffer, so no temporary copy
/// is made; the header is written last, once the length is known.
package struct FrameEncoder: Sendable {
    /// The peer's payload limit (from its HELLO); a larger frame is refused.
    package var maxFrameSize: Int
    /// Whether the peer accepts COMPRESSED frames.
    package var compressionEnabled: Bool
    /// The peer's cap on an inflated body; larger bodies are sent uncompressed.
    package var maxDecompressedSize: Int

    /// Makes an encoder.
    ///
    /// - Parameters:
    ///   - maxFrameSize: The peer's payload limit; the pre-hello limit until its HELLO is read.
    ///   - compressionEnabled: Whether the peer accepts compression.
    ///   - maxDecompressedSize: The peer's inflate cap; `nil` means `maxFrameSize`.
    package init(
        maxFrameSize: Int = Handshake.preHelloMaxFrameSize,
        compressionEnabled: Bool = false,
        maxDecompressedSize: Int? = nil
    ) {
        precondition(maxFrameSize >= 0 && maxFrameSize <= Int(UInt32.max), "invalid max frame size")
        self.maxFrameSize = maxFrameSize
        self.compressionEnabled = compressionEnabled
        self.maxDecompressedSize = maxDecompressedSize ?? maxFrameSize
    }

    /// Appends one frame to an outgoing batch.
    ///
    /// - Parameters:
    ///   - type: The frame type.
    ///   - callID: The call id.
    ///   - code: The method number or status.
    ///   - deadline: The timeout in milliseconds (REQUEST only).
    ///   - body: The uncompressed message bytes.
    ///   - buffer: The batch; on a throw it is left as it was.
    /// - Throws: ``ProtocolError`` `.messageTooLarge` (RESOURCE_EXHAUSTED) when the
    ///   payload, compressed or not, is over ``maxFrameSize``.
    package func append(
        _ type: FrameType,
        callID: UInt32,
        code: UInt32 = 0,
        deadline: UInt32? = nil,
        body: UnsafeRawBufferPointer,
        to buffer: inout [UInt8]
    ) throws(ProtocolError) {
        precondition(deadline == nil || type == .request, "only a REQUEST carries a deadline")
        let start = buffer.count
        let prefix = deadline == nil ? 0 : 4
        let headerAndPrefix = FrameHeader.size + prefix

        var flags: FrameFlags = deadline == nil ? [] : .deadline
        var bodyLength = body.count
        if compressionEnabled && type.allowsCompression && body.count >= Compression.minimumBodySize
            && body.count <= maxDecompressedSize
        {
            // Room for header, deadline and a stream one byte shorter than the body.
            buffer.append(contentsOf: repeatElement(0, count: headerAndPrefix + body.count - 1))
            let written = buffer.withUnsafeMutableBytes { destination in
                Compression.deflate(body, into: UnsafeMutableRawBufferPointer(rebasing: destination[(start + headerAndPrefix)...]))
            }
            if let written {
                flags.insert(.compressed)
                bodyLength = written
                buffer.removeLast(body.count - 1 - written)
            } else {
                buffer.removeLast(buffer.count - start)
            }
        }
        let payloadLength = prefix + bodyLength
        guard payloadLength <= maxFrameSize else {
            buffer.removeLast(buffer.count - start)
            throw ProtocolError(
                .messageTooLarge,
                "\(type) payload of \(payloadLength) bytes exceeds the peer's limit of \(maxFrameSize) bytes")
        }
        let header = FrameHeader(
            length: UInt32(payloadLength), type: type, flags: flags, callID: callID, code: code)
        if flags.contains(.compressed) {
            buffer.withUnsafeMutableBytes { destination in
                let slot = UnsafeMutableRawBufferPointer(rebasing: destination[start...])
                header.encode(to: slot)
                if let deadline {
                    slot.storeBytes(of: deadline.bigEndian, toByteOffset: FrameHeader.size, as: UInt32.self)
                }
            }
        } else {
            buffer.reserveCapacity(start + headerAndPrefix + bodyLength)
            header.encode(into: &buffer)
            if let deadline {
                withUnsafeBytes(of: deadline.bigEndian) { buffer.append(contentsOf: $0) }
            }
            buffer.append(contentsOf: body)
        }
    }

    /// Appends one frame to an outgoing batch; see ``append(_:callID:code:deadline:body:to:)-(_,_,_,_,UnsafeRawBufferPointer,_)``.
    ///
    /// - Parameters:
    ///   - type: The frame type.
    ///   - callID: The call id.
    ///   - code: The method number or status.
    ///   - deadline: The timeout in milliseconds (REQUEST only).
    ///   - body: The uncompressed message bytes.
    ///   - buffer: The batch.
    /// - Throws: ``ProtocolError`` `.messageTooLarge`.
    package func append(
        _ type: FrameType,
        callID: UInt32,
        code: UInt32 = 0,
        deadline: UInt32? = nil,
        body: [UInt8],
        to buffer: inout [UInt8]
    ) throws(ProtocolError) {
        try body.withUnsafeBytes { bytes in
            Result { () throws(ProtocolError) in
                try append(type, callID: callID, code: code, deadline: deadline, body: bytes, to: &buffer)
            }
        }.get()
    }
}
