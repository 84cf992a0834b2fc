import SystemCalls
import Foundation
import Storage
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock on a data directory: `flock(LOCK_EX | LOCK_NB)` on `<data-dir>/workoutd.lock`.
///
/// `serve` holds it for as long as it serves; `restore` takes it, so it never replaces a store a
/// server has open. The admin commands that work through liblmdb (`create-owner`, `invite`,
/// `members`, `reset-password`, `backup`) do not take it: liblmdb lets them share the store with
/// a running server.
///
/// flock(2): "A call to flock() may block if an incompatible lock is held by another process.
/// To make a nonblocking request, include LOCK_NB"; the lock belongs to the open file description,
/// so it is released when the descriptor is closed, and by the kernel when the process dies, even
/// by SIGKILL: a crashed server never leaves the directory locked. The lock file itself is never
/// removed (removing it would let two processes lock two different files); it holds the pid of
/// the last process that took the lock, for messages.
///
/// Take it with ``init(dataDirectory:)`` and give it back with ``release()`` (or use
/// ``withLock(dataDirectory:_:)``); `deinit` only asserts that it was released.
final class DataDirectoryLock: Sendable {
    /// The lock file's name inside the data directory.
    static let fileName = "workoutd.lock"

    /// The data directory.
    let dataDirectory: String
    /// The lock file's path.
    let path: String
    /// The lock file's descriptor while held, `nil` once released. Guarded by the mutex.
    private let descriptor: Mutex<Int32?>

    /// Takes the lock without waiting, creating the data directory (mode 0700) and the lock file
    /// (mode 0600) if missing.
    ///
    /// Wraps `open` and `flock(LOCK_EX | LOCK_NB)`.
    ///
    /// - Parameter dataDirectory: the data directory.
    /// - Throws: ``DataDirectoryLockError``: `held` when another process holds the lock ("a server
    ///   is running on this data directory"), `unusable` when the directory or the lock file
    ///   cannot be created or opened.
    init(dataDirectory: String) throws(DataDirectoryLockError) {
        self.dataDirectory = dataDirectory
        self.path = (dataDirectory as NSString).appendingPathComponent(Self.fileName)
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: dataDirectory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw DataDirectoryLockError(.unusable, "\(dataDirectory) exists and is not a directory")
            }
        } else {
            do {
                try files.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw DataDirectoryLockError(.unusable, "cannot create the data directory \(dataDirectory): \((error as NSError).localizedDescription)")
            }
        }
        let path = self.path
        let fd: Int32
        do throws(SystemCallError) {
            fd = try SystemCall.retrying("open", subject: path) { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        } catch {
            throw DataDirectoryLockError(.unusable, "cannot open the lock file of \(dataDirectory)", underlying: error)
        }
        do throws(SystemCallError) {
            try SystemCall.retrying("flock", subject: path) { flock(fd, LOCK_EX | LOCK_NB) }
        } catch {
            let holder = Self.recordedPID(fd)
            try? SystemCall.close(fd, subject: path)
            if error.errno == EWOULDBLOCK || error.errno == EAGAIN {
                let who = holder.map { " (process \($0) holds \(path))" } ?? " (\(path) is locked)"
                throw DataDirectoryLockError(.held, "a server is running on this data directory\(who); stop it first")
            }
            throw DataDirectoryLockError(.unusable, "cannot lock the data directory \(dataDirectory)", underlying: error)
        }
        Self.recordPID(fd, path: path)
        self.descriptor = Mutex(fd)
    }

    deinit {
        assert(descriptor.withLock { $0 } == nil, "DataDirectoryLock on \(path) was not released")
    }

    /// Whether the lock is still held by this object.
    var isHeld: Bool { descriptor.withLock { $0 != nil } }

    /// Gives the lock back by closing the lock file. Calling it again does nothing.
    func release() {
        guard let fd = descriptor.withLock({ state -> Int32? in defer { state = nil }; return state }) else { return }
        try? SystemCall.close(fd, subject: path)
    }

    /// Runs `body` while holding the lock of `dataDirectory`, then releases it.
    ///
    /// - Throws: what ``init(dataDirectory:)`` or `body` throws.
    static func withLock<R>(dataDirectory: String, _ body: (DataDirectoryLock) throws -> R) throws -> R {
        let lock = try DataDirectoryLock(dataDirectory: dataDirectory)
        defer { lock.release() }
        return try body(lock)
    }

    /// The async form of ``withLock(dataDirectory:_:)``, for `serve`.
    static func withLock<R>(dataDirectory: String, _ body: (DataDirectoryLock) async throws -> R) async throws -> R {
        let lock = try DataDirectoryLock(dataDirectory: dataDirectory)
        defer { lock.release() }
        return try await body(lock)
    }

    /// Writes our pid into the lock file (best effort: the lock works without it).
    private static func recordPID(_ fd: Int32, path: String) {
        let text = Array("\(getpid())\n".utf8)
        _ = try? SystemCall.retrying("ftruncate", subject: path) { ftruncate(fd, 0) }
        _ = try? text.withUnsafeBytes { bytes in
            try SystemCall.retrying("pwrite", subject: path) { pwrite(fd, bytes.baseAddress, bytes.count, 0) }
        }
    }

    /// The pid the lock file records, if it holds one.
    private static func recordedPID(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = (try? buffer.withUnsafeMutableBytes { bytes in
            try SystemCall.retrying("pread") { pread(fd, bytes.baseAddress, bytes.count, 0) }
        }) ?? 0
        let text = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int32(text)
    }
}

/// Why a ``DataDirectoryLock`` could not be taken.
struct DataDirectoryLockError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure, stable across versions.
    let code: Code
    /// A readable explanation naming the directory.
    let message: String
    /// The failed system call, if any.
    let underlying: SystemCallError?

    init(_ code: Code, _ message: String, underlying: SystemCallError? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    var description: String {
        if let underlying { return "\(message): \(underlying)" }
        return message
    }

    /// A kind of lock failure.
    struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: Hashable, Sendable { case held, unusable }
        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// Another process holds the lock: a server is running on the directory.
        static let held = Code(.held)
        /// The directory or its lock file cannot be created, opened or locked.
        static let unusable = Code(.unusable)

        var description: String { String(describing: wrapped) }
    }
}
