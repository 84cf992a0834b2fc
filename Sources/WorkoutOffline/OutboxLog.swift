// The outbox's file: an append-only log of checksummed records.
//
//   file   = magic record*
//   magic  = "WKOUTBOX" (8 bytes)
//
//    0                   1                   2                   3
//    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |                 length of the payload (u32, big-endian)        |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |           CRC-32 (zlib's) of the payload (u32, big-endian)     |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//   |                 payload: one OutboxRecord as JSON ...          |
//   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//
// Why a log and not a snapshot rewritten with write-then-rename: queueing a write appends one
// small record and syncs once, whatever the outbox holds (a rewrite costs the whole outbox per
// write: a thousand offline writes would write half a million records). A process killed in the
// middle of an append leaves a torn last record, which reading detects (a length past the end, a
// checksum that does not match, a payload that does not decode) and drops: that write was never
// acknowledged, since acknowledging it waits for the fsync after the append. Reading stops at the
// first bad record and truncates the file there; the dropped bytes are kept beside the file
// (`<path>.damaged`) in case they were not a torn tail but a damaged middle.
//
// Compaction (when the dead records outweigh the live ones) writes the live state to a new file,
// syncs it, renames it over the log and syncs the directory: a crash leaves the old log or the
// new one. The lock (`flock`) is on a separate `<path>.lock` file, so it survives the rename.

import CZlib
import Foundation
import SystemCalls
import WorkoutClient
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The append-only, checksummed log file behind an ``Outbox``, locked against other processes.
///
/// Not thread-safe: ``Outbox`` confines it to its lock.
struct OutboxLog: ~Copyable {
    /// The first bytes of every outbox file.
    static let magic = Array("WKOUTBOX".utf8)
    /// The largest record accepted (a meal with its items is a few KiB; a length above this is
    /// damage, not a record).
    static let maxRecordSize = 1 << 20
    /// The largest file read (a compacted outbox at its byte bound is far smaller).
    static let maxFileSize = 256 << 20

    /// The log's path.
    let path: String
    /// The log, open for appending.
    private var descriptor: Int32
    /// The lock file, held with `flock(LOCK_EX)` while the log is open.
    private let lockDescriptor: Int32
    /// The log's length in bytes.
    private(set) var length: Int
    /// How many bytes of records reading found, live or dead.
    private(set) var recordBytes: Int

    /// What reading the log found: its records with their sizes, and how many bytes of a bad tail
    /// it dropped.
    struct Contents {
        /// The records, in order, with their encoded sizes.
        var records: [(record: OutboxRecord, size: Int)]
        /// Bytes dropped after the last good record (0 when the log was intact).
        var droppedBytes: Int
    }

    /// Opens (creating if needed) the log at `path`, takes its lock (waiting up to `lockTimeout`),
    /// reads it and drops a bad tail.
    ///
    /// - Parameter contents: Set to what the log holds.
    /// - Returns: The open log.
    /// - Throws: `WorkoutError`: `FAILED_PRECONDITION` when another process holds the outbox or
    ///   the file is not an outbox; `INTERNAL` naming the system call that failed.
    static func openLog(path: String, lockTimeout: Duration, contents: inout Contents) throws(WorkoutError) -> OutboxLog {
        let lock = try lockFile(path + ".lock", timeout: lockTimeout)
        let descriptor: Int32
        do {
            descriptor = try SystemCall.retrying("open", subject: path) { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        } catch {
            try? SystemCall.close(lock)
            throw failure(error)
        }
        var log = OutboxLog(path: path, descriptor: descriptor, lockDescriptor: lock, length: 0, recordBytes: 0)
        do throws(WorkoutError) {
            contents = try log.readAll()
            return log
        } catch {
            log.close()
            throw error
        }
    }

    /// Takes `flock(LOCK_EX)` on the lock file, polling for up to `timeout`.
    private static func lockFile(_ path: String, timeout: Duration) throws(WorkoutError) -> Int32 {
        let descriptor: Int32
        do {
            descriptor = try SystemCall.retrying("open", subject: path) { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        } catch {
            throw failure(error)
        }
        let deadline = ContinuousClock.now + timeout
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return descriptor }
            let code = errno
            if code != EWOULDBLOCK && code != EINTR {
                try? SystemCall.close(descriptor)
                throw failure(SystemCallError(call: "flock", errno: code, subject: path))
            }
            if ContinuousClock.now >= deadline {
                try? SystemCall.close(descriptor)
                throw WorkoutError(
                    code: .failedPrecondition,
                    message: "the outbox \(path.dropLast(".lock".count)) is in use by another process (a sync or a write); try again")
            }
            usleep(10_000)
        }
    }

