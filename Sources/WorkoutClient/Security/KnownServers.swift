import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The servers this device has pinned, by address, like SSH's `known_hosts`: one line per
/// server, `host:port FINGERPRINT`.
///
/// A file of pins decides whom passwords go to, so it is refused when anybody but its owner
/// could change it: owned by another user, or writable by group or others. It is written
/// with mode 0600, atomically (a temporary file renamed over it), and read with bounds
/// (at most ``maxFileSize`` bytes).
public final class KnownServers: Sendable {
    /// The file, or `nil` for pins kept in memory only (for this process's life).
    public let path: String?
    private let memory = Mutex<[String: ServerFingerprint]>([:])

    /// The largest pin file read.
    public static let maxFileSize = 1 << 20

    /// Pins kept in the file at `path` (made on the first pin).
    public init(path: String) {
        self.path = path
    }

    private init() {
        self.path = nil
    }

    /// Pins kept in memory only.
    public static func inMemory() -> KnownServers { KnownServers() }

    /// The fingerprint pinned for `address`, or `nil` when it has none.
    ///
    /// - Throws: ``WorkoutError`` (`FAILED_PRECONDITION`) when the file is unsafe or malformed.
    public func fingerprint(for address: ServerAddress) throws(WorkoutError) -> ServerFingerprint? {
        guard path != nil else { return memory.withLock { $0[address.description] } }
        return try readPins()[address.description]
    }

    /// Pins `fingerprint` for `address`, replacing what was pinned.
    ///
    /// - Throws: ``WorkoutError`` (`FAILED_PRECONDITION`) when the file is unsafe or cannot be written.
    public func remember(_ fingerprint: ServerFingerprint, for address: ServerAddress) throws(WorkoutError) {
        guard let path else {
            memory.withLock { $0[address.description] = fingerprint }
            return
        }
        var pins = try readPins()
        pins[address.description] = fingerprint
        let text = pins.keys.sorted().map { "\($0) \(pins[$0]!)\n" }.joined()
        let temporary = path + ".new"
        _ = unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.failure("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                let reason = String(cString: strerror(errno))
                _ = Foundation.close(descriptor)
                throw Self.failure("cannot write \(temporary): \(reason)")
            }
            offset += written
        }
        let synced = fsync(descriptor) == 0
        _ = Foundation.close(descriptor)
        guard synced, rename(temporary, path) == 0 else {
            throw Self.failure("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    private func readPins() throws(WorkoutError) -> [String: ServerFingerprint] {
        guard let path else { return [:] }
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { return [:] }
            throw Self.failure("cannot read the pinned server keys in \(path): \(String(cString: strerror(errno)))")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw Self.failure("\(path) is not a regular file; refusing it as the pinned server keys")
        }
        guard status.st_uid == getuid() else {
            throw Self.failure("\(path) belongs to another user; refusing it as the pinned server keys")
        }
        guard status.st_mode & 0o022 == 0 else {
            let mode = String(status.st_mode & 0o777, radix: 8)
            throw Self.failure(
                "\(path) can be changed by other users (mode \(mode)); refusing the pinned server keys in it. Run `chmod 600 \(path)`")
        }
        guard Int(status.st_size) <= Self.maxFileSize, let data = FileManager.default.contents(atPath: path),
            data.count <= Self.maxFileSize
        else {
            throw Self.failure("\(path) is larger than \(Self.maxFileSize) bytes or unreadable")
        }
        var pins: [String: ServerFingerprint] = [:]
        for (index, line) in String(decoding: data, as: UTF8.self).split(separator: "\n").enumerated() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.isEmpty || line.hasPrefix("#") { continue }
            guard fields.count == 2, let address = ServerAddress(String(fields[0])),
                let fingerprint = ServerFingerprint(String(fields[1]))
            else {
                throw Self.failure("\(path), line \(index + 1), is not `host:port FINGERPRINT`")
            }
            pins[address.description] = fingerprint
        }
        return pins
    }

    private static func failure(_ message: String) -> WorkoutError {
        WorkoutError(code: .failedPrecondition, message: message)
    }
}
