// The session model's snapshot file: one checksummed JSON document, replaced whole.
//
//   file    = magic length checksum payload
//   magic   = "WKSNAPSH" (8 bytes)
//   length  = the payload's length (u32, big-endian)
//   checksum= zlib's CRC-32 of the payload (u32, big-endian)
//   payload = one SessionSnapshot as JSON
//
// Saving writes the whole file under a temporary name beside it, syncs it (`fsync`), renames it
// over the old one and syncs the directory: a crash at any moment leaves the old snapshot or the
// new one, never a mix. Unlike the outbox (an append-only log, since a write must be durable
// before it is acknowledged), a snapshot is a cache of what the server holds: losing the latest
// one costs a longer catch-up, nothing more, so a rewrite per save is the simple right shape.
//
// Reading never trusts the file: one larger than the limit is not read, and a file that is not a
// snapshot (another magic), is cut short, fails its checksum, does not decode, has another
// format, or belongs to another account is ignored with a reason; the model then starts empty.

import CZlib
import Foundation
import SystemCalls
import WorkoutClient
import WorkoutOffline
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and writes the snapshot file at one path.
struct SessionSnapshotFile: Sendable {
    /// The first bytes of every snapshot file.
    static let magic = Array("WKSNAPSH".utf8)
    /// Magic, length and checksum.
    static let headerSize = 16

    /// What reading found.
    enum Reading: Sendable {
        /// A snapshot of the account, intact.
        case restored(SessionSnapshot)
        /// No file.
        case absent
        /// A file that cannot be used, and why (it is left alone and replaced by the next save).
        case ignored(String)
    }

    /// The file.
    let path: String
    /// The largest file read or written, in bytes.
    let maxBytes: Int

    /// Reads the snapshot of `account`.
    ///
    /// - Parameter account: The account the model is for; another account's snapshot is ignored.
    /// - Returns: The snapshot, or why there is none to use. Never throws: every failure to read
    ///   is a reason to start empty.
    func read(account: String) -> Reading {
        let bytes: [UInt8]
        switch readBytes() {
        case .success(nil): return .absent
        case .success(let read?): bytes = read
        case .failure(let failure): return .ignored(failure.reason)
        }
        guard bytes.count >= Self.headerSize, Array(bytes.prefix(Self.magic.count)) == Self.magic else {
            return .ignored("\(path) is not a session snapshot")
        }
        let length = Int(Self.bigEndian32(bytes, 8))
        let checksum = Self.bigEndian32(bytes, 12)
        guard length == bytes.count - Self.headerSize else {
            return .ignored("\(path) is cut short or has bytes past its end (\(bytes.count - Self.headerSize) of \(length) payload bytes)")
        }
        let payload = bytes[Self.headerSize...]
        guard Self.crc(payload) == checksum else {
            return .ignored("\(path) fails its checksum")
        }
        let snapshot: SessionSnapshot
        do {
            snapshot = try Self.decoder.decode(SessionSnapshot.self, from: Data(payload))
        } catch {
            return .ignored("\(path) does not decode: \(error)")
        }
        guard snapshot.format == SessionSnapshot.currentFormat else {
            return .ignored("\(path) has format \(snapshot.format); this build reads format \(SessionSnapshot.currentFormat)")
        }
        guard snapshot.account == account else {
            return .ignored("\(path) holds another account's data")
        }
        return .restored(snapshot)
    }

    /// The bytes a snapshot is saved as.
    ///
    /// - Throws: `WorkoutError` `INVALID_ARGUMENT` when it cannot be encoded or would be
    ///   larger than ``maxBytes``.
    func encode(_ snapshot: SessionSnapshot) throws(WorkoutError) -> [UInt8] {
        let payload: [UInt8]
        do {
            payload = Array(try Self.encoder.encode(snapshot))
        } catch {
            throw WorkoutError(code: .invalidArgument, message: "the session snapshot cannot be encoded: \(error)")
        }
        guard payload.count + Self.headerSize <= maxBytes, payload.count <= Int(UInt32.max) else {
            throw WorkoutError(
                code: .invalidArgument,
                message: "the session snapshot would take \(payload.count + Self.headerSize) bytes, more than its limit of \(maxBytes)")
        }
        var bytes = Self.magic
        bytes.reserveCapacity(Self.headerSize + payload.count)
        Self.appendBigEndian32(UInt32(payload.count), to: &bytes)
        Self.appendBigEndian32(Self.crc(payload[...]), to: &bytes)
        bytes += payload
        return bytes
    }

    /// Replaces the file with `bytes` (from ``encode(_:)``), durably (`SystemCall.replaceFile`):
    /// a temporary file beside it, synced, renamed over it, the directory synced.
    ///
    /// - Throws: `WorkoutError` `INTERNAL` naming the system call that failed (the old file
    ///   stays as it was).
    func write(_ bytes: [UInt8]) throws(WorkoutError) {
        do throws(SystemCallError) {
            try SystemCall.replaceFile(at: path, with: bytes, permissions: 0o600)
        } catch {
            throw WorkoutError(code: .internal, message: "the session snapshot cannot be saved: \(error)")
        }
    }

    // MARK: - Helpers

    /// The file's bytes; `nil` when there is no file; a reason when it cannot or must not be read.
    private func readBytes() -> Result<[UInt8]?, ReadFailure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            return errno == ENOENT ? .success(nil) : .failure(ReadFailure("\(path) cannot be opened: \(String(cString: strerror(errno)))"))
        }
        defer { try? SystemCall.close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            return .failure(ReadFailure("\(path) cannot be examined: \(String(cString: strerror(errno)))"))
        }
        let size = Int(status.st_size)
        guard size <= maxBytes else {
            return .failure(ReadFailure("\(path) is \(size) bytes, more than a snapshot's limit of \(maxBytes)"))
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let count = bytes.withUnsafeMutableBytes { buffer in pread(descriptor, buffer.baseAddress! + done, size - done, off_t(done)) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(ReadFailure("\(path) cannot be read: \(String(cString: strerror(errno)))"))
            }
            if count == 0 { break }
            done += count
        }
        return .success(Array(bytes.prefix(done)))
    }

    /// Why a file was not read, as text for ``Reading/ignored(_:)``.
    private struct ReadFailure: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    private static var decoder: JSONDecoder { JSONDecoder() }

    /// zlib's CRC-32 of `bytes`.
    private static func crc(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(truncatingIfNeeded: crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }

    private static func bigEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    private static func appendBigEndian32(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in [24, 16, 8, 0] { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
}
