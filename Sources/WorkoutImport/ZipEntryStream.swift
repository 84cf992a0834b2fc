internal import CZlib
import Foundation
import WorkoutClient

/// One file inside a zip archive (the Health app's `export.zip`), inflated as it is read, as an
/// `InputStream`: what ``AppleHealthSource`` hands XMLParser for a zip, so a multi-GB export
/// is never written out or held whole.
///
/// The entry is found through the archive's central directory (zip64 included: exports over
/// 4 GB use it); its data is read from the local header on and inflated with zlib's raw
/// inflate (`inflateInit2` with -15 window bits: "raw deflate", APPNOTE 4.4.5 method 8), or
/// copied when stored (method 0). The counter counts the compressed bytes read, so progress
/// compares with the archive's size.
final class ZipEntryStream: InputStream {
    private let handle: FileHandle
    private let counter: ImportByteCounter
    private let method: UInt16
    private var remainingCompressed: UInt64
    private let stream: UnsafeMutablePointer<z_stream>
    private var input = Data()
    private var finished = false
    private var closedZlib = false
    /// The error that ended reading early, if any.
    private(set) var readError: (any Error)?

    /// Opens the first entry of `archive` whose name ends with `entrySuffix`.
    ///
    /// - Throws: ``ImportSourceError`` when the file is not a zip archive, has no such entry,
    ///   or compresses it with a method other than deflate or none.
    convenience init(archive path: String, entrySuffix: String, counter: ImportByteCounter) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ImportSourceError("cannot open \(path)") }
        let entry: ZipDirectory.Entry
        do {
            entry = try ZipDirectory.entry(in: handle, endingWith: entrySuffix, archive: path)
        } catch {
            try? handle.close()
            throw error
        }
        try self.init(archive: path, handle: handle, entry: entry, counter: counter)
    }

    /// Opens `entry` of the archive `handle` reads (the stream owns the handle, and closes it).
    ///
    /// - Throws: ``ImportSourceError`` when the entry's local header is damaged or it is
    ///   compressed with a method other than deflate or none.
    init(archive path: String, handle: FileHandle, entry: ZipDirectory.Entry, counter: ImportByteCounter) throws {
        self.handle = handle
        self.counter = counter
        do {
            try handle.seek(toOffset: entry.localHeaderOffset)
            guard let header = try handle.read(upToCount: 30), header.count == 30, header.littleEndian32(at: 0) == 0x0403_4B50 else {
                throw ImportSourceError("\(path): the local header of \(entry.name) is damaged")
            }
            try handle.seek(toOffset: entry.localHeaderOffset + 30 + UInt64(header.littleEndian16(at: 26)) + UInt64(header.littleEndian16(at: 28)))
        } catch {
            try? handle.close()
            throw error
        }
        guard entry.method == 0 || entry.method == 8 else {
            try? handle.close()
            throw ImportSourceError("\(path): \(entry.name) is compressed with method \(entry.method); only deflate and stored are read")
        }
        self.method = entry.method
        self.remainingCompressed = entry.compressedSize
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // zlib.h: "windowBits can also be -8..-15 for raw inflate ... inflate() will then
        // process raw deflate data, not looking for a zlib or gzip header".
        let status = czlib_inflateInit2(stream, -15)
        precondition(status == Z_OK, "inflateInit2 failed (\(status)): out of memory")
        super.init(data: Data())
    }

    deinit {
        endZlib()
        stream.deinitialize(count: 1)
        stream.deallocate()
        try? handle.close()
    }

    /// Releases zlib's state. Wraps `inflateEnd`.
    private func endZlib() {
        guard !closedZlib else { return }
        closedZlib = true
        inflateEnd(stream)
    }

    override func open() {}
    override func close() {}
    override var hasBytesAvailable: Bool { !finished }
    override var streamStatus: Stream.Status { finished ? .atEnd : .open }
    override var streamError: (any Error)? { readError }

    /// Reads the next compressed bytes of the entry, at most 64 KiB.
    private func nextInput() throws -> Data {
        guard remainingCompressed > 0 else { return Data() }
        let data = try handle.read(upToCount: Int(min(remainingCompressed, 64 << 10))) ?? Data()
        remainingCompressed -= UInt64(data.count)
        counter.add(data.count)
        if data.isEmpty { throw ImportSourceError("the archive ends inside the entry: it was cut off") }
        return data
    }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        guard !finished, length > 0 else { return 0 }
        do {
            if method == 0 {
                // A stored entry: hand the bytes on as they are, a buffer's worth at a time.
                if input.isEmpty { input = try nextInput() }
                if input.isEmpty { finished = true; return 0 }
                let count = min(length, input.count)
                input.copyBytes(to: buffer, count: count)
                input.removeFirst(count)
                return count
            }
            stream.pointee.next_out = buffer
            stream.pointee.avail_out = uInt(length)
            while stream.pointee.avail_out == uInt(length) {
                if input.isEmpty {
                    input = try nextInput()
                    if input.isEmpty { throw ImportSourceError("the compressed export ends before its data does: it was cut off") }
                }
                let (status, used) = input.withUnsafeMutableBytes { raw -> (Int32, Int) in
                    stream.pointee.next_in = raw.baseAddress!.assumingMemoryBound(to: Bytef.self)
                    stream.pointee.avail_in = uInt(raw.count)
                    let status = inflate(stream, Z_NO_FLUSH)
                    return (status, raw.count - Int(stream.pointee.avail_in))
                }
                input.removeFirst(used)
                if status == Z_STREAM_END {
                    finished = true
                    break
                }
                guard status == Z_OK || status == Z_BUF_ERROR else {
                    throw ImportSourceError("the compressed export is damaged (zlib status \(status))")
                }
            }
            return length - Int(stream.pointee.avail_out)
        } catch {
            readError = error
            finished = true
            return -1
        }
    }
}

