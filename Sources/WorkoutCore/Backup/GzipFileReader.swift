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

/// Decompresses one gzip member (RFC 1952) from an open file, telling a truncated file and a
/// damaged one (bad data, or a CRC-32 or length in the trailer that does not match) apart from
/// the end of the stream.
///
/// Owns its `z_stream` from `inflateInit2` to `inflateEnd` (``close()``); `deinit` only asserts
/// that it ran. The file descriptor stays the caller's.
final class GzipFileReader {
    private let stream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutableRawBufferPointer
    private let descriptor: Int32
    private let path: String
    private var closed = false
    /// Whether zlib has seen the end of the member and checked its trailer.
    private(set) var atEnd = false

    /// Starts reading a gzip member at the file's current offset.
    ///
    /// - Parameters:
    ///   - descriptor: a file open for reading.
    ///   - path: the file's name, for errors.
    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        input = .allocate(byteCount: 256 << 10, alignment: 16)
        // zlib.h: "windowBits can also be greater than 15 for optional gzip decoding. Add 32 to
        // windowBits to enable zlib and gzip decoding with automatic header detection, or add 16
        // to decode only the gzip format". Only gzip is accepted.
        let status = czlib_inflateInit2(stream, 15 + 16)
        precondition(status == Z_OK, "inflateInit2 failed (\(status)): out of memory")
    }

    deinit {
        assert(closed, "GzipFileReader for \(path) was not closed")
        input.deallocate()
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Releases zlib's state. Wraps `inflateEnd`. Calling it again does nothing.
    func close() {
        guard !closed else { return }
        closed = true
        inflateEnd(stream)
    }

    /// Fills `buffer` as far as the stream goes. Wraps `read` and `inflate(Z_NO_FLUSH)`.
    ///
    /// - Returns: the bytes produced: `buffer.count`, or fewer only at the end of the member
    ///   (then ``atEnd`` is true and the trailer's CRC-32 and length have been checked).
    /// - Throws: ``StorageError`` `damagedBackup` when the file ends before the member does
    ///   ("truncated") or zlib finds bad data or a trailer that does not match ("damaged"),
    ///   `dataDirectory` when the file cannot be read.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty, !atEnd else { return 0 }
        stream.pointee.next_out = base.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(buffer.count)
        while stream.pointee.avail_out > 0 {
            if stream.pointee.avail_in == 0 {
                let count: Int
                do {
                    count = try readFromFile(descriptor, input.baseAddress!, input.count, path: path)
                } catch {
                    throw StorageError(.dataDirectory, "cannot read the archive \(path)", underlying: error)
                }
                if count == 0 {
                    throw StorageError(.damagedBackup, "\(path) is truncated: the file ends before the archive does")
                }
                stream.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_in = uInt(count)
            }
            let status = inflate(stream, Z_NO_FLUSH)
            switch status {
            case Z_STREAM_END:
                // zlib.h: with gzip decoding, inflate "checks that its computed CRC-32 and
                // length match the trailer" before it returns Z_STREAM_END.
                atEnd = true
                return buffer.count - Int(stream.pointee.avail_out)
            case Z_OK, Z_BUF_ERROR:
                continue  // more input is needed, or more room (the loop ends when it is full)
            case Z_DATA_ERROR, Z_NEED_DICT:
                let reason = stream.pointee.msg.map { String(cString: $0) } ?? "invalid compressed data"
                throw StorageError(.damagedBackup, "\(path) is damaged or was altered: \(reason)")
            default:
                throw StorageError(.damagedBackup, "\(path) cannot be decompressed (zlib status \(status))")
            }
        }
        return buffer.count
    }

    /// Reads exactly `count` bytes.
    ///
    /// - Throws: what ``read(into:)`` throws, and `damagedBackup` when the member ends first.
    func read(exactly count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = try bytes.withUnsafeMutableBytes { try read(into: $0) }
        guard got == count else {
            throw StorageError(.damagedBackup, "\(path) is truncated: the archive ends inside an entry")
        }
        return bytes
    }

    /// Reads to the end of the member, which must hold nothing but zero bytes (tar's end
    /// blocks and padding), so that zlib checks the trailer.
    ///
    /// - Throws: `damagedBackup` for anything else, or a truncated or damaged member.
    func readToEnd() throws {
        var scratch = [UInt8](repeating: 0, count: 64 << 10)
        while !atEnd {
            let count = try scratch.withUnsafeMutableBytes { try read(into: $0) }
            guard scratch.prefix(count).allSatisfy({ $0 == 0 }) else {
                throw StorageError(.damagedBackup, "\(path) holds more than one store: unexpected data after its end")
            }
        }
    }
}

/// `read(2)` through ``SystemCall``. (A free function: inside the reader, `read` names its own
/// method, not the system call.)
///
/// - Returns: the number of bytes read; 0 at the end of the file.
func readFromFile(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, path: String) throws(SystemCallError) -> Int {
    try SystemCall.retrying("read", subject: path) { read(descriptor, buffer, count) }
}
