#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A system call that failed: which call, on what, and `errno`.
///
/// Thrown by ``SystemCall``; layers above wrap it as the `underlying` error of their own
/// error type (``StorageError``, the daemon's errors), so messages name the call.
package struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The C function that failed, e.g. `flock`.
    package let call: String
    /// `errno` after the call.
    package let errno: Int32
    /// The path (or other object) the call was about, when there is one.
    package let subject: String?

    /// Creates an error.
    package init(call: String, errno: Int32, subject: String? = nil) {
        self.call = call
        self.errno = errno
        self.subject = subject
    }

    /// `strerror(errno)`, e.g. "Permission denied".
    package var reason: String { String(cString: strerror(errno)) }

    /// E.g. `open(/var/lib/workout/data.mdb) failed: Permission denied (errno 13)`.
    package var description: String {
        let on = subject.map { "(\($0))" } ?? ""
        return "\(call)\(on) failed: \(reason) (errno \(errno))"
    }
}

/// The one way this package makes system calls: every call goes through ``retrying(_:subject:_:)``,
/// which retries `EINTR` and turns any other failure into a ``SystemCallError`` naming the call
/// (the shape of swift-nio's `System.swift`).
package enum SystemCall {
    /// Runs `body`, a C call that returns -1 and sets `errno` on failure, until it does not fail
    /// with `EINTR`.
    ///
    /// - Parameters:
    ///   - call: the C function's name, for the error.
    ///   - subject: the path or object concerned, for the error.
    ///   - body: the call.
    /// - Returns: what the call returned (never -1).
    /// - Throws: ``SystemCallError`` with the call's name and `errno`.
    @discardableResult
    @inlinable
    package static func retrying<Result: FixedWidthInteger & SignedInteger>(
        _ call: String, subject: String? = nil, _ body: () -> Result
    ) throws(SystemCallError) -> Result {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = errno
            if code == EINTR { continue }
            throw SystemCallError(call: call, errno: code, subject: subject)
        }
    }

    /// Closes a file descriptor. Not retried on `EINTR`: on Linux the descriptor is released
    /// even then ("close() should not be retried after an error", close(2)), and retrying could
    /// close a descriptor another thread just opened. `EINTR` is therefore not an error here.
    ///
    /// - Throws: ``SystemCallError`` for any other failure (`EBADF`, `EIO`).
    @inlinable
    package static func close(_ descriptor: Int32, subject: String? = nil) throws(SystemCallError) {
        #if canImport(Darwin)
        let result = Darwin.close(descriptor)
        #elseif canImport(Musl)
        let result = Musl.close(descriptor)
        #else
        let result = Glibc.close(descriptor)
        #endif
        if result == -1 && errno != EINTR {
            throw SystemCallError(call: "close", errno: errno, subject: subject)
        }
    }
}
