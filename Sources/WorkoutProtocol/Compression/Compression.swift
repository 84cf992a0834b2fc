internal import CZlib

/// Body compression through the system zlib: zlib streams (RFC 1950) for the binary
/// protocol's frames, gzip (RFC 1952) for the HTTP face's bodies (`Content-Encoding: gzip`,
/// Connect's envelopes).
///
/// Deflate uses level 6, windowBits 15, memLevel 8 and the default strategy, so a body
/// compresses to exactly the bytes Python's `zlib.compress(body, 6)` gives with the
/// same zlib version. Inflate never produces (or allocates) more than the caller's cap,
/// and stops as soon as one more byte would pass it.
///
/// Each call owns its `z_stream` from `*Init2` to `*End`; no handle outlives a call.
package enum Compression {
    /// Bodies shorter than this are never compressed.
    package static let minimumBodySize = 1_024

    /// The container around the deflate data.
    package enum Format: Sendable, Hashable {
        /// RFC 1950: the binary protocol's compressed frames.
        case zlib
        /// RFC 1952: HTTP's `gzip` content coding.
        case gzip

        /// zlib's `windowBits` for the format: 15, plus 16 for gzip's header and trailer.
        var windowBits: Int32 { self == .zlib ? 15 : 31 }

        /// The format's name in messages.
        var name: String { self == .zlib ? "zlib" : "gzip" }
    }

    /// Compresses a body into a caller's buffer, only if the result fits in it.
    ///
    /// A sender passes a buffer one byte shorter than the body, so the compressed form
    /// is used only when it is smaller. Wraps `deflateInit2`, `deflate(Z_FINISH)`, `deflateEnd`.
    ///
    /// - Parameters:
    ///   - input: The body.
    ///   - output: Where to write the zlib stream.
    /// - Returns: The number of bytes written, or `nil` when the stream does not fit in `output`.
    package static func deflate(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, format: Format = .zlib) -> Int? {
        precondition(input.count <= Int(UInt32.max) && output.count <= Int(UInt32.max), "body too large for zlib")
        guard let outputBase = output.baseAddress, output.count > 0 else { return nil }
        var stream = z_stream()
        // zlib.h: "deflateInit2 returns Z_OK if success, Z_MEM_ERROR if there was not enough
        // memory, Z_STREAM_ERROR if any parameter is invalid". The parameters are constant.
        let initStatus = czlib_deflateInit2(&stream, 6, Z_DEFLATED, format.windowBits, 8, Z_DEFAULT_STRATEGY)
        precondition(initStatus == Z_OK, "deflateInit2 failed (\(initStatus)): out of memory")
        defer { CZlib.deflateEnd(&stream) }
        var empty: UInt8 = 0
        let inputBase = input.baseAddress ?? UnsafeRawPointer(withUnsafeMutablePointer(to: &empty) { $0 })
        stream.next_in = UnsafeMutablePointer(mutating: inputBase.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        stream.next_out = outputBase.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = uInt(output.count)
        // zlib.h: "If the parameter flush is set to Z_FINISH, pending input is processed,
        // pending output is flushed and deflate returns with Z_STREAM_END if there was
        // enough output space." Anything else means the output did not fit.
        let status = CZlib.deflate(&stream, Z_FINISH)
        guard status == Z_STREAM_END else { return nil }
        return output.count - Int(stream.avail_out)
    }

    /// Compresses a body completely.
    ///
    /// - Parameters:
    ///   - input: The body.
    ///   - format: zlib (the default) or gzip.
    /// - Returns: The compressed stream.
    package static func deflate(_ input: [UInt8], format: Format = .zlib) -> [UInt8] {
        // zlib's deflateBound for these parameters, plus room for the header and trailer.
        let bound = input.count + input.count / 1_000 + 64 + (input.count >> 12) + (input.count >> 14)
        var output = [UInt8](repeating: 0, count: bound)
        let written = input.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                deflate(source, into: destination, format: format)
            }
        }
        guard let written else { preconditionFailure("deflate output exceeded deflateBound") }
        output.removeLast(bound - written)
        return output
    }

    /// Inflates a zlib (or gzip) stream under a hard cap.
    ///
    /// The output buffer starts small and doubles, never past `maxSize`; the moment one
    /// more byte would pass the cap, inflating stops. Wraps `inflateInit2`, `inflate`, `inflateEnd`.
    ///
    /// - Parameters:
    ///   - input: The stream, exactly (trailing bytes are an error).
    ///   - maxSize: The largest inflated size accepted.
    ///   - format: zlib (the default) or gzip.
    /// - Returns: The inflated body.
    /// - Throws: ``ProtocolError`` `.decompressedTooLarge` (RESOURCE_EXHAUSTED) past the cap;
    ///   `.malformedCompressedBody` (INVALID_ARGUMENT) for garbage, a truncated stream,
    ///   trailing bytes or a preset dictionary.
    package static func inflate(_ input: UnsafeRawBufferPointer, maxSize: Int, format: Format = .zlib) throws(ProtocolError) -> [UInt8] {
        precondition(maxSize >= 0 && input.count <= Int(UInt32.max), "invalid inflate arguments")
        var stream = z_stream()
        let initStatus = czlib_inflateInit2(&stream, format.windowBits)
        precondition(initStatus == Z_OK, "inflateInit2 failed (\(initStatus)): out of memory")
        defer { CZlib.inflateEnd(&stream) }

        var empty: UInt8 = 0
        let inputBase = input.baseAddress ?? UnsafeRawPointer(withUnsafeMutablePointer(to: &empty) { $0 })
        stream.next_in = UnsafeMutablePointer(mutating: inputBase.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)

        var output = [UInt8](repeating: 0, count: min(maxSize, max(1_024, input.count &* 4)))
        var produced = 0
        while true {
            let status: Int32
            if produced < output.count {
                status = output.withUnsafeMutableBytes { buffer in
                    stream.next_out = buffer.baseAddress!.advanced(by: produced).assumingMemoryBound(to: Bytef.self)
                    stream.avail_out = uInt(buffer.count - produced)
                    let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    produced = buffer.count - Int(stream.avail_out)
                    return status
                }
            } else {
                // The buffer is at the cap: probe with one scratch byte whether the stream
                // has more to give.
                var scratch: UInt8 = 0
                status = withUnsafeMutablePointer(to: &scratch) { pointer in
                    stream.next_out = pointer
                    stream.avail_out = 1
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                if stream.avail_out == 0 {
                    throw ProtocolError(
                        .decompressedTooLarge,
                        "compressed body inflates to more than the limit of \(maxSize) bytes")
                }
            }
            switch status {
            case Z_STREAM_END:
                if stream.avail_in != 0 {
                    throw ProtocolError(
                        .malformedCompressedBody, "\(stream.avail_in) trailing bytes after the \(format.name) stream")
                }
                output.removeLast(output.count - produced)
                return output
            case Z_OK, Z_BUF_ERROR:
                if produced == output.count && output.count < maxSize {
                    let grown = output.count > maxSize / 2 ? maxSize : output.count * 2
                    output.append(contentsOf: repeatElement(0, count: grown - output.count))
                } else if status == Z_BUF_ERROR || (stream.avail_in == 0 && produced < output.count) {
                    // zlib.h: Z_BUF_ERROR "if no progress was possible". With room to write,
                    // that means no input is left; so does Z_OK with all input consumed and
                    // room to spare: the stream ended early.
                    throw ProtocolError(.malformedCompressedBody, "truncated \(format.name) stream")
                }
            case Z_NEED_DICT:
                throw ProtocolError(.malformedCompressedBody, "\(format.name) stream asks for a preset dictionary")
            case Z_DATA_ERROR:
                let reason = stream.msg.map { String(cString: $0) } ?? "invalid data"
                throw ProtocolError(.malformedCompressedBody, "malformed \(format.name) stream: \(reason)")
            default:
                throw ProtocolError(.malformedCompressedBody, "zlib inflate failed with status \(status)")
            }
        }
    }

    /// Inflates a stream under a hard cap; see the pointer variant.
    ///
    /// - Parameters:
    ///   - input: The stream.
    ///   - maxSize: The largest inflated size accepted.
    ///   - format: zlib (the default) or gzip.
    /// - Returns: The inflated body.
    /// - Throws: ``ProtocolError`` as the pointer variant does.
    package static func inflate(_ input: [UInt8], maxSize: Int, format: Format = .zlib) throws(ProtocolError) -> [UInt8] {
        try input.withUnsafeBytes { buffer in
            Result { () throws(ProtocolError) -> [UInt8] in try inflate(buffer, maxSize: maxSize, format: format) }
        }.get()
    }
}
