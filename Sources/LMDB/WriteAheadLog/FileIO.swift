import SystemCalls
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Whole reads, whole writes and syncs at an offset, for the write-ahead log's files. The calls
/// go through ``SystemCall`` (`EINTR` retried); a failure becomes an ``LMDBError`` carrying
/// `errno` and the file's path, so that `ENOSPC` reads as ``LMDBError/Code/noSpace``, as
/// liblmdb's own does.
enum FileIO {
    /// Opens (creating, mode 0600) `path` for reading and writing. A file it creates has its
    /// directory synced too, so that the file itself survives a power cut.
    static func open(_ path: String) throws(LMDBError) -> Int32 {
        try named { () throws(SystemCallError) -> Int32 in
            while true {
                do throws(SystemCallError) {
                    return try SystemCall.retrying("open", subject: path) { openFile(path, O_RDWR | O_CLOEXEC, 0) }
                } catch where error.errno == ENOENT {
                    // Not there yet: create it, unless another process just did (EEXIST).
                }
                let created: Int32
                do throws(SystemCallError) {
                    created = try SystemCall.retrying("open", subject: path) {
                        openFile(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
                    }
                } catch where error.errno == EEXIST {
                    continue
                }
                do throws(SystemCallError) {
                    try SystemCall.syncDirectory(containing: path)
                } catch {
                    release(created)
                    throw error
                }
                return created
            }
        }
    }

    /// Closes `descriptor` (for code in types with a `close` of their own).
    static func release(_ descriptor: Int32) {
        try? SystemCall.close(descriptor)
    }

    /// The size of the open file.
    static func size(_ descriptor: Int32, path: String) throws(LMDBError) -> Int {
        var status = stat()
        try named { () throws(SystemCallError) in try SystemCall.retrying("fstat", subject: path) { fstat(descriptor, &status) } }
        return Int(status.st_size)
    }

    /// Writes all of `bytes` at `offset`.
    static func write(_ descriptor: Int32, _ bytes: [UInt8], at offset: Int, path: String) throws(LMDBError) {
        var written = 0
        while written < bytes.count {
            written += try named { () throws(SystemCallError) in
                try SystemCall.retrying("pwrite", subject: path) {
                    bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + written, $0.count - written, off_t(offset + written)) }
                }
            }
        }
    }

    /// Reads up to `count` bytes at `offset`: fewer only where the file ends.
    static func read(_ descriptor: Int32, count: Int, at offset: Int, path: String) throws(LMDBError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let read = try named { () throws(SystemCallError) in
                try SystemCall.retrying("pread", subject: path) {
                    bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done)) }
                }
            }
            if read == 0 { break }
            done += read
        }
        return Array(bytes[..<done])
    }

    /// Cuts the open file to `size` bytes (`ftruncate`).
    static func truncate(_ descriptor: Int32, to size: Int, path: String) throws(LMDBError) {
        try named { () throws(SystemCallError) in
            try SystemCall.retrying("ftruncate", subject: path) { ftruncate(descriptor, off_t(size)) }
        }
    }

    /// Makes what was written to the file durable (`fdatasync`).
    static func sync(_ descriptor: Int32, path: String) throws(LMDBError) {
        try named { () throws(SystemCallError) in try SystemCall.retrying("fdatasync", subject: path) { fdatasync(descriptor) } }
    }

    /// The inode of `path`, which tells one data file from another put in its place.
    static func inode(of path: String) throws(LMDBError) -> UInt64 {
        var status = stat()
        try named { () throws(SystemCallError) in try SystemCall.retrying("stat", subject: path) { stat(path, &status) } }
        return UInt64(status.st_ino)
    }

    /// Runs `body`, naming its ``SystemCallError`` as an ``LMDBError`` of the same `errno`.
    @discardableResult
    private static func named<R>(_ body: () throws(SystemCallError) -> R) throws(LMDBError) -> R {
        do {
            return try body()
        } catch {
            throw LMDBError(returnCode: error.errno, operation: error.call, context: error.subject)
        }
    }
}

/// `open(2)`, named apart from ``FileIO/open(_:)``.
private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}

extension Array where Element == UInt8 {
    /// `withUnsafeBytes`, throwing `body`'s ``LMDBError`` as itself (the standard library's
    /// form throws `any Error`).
    func withRawBytes<R>(_ body: (UnsafeRawBufferPointer) throws(LMDBError) -> R) throws(LMDBError) -> R {
        let outcome = withUnsafeBytes { raw in Result { () throws(LMDBError) in try body(raw) } }
        return try outcome.get()
    }
}
