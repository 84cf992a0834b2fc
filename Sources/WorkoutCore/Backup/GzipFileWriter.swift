import SystemCalls
internal import CZlib
import Storage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Compresses a stream of bytes into an open file as one gzip member (RFC 1952), so `zcat`
/// and `tar -xzf` read it.
///
/// Owns its `z_stream` from `deflateInit2` to `deflateEnd` (``finish()`` or ``abandon()``);
/// `deinit` only asserts that one of them ran. The file descriptor stays the caller's.
final class GzipFileWriter {
    private let stream: UnsafeMutablePointer<z_stream>
    private let output: UnsafeMutableRawBufferPointer
    private let descriptor: Int32
    private let path: String
    private var ended = false

    /// Starts a gzip member.
    ///
    /// - Parameters:
    ///   - descriptor: a file open for writing; written at its current offset.
    ///   - path: the file's name, for errors.
    ///   - level: zlib's compression level, 1 (fast) to 9 (small).
    init(descriptor: Int32, path: String, level: Int32) {
        self.descriptor = descriptor
        self.path = path
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        output = .allocate(byteCount: 256 << 10, alignment: 16)
        // zlib.h: windowBits "can also be greater than 15 for optional gzip encoding. Add 16 to
        // windowBits to write a simple gzip header and trailer around the compressed data".
        // deflateInit2 fails only for invalid parameters (constant here) or out of memory.
        let status = czlib_deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY)
        precondition(status == Z_OK, "deflateInit2 failed (\(status)): out of memory")
    }

    deinit {
        assert(ended, "GzipFileWriter for \(path) was neither finished nor abandoned")
        output.deallocate()
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Compresses `bytes` and writes what zlib hands back. Wraps `deflate(Z_NO_FLUSH)` and `write`.
    ///
    /// - Throws: ``SystemCallError`` when the file cannot be written.
    func write(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(bytes.count)
        // zlib.h: deflate with Z_NO_FLUSH "processes as much input as possible" while there is
        // output space; loop until it has taken all of it.
        while stream.pointee.avail_in > 0 {
            try run(Z_NO_FLUSH)
        }
    }

    /// Writes `bytes`; see ``write(_:)-(UnsafeRawBufferPointer)``.
    func write(_ bytes: [UInt8]) throws(SystemCallError) {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(SystemCallError) in try write(buffer) }
        }.get()
    }

    /// Ends the member (the gzip trailer: CRC-32 and length) and releases zlib's state.
    /// Wraps `deflate(Z_FINISH)` and `deflateEnd`.
    ///
    /// - Throws: ``SystemCallError`` when the file cannot be written; zlib's state is released anyway.
    func finish() throws(SystemCallError) {
        precondition(!ended, "GzipFileWriter finished twice")
        defer { abandon() }
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        // zlib.h: "If deflate returns with avail_out == 0, this function must be called again
        // with Z_FINISH ... until it returns with Z_STREAM_END".
        while try run(Z_FINISH) != Z_STREAM_END {}
    }

    /// Releases zlib's state without finishing (after an error). Calling it again does nothing.
    func abandon() {
        guard !ended else { return }
        ended = true
        deflateEnd(stream)
    }

    /// One `deflate` call into the output buffer, then writes what it produced.
    @discardableResult
    private func run(_ flush: Int32) throws(SystemCallError) -> Int32 {
        stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(output.count)
        let status = deflate(stream, flush)
        // Z_BUF_ERROR only means no progress was possible this call, which the loop handles;
        // Z_STREAM_ERROR would be a programming error (a corrupted stream state).
        precondition(status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR, "deflate failed (\(status))")
        let produced = output.count - Int(stream.pointee.avail_out)
        var written = 0
        while written < produced {
            let base = output.baseAddress! + written
            let remaining = produced - written
            written += try writeToFile(descriptor, base, remaining, path: path)
        }
        return status
    }
}

/// `write(2)` through ``SystemCall``. (A free function: inside the writer, `write` names its
/// own method, not the system call.)
///
/// - Returns: the number of bytes written.
func writeToFile(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int, path: String) throws(SystemCallError) -> Int {
    try SystemCall.retrying("write", subject: path) { write(descriptor, bytes, count) }
}