    /// Reads every record; truncates the file after the last good one.
    private mutating func readAll() throws(WorkoutError) -> Contents {
        var status = stat()
        do throws(SystemCallError) {
            try SystemCall.retrying("fstat", subject: path) { fstat(descriptor, &status) }
        } catch {
            throw Self.failure(error)
        }
        guard Int(status.st_size) <= Self.maxFileSize else {
            throw WorkoutError(
                code: .failedPrecondition,
                message: "the outbox \(path) is \(status.st_size) bytes, more than an outbox can be; move it away")
        }
        let bytes: [UInt8]
        do throws(SystemCallError) {
            bytes = try readFile(size: Int(status.st_size))
        } catch {
            throw Self.failure(error)
        }
        if bytes.count < Self.magic.count {
            // A new file, or one whose creation was cut short before its magic was synced.
            guard Self.magic.starts(with: bytes) else { throw notAnOutbox() }
            try rewrite(records: [])
            return Contents(records: [], droppedBytes: 0)
        }
        guard bytes.starts(with: Self.magic) else { throw notAnOutbox() }
        let (records, offset) = Self.records(in: bytes)
        length = bytes.count
        recordBytes = offset - Self.magic.count
        let dropped = bytes.count - offset
        if dropped > 0 {
            // Keep the dropped bytes for a post-mortem, then cut them off.
            try? Data(bytes[offset...]).write(to: URL(fileURLWithPath: path + ".damaged"))
            // No fsync of its own: the next append's fsync makes the shorter length durable with
            // it, and should the cut be lost in a crash before, the same bad tail is cut again.
            do throws(SystemCallError) {
                try SystemCall.retrying("ftruncate", subject: path) { ftruncate(descriptor, off_t(offset)) }
            } catch {
                throw Self.failure(error)
            }
            length = offset
        }
        return Contents(records: records, droppedBytes: dropped)
    }

