#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An error of a system call: the call's name and `errno`.
package struct SystemCallError: Error, Sendable, CustomStringConvertible {
    /// The call, e.g. `bind`.
    package let call: String
    /// The `errno` it left.
    package let errno: Int32

    /// Makes an error for `call`, which left `errno`.
    package init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    package var description: String {
        "\(call) failed: \(String(cString: strerror(errno))) (errno \(errno))"
    }
}

/// Runs a system call, retrying on EINTR, and turns a -1 into a ``SystemCallError``.
///
/// - Parameters:
///   - name: the call's name, for the error.
///   - body: the call; a negative result means failure with `errno` set.
/// - Returns: the call's non-negative result.
@inline(__always)
package func systemCall<T: FixedWidthInteger>(_ name: String, _ body: () -> T) throws(SystemCallError) -> T {
    while true {
        let result = body()
        if result >= 0 { return result }
        let code = errno
        if code == EINTR { continue }
        throw SystemCallError(call: name, errno: code)
    }
}
