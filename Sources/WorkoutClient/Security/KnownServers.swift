import Foundation
import Synchronization
import SystemCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The servers this device has pinned, by address, like SSH's `known_hosts`: one line per
/// server, `host:port FINGERPRINT`. The default ``ServerPinStore``.
///
/// An app keeps its pins in a file of its own, so that they outlive the process: a server whose
/// key was rotated (`workoutd rotate-key`) is then accepted on the next launch, since the pinned
/// key vouches for the new one. Pins kept in memory only (``inMemory()``, the default of
/// ``ServerTrust``) are forgotten when the app quits.
///
/// ```swift
/// let support = URL.applicationSupportDirectory  // created by the app if missing
/// let trust = ServerTrust(knownServers: KnownServers(path: support.appending(path: "known_servers").path))
/// ```
///
/// A file of pins decides whom passwords go to, so it is refused when anybody but its owner
/// could change it: owned by another user, writable by group or others, a link, or in a
/// folder that others could change (unless sticky, as `/tmp`). The file is checked by what
/// was opened, not by its path again. It is written
/// with mode 0600, atomically (a temporary file of a unique name renamed over it, then the
/// directory synced), under an exclusive lock on `PATH.lock` so that processes pinning at
/// the same time keep each other's pins, and read with bounds (at most ``maxFileSize`` bytes).
public final class KnownServers: ServerPinStore {
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
        try update { $0[address.description] = fingerprint }
    }

    /// Removes the pin of `address` (nothing happens when it has none).
    ///
    /// - Throws: ``WorkoutError`` (`FAILED_PRECONDITION`) when the file is unsafe or cannot be written.
    public func forget(_ address: ServerAddress) throws(WorkoutError) {
        try update { $0[address.description] = nil }
    }

    /// Changes the pins with `change`: in memory, or in the file as one read-modify-write.
    private func update(_ change: (inout [String: ServerFingerprint]) -> Void) throws(WorkoutError) {
        guard let path else {
            memory.withLock { change(&$0) }
            return
        }
        // Other processes (another `workout`, an app) may pin at the same time: the whole
        // read-modify-write holds an exclusive lock on a file beside the pins.
        let lock = try Self.lock(path + ".lock")
        defer { _ = Foundation.close(lock) }
        var pins = try readPins()
        let before = pins
        change(&pins)
        guard pins != before else { return }  // nothing to write (forgetting a pin it never had)
        let text = pins.keys.sorted().map { "\($0) \(pins[$0]!)\n" }.joined()
        try Self.replace(path, with: Array(text.utf8))
    }

    /// Opens `lockPath` (made with mode 0600 if missing) and waits for its exclusive `flock`;
    /// the lock ends when the returned descriptor is closed.
    private static func lock(_ lockPath: String) throws(WorkoutError) -> Int32 {
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw failure("cannot open \(lockPath): \(String(cString: strerror(errno)))") }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let reason = String(cString: strerror(errno))
            _ = Foundation.close(descriptor)
            throw failure("cannot lock \(lockPath): \(reason)")
        }
        return descriptor
    }

    /// Replaces the file at `path` with `bytes` atomically: a temporary file of a unique name
    /// (mode 0600) in the same directory, synced, renamed over `path`, and the directory synced.
    private static func replace(_ path: String, with bytes: [UInt8]) throws(WorkoutError) {
        do throws(SystemCallError) {
            try SystemCall.replaceFile(at: path, with: bytes, permissions: 0o600)
        } catch {
            throw failure("cannot write \(path): \(error)")
        }
    }

    private func readPins() throws(WorkoutError) -> [String: ServerFingerprint] {
        guard let path else { return [:] }
        try Self.checkDirectory(of: path)
        // The checks look at what was opened, not at the path again: a file swapped in between
        // is not read. No link is followed, and a FIFO does not block the open.
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: return [:]
            case ELOOP: throw Self.failure("\(path) is not a regular file; refusing it as the pinned server keys")
            default: throw Self.failure("cannot read the pinned server keys in \(path): \(String(cString: strerror(errno)))")
            }
        }
        defer { _ = Foundation.close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
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
        guard Int(status.st_size) <= Self.maxFileSize,
            let data = Self.readAll(descriptor, expected: Int(status.st_size), atMost: Self.maxFileSize)
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

    /// Refuses pins in a directory that another user could change: one that user could
    /// delete the file from (to be asked about the server again, as on first use) or put
    /// another in. A directory owned by this user or root, not writable by group or others
    /// unless sticky (as `/tmp`, where nobody removes another's file), is safe.
    private static func checkDirectory(of path: String) throws(WorkoutError) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var status = stat()
        guard stat(directory, &status) == 0 else {
            if errno == ENOENT { return }  // no pins yet: remember() fails to write there anyway
            throw failure("cannot read the folder of the pinned server keys, \(directory): \(String(cString: strerror(errno)))")
        }
        guard status.st_uid == getuid() || status.st_uid == 0 else {
            throw failure("\(directory) belongs to another user; refusing the pinned server keys in it")
        }
        guard status.st_mode & 0o022 == 0 || status.st_mode & S_ISVTX != 0 else {
            let mode = String(status.st_mode & 0o777, radix: 8)
            throw failure(
                "\(directory) can be changed by other users (mode \(mode)); refusing the pinned server keys in it. Run `chmod 700 \(directory)`")
        }
    }

    /// Reads `descriptor` to its end, into storage for the `expected` size that grows if the
    /// file did; `nil` past `limit` bytes or on an error.
    private static func readAll(_ descriptor: Int32, expected: Int, atMost limit: Int) -> Data? {
        var bytes = [UInt8](repeating: 0, count: min(max(expected, 0), limit) + 1)
        var filled = 0
        while filled <= limit {
            if filled == bytes.count {
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit + 1 - bytes.count)))
            }
            let count = bytes[filled...].withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return Data(bytes[..<filled]) }
            filled += count
        }
        return nil
    }

    private static func failure(_ message: String) -> WorkoutError {
        WorkoutError(code: .failedPrecondition, message: message)
    }
}
