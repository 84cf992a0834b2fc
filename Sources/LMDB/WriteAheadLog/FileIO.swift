import Foundation
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Whole reads, whole writes and syncs at an offset, for the write-ahead log's files: `EINTR`
/// retried, and any other failure an ``LMDBError`` carrying `errno` and the file's path (so that
/// `ENOSPC` reads as ``LMDBError/Code/noSpace``, as liblmdb's own does).
enum FileIO {
    /// Opens (creating, mode 0600) `path` for reading and writing. A file it creates has its
    /// directory synced too, so that the file itself survives a power cut.
    static func open(_ path: String) throws(LMDBError) -> Int32 {
        while true {
            let existing = openFile(path, O_RDWR | O_CLOEXEC, 0)
            if existing >= 0 { return existing }
            if errno == EINTR { continue }
            guard errno == ENOENT else { throw LMDBError(returnCode: errno, operation: "open", context: path) }
            let created = openFile(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if created < 0 {
                // Another process created it meanwhile (EEXIST): open that one.
                if errno == EEXIST || errno == EINTR { continue }
                throw LMDBError(returnCode: errno, operation: "open", context: path)
            }
            do {
                try syncDirectory(containing: path)
            } catch {
                release(created)
                throw error
            }
            return created
        }
    }

    /// Syncs the directory holding `path`, making a name created in it durable.
    private static func syncDirectory(containing path: String) throws(LMDBError) {
        let directory = (path as NSString).deletingLastPathComponent
        let descriptor = openFile(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        guard descriptor >= 0 else { throw LMDBError(returnCode: errno, operation: "open", context: directory) }
        defer { release(descriptor) }
        while fsync(descriptor) != 0 {
            if errno == EINTR { continue }
            throw LMDBError(returnCode: errno, operation: "fsync", context: directory)
        }
    }

    /// Closes `descriptor` (for code in types with a `close` of their own).
    static func release(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// The size of the open file.
    static func size(_ descriptor: Int32, path: String) throws(LMDBError) -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw LMDBError(returnCode: errno, operation: "fstat", context: path) }
        return Int(status.st_size)
    }

    /// Writes all of `bytes` at `offset`.
    static func write(_ descriptor: Int32, _ bytes: [UInt8], at offset: Int, path: String) throws(LMDBError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + written, $0.count - written, off_t(offset + written)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw LMDBError(returnCode: errno, operation: "pwrite", context: path)
            }
            written += count
        }
    }

    /// Reads up to `count` bytes at `offset`: fewer only where the file ends.
    static func read(_ descriptor: Int32, count: Int, at offset: Int, path: String) throws(LMDBError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if read < 0 {
                if errno == EINTR { continue }
                throw LMDBError(returnCode: errno, operation: "pread", context: path)
            }
            if read == 0 { break }
            done += read
        }
        return Array(bytes[..<done])
    }

    /// Makes what was written to the file durable (`fdatasync`).
    static func sync(_ descriptor: Int32, path: String) throws(LMDBError) {
        while fdatasync(descriptor) != 0 {
            if errno == EINTR { continue }
            throw LMDBError(returnCode: errno, operation: "fdatasync", context: path)
        }
    }

    /// The inode of `path`, which tells one data file from another put in its place.
    static func inode(of path: String) throws(LMDBError) -> UInt64 {
        var status = stat()
        guard stat(path, &status) == 0 else { throw LMDBError(returnCode: errno, operation: "stat", context: path) }
        return UInt64(status.st_ino)
    }
}

/// `open(2)`, named apart from ``FileIO/open(_:)``.
private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}