    /// Reads `size` bytes from the start of the log.
    private func readFile(size: Int) throws(SystemCallError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let count = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, size - done, off_t(done))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemCallError(call: "pread", errno: errno, subject: path)
            }
            if count == 0 { break }
            done += count
        }
        return Array(bytes.prefix(done))
    }

    /// The records of a log's bytes (which start with the magic), up to the first that is cut
    /// short, fails its checksum or does not decode.
    ///
    /// - Returns: The records with their sizes, and the length of the good part (magic included).
    static func records(in bytes: [UInt8]) -> (records: [(record: OutboxRecord, size: Int)], goodLength: Int) {
        var records: [(record: OutboxRecord, size: Int)] = []
        var offset = magic.count
        let decoder = JSONDecoder()
        while let (record, size) = record(in: bytes, at: offset, decoder: decoder) {
            records.append((record, size))
            offset += 8 + size
        }
        return (records, offset)
    }

    /// The record framed at `offset`, or `nil` when there is none whole and intact there.
    static func record(in bytes: [UInt8], at offset: Int, decoder: JSONDecoder) -> (OutboxRecord, Int)? {
        guard bytes.count - offset >= 8 else { return nil }
        let size = Int(bigEndian32(bytes, offset))
        let checksum = bigEndian32(bytes, offset + 4)
        guard size > 0, size <= maxRecordSize, bytes.count - offset - 8 >= size else { return nil }
        let payload = bytes[(offset + 8)..<(offset + 8 + size)]
        guard crc(payload) == checksum, let record = try? decoder.decode(OutboxRecord.self, from: Data(payload)) else {
            return nil
        }
        return (record, size)
    }

    /// Appends records already encoded with ``encode(_:)``; with `sync`, waits until they are on
    /// disk (`fsync`). A failed write is cut off again, so the file never keeps half a record
    /// that later appends would follow.
    ///
    /// - Throws: `WorkoutError` `INTERNAL` naming the call that failed (`write`: no space left).
    mutating func append(encoded payloads: [[UInt8]], sync: Bool) throws(WorkoutError) {
        var buffer: [UInt8] = []
        for payload in payloads { Self.frame(payload, into: &buffer) }
        if !buffer.isEmpty {
            do throws(SystemCallError) {
                try writeAll(buffer, at: length)
            } catch {
                _ = ftruncate(descriptor, off_t(length))
                throw Self.failure(error)
            }
            length += buffer.count
            recordBytes += buffer.count
        }
        if sync { try self.sync() }
    }

    /// Waits until everything appended is on disk (`fsync`).
    func sync() throws(WorkoutError) {
        do throws(SystemCallError) {
            try SystemCall.retrying("fsync", subject: path) { fsync(descriptor) }
        } catch {
            throw Self.failure(error)
        }
    }

    /// Replaces the log with a new one holding `records` (`SystemCall.replaceFile`): written to a
    /// temporary file, synced, renamed over the log, and the directory synced (a crash leaves the
    /// old log or the new one); the log goes on in the new file.
    mutating func rewrite(records: [OutboxRecord]) throws(WorkoutError) {
        var buffer = Self.magic
        for record in records { Self.frame(try Self.encode(record), into: &buffer) }
        do throws(SystemCallError) {
            try SystemCall.replaceFile(at: path, with: buffer, permissions: 0o600) { fresh in
                try? SystemCall.close(descriptor)
                descriptor = fresh
                length = buffer.count
                recordBytes = buffer.count - Self.magic.count
            }
        } catch {
            throw Self.failure(error)
        }
    }

    /// Releases the lock and closes the files.
    consuming func close() {
        try? SystemCall.close(descriptor)
        try? SystemCall.close(lockDescriptor)
    }

    // MARK: - Helpers

    private func writeAll(_ bytes: [UInt8], at offset: Int, to target: Int32? = nil) throws(SystemCallError) {
        let file = target ?? descriptor
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                pwrite(file, buffer.baseAddress! + done, bytes.count - done, off_t(offset + done))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemCallError(call: "write", errno: errno, subject: path)
            }
            done += count
        }
    }

    /// `record` as a payload: JSON with sorted keys.
    ///
    /// - Throws: `WorkoutError` `INVALID_ARGUMENT` when it cannot be encoded (a non-finite
    ///   number) or is larger than ``maxRecordSize``.
    static func encode(_ record: OutboxRecord) throws(WorkoutError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let payload: [UInt8]
        do {
            payload = Array(try encoder.encode(record))
        } catch {
            throw WorkoutError(code: .invalidArgument, message: "the write cannot be stored in the outbox: \(error)")
        }
        guard payload.count <= maxRecordSize else {
            throw WorkoutError(code: .invalidArgument, message: "the write is \(payload.count) bytes, more than the outbox keeps for one write (\(maxRecordSize))")
        }
        return payload
    }

    private static func frame(_ payload: [UInt8], into buffer: inout [UInt8]) {
        let size = UInt32(payload.count)
        let checksum = crc(payload[...])
        for shift in [24, 16, 8, 0] { buffer.append(UInt8(truncatingIfNeeded: size >> UInt32(shift))) }
        for shift in [24, 16, 8, 0] { buffer.append(UInt8(truncatingIfNeeded: checksum >> UInt32(shift))) }
        buffer += payload
    }

    /// zlib's CRC-32 of `bytes`.
    static func crc(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(truncatingIfNeeded: crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }

    private static func bigEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    private func notAnOutbox() -> WorkoutError {
        WorkoutError(code: .failedPrecondition, message: "\(path) is not an outbox file; move it away or choose another path")
    }

    private static func failure(_ error: SystemCallError) -> WorkoutError {
        WorkoutError(code: .internal, message: "the outbox cannot be used: \(error)")
    }
}