/// The central directory of a zip archive (APPNOTE.TXT 4.3.12, 4.3.16; zip64 4.3.14, 4.5.3).
enum ZipDirectory {
    /// What the directory says of one entry.
    struct Entry {
        var name: String
        var method: UInt16
        var compressedSize: UInt64
        var uncompressedSize: UInt64
        var localHeaderOffset: UInt64
    }

    /// The most entries read from one directory.
    static let maxEntries = 100_000

    /// The first entry whose name ends with `suffix` (the Health app's resource forks under
    /// `__MACOSX/` left out).
    static func entry(in handle: FileHandle, endingWith suffix: String, archive: String) throws -> Entry {
        if let entry = try entries(in: handle, archive: archive).first(where: { $0.name.hasSuffix(suffix) }) { return entry }
        throw ImportSourceError("\(archive) holds no \(suffix) (is it the Health app's export?)")
    }

    /// Every entry of the archive, in the directory's order, without the `__MACOSX/` resource
    /// forks macOS adds.
    static func entries(in handle: FileHandle, archive: String) throws -> [Entry] {
        let size = try handle.seekToEnd()
        // The end-of-central-directory record is within the last 22 + 65535 bytes.
        let tailLength = min(size, 22 + 65_535)
        try handle.seek(toOffset: size - tailLength)
        let tail = try handle.read(upToCount: Int(tailLength)) ?? Data()
        guard tail.count >= 22, let end = stride(from: tail.count - 22, through: 0, by: -1).first(where: { tail.littleEndian32(at: $0) == 0x0605_4B50 }) else {
            throw ImportSourceError("\(archive) is not a zip archive (no end of central directory)")
        }
        var count = UInt64(tail.littleEndian16(at: end + 10))
        var directorySize = UInt64(tail.littleEndian32(at: end + 12))
        var directoryOffset = UInt64(tail.littleEndian32(at: end + 16))
        if directoryOffset == 0xFFFF_FFFF || count == 0xFFFF, end >= 20, tail.littleEndian32(at: end - 20) == 0x0706_4B50 {
            // Zip64: the locator points at the zip64 end-of-central-directory record.
            try handle.seek(toOffset: tail.littleEndian64(at: end - 20 + 8))
            guard let record = try handle.read(upToCount: 56), record.count == 56, record.littleEndian32(at: 0) == 0x0606_4B50 else {
                throw ImportSourceError("\(archive): the zip64 directory record is damaged")
            }
            count = record.littleEndian64(at: 32)
            directorySize = record.littleEndian64(at: 40)
            directoryOffset = record.littleEndian64(at: 48)
        }
        guard directorySize <= 256 << 20 else { throw ImportSourceError("\(archive): the zip directory is implausibly large") }
        try handle.seek(toOffset: directoryOffset)
        let directory = try handle.read(upToCount: Int(directorySize)) ?? Data()
        var position = 0
        var entries: [Entry] = []
        guard count <= UInt64(maxEntries) else { throw ImportSourceError("\(archive) holds \(count) files; more than \(maxEntries) are not read") }
        for _ in 0..<count {
            guard position + 46 <= directory.count, directory.littleEndian32(at: position) == 0x0201_4B50 else { break }
            let method = directory.littleEndian16(at: position + 10)
            var compressed = UInt64(directory.littleEndian32(at: position + 20))
            var uncompressed = UInt64(directory.littleEndian32(at: position + 24))
            let nameLength = Int(directory.littleEndian16(at: position + 28))
            let extraLength = Int(directory.littleEndian16(at: position + 30))
            let commentLength = Int(directory.littleEndian16(at: position + 32))
            var offset = UInt64(directory.littleEndian32(at: position + 42))
            guard position + 46 + nameLength + extraLength <= directory.count else { break }
            let name = String(decoding: directory[(directory.startIndex + position + 46)..<(directory.startIndex + position + 46 + nameLength)], as: UTF8.self)
            // Zip64 extra field (id 1): the 64-bit values of the fields that are 0xFFFFFFFF,
            // in the order uncompressed size, compressed size, local header offset.
            var extra = position + 46 + nameLength
            let extraEnd = extra + extraLength
            while extra + 4 <= extraEnd {
                let id = directory.littleEndian16(at: extra)
                let length = Int(directory.littleEndian16(at: extra + 2))
                if id == 1 {
                    var field = extra + 4
                    if uncompressed == 0xFFFF_FFFF, field + 8 <= extraEnd { uncompressed = directory.littleEndian64(at: field); field += 8 }
                    if compressed == 0xFFFF_FFFF, field + 8 <= extraEnd { compressed = directory.littleEndian64(at: field); field += 8 }
                    if offset == 0xFFFF_FFFF, field + 8 <= extraEnd { offset = directory.littleEndian64(at: field) }
                }
                extra += 4 + length
            }
            if !name.hasPrefix("__MACOSX/") {
                entries.append(Entry(name: name, method: method, compressedSize: compressed, uncompressedSize: uncompressed, localHeaderOffset: offset))
            }
            position += 46 + nameLength + extraLength + commentLength
        }
        return entries
    }
}

extension Data {
    /// The little-endian integer at `offset` (from the start of the data).
    fileprivate func littleEndian16(at offset: Int) -> UInt16 {
        UInt16(self[startIndex + offset]) | UInt16(self[startIndex + offset + 1]) << 8
    }

    fileprivate func littleEndian32(at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(self[startIndex + offset + $1]) << (8 * $1) }
    }

    fileprivate func littleEndian64(at offset: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 | UInt64(self[startIndex + offset + $1]) << (8 * $1) }
    }
}
