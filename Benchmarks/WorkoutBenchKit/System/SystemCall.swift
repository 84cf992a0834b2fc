#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call of the load generator: the call's name and `errno`.
package struct SystemCallError: Error, Sendable, CustomStringConvertible {
    /// The call, e.g. `connect`.
    package let call: String
    /// The `errno` it left.
    package let errno: Int32

    package var description: String {
        "\(call) failed: \(String(cString: strerror(errno))) (errno \(errno))"
    }
}

/// Runs a system call, retrying on EINTR, and turns a negative result into a ``SystemCallError``.
///
/// - Parameters:
///   - name: The call's name, for the error.
///   - body: The call; a negative result means failure with `errno` set.
/// - Returns: The call's non-negative result.
@inline(__always)
func systemCall<T: FixedWidthInteger>(_ name: StaticString, _ body: () -> T) throws(SystemCallError) -> T {
    while true {
        let result = body()
        if result >= 0 { return result }
        let code = errno
        if code == EINTR { continue }
        throw SystemCallError(call: "\(name)", errno: code)
    }
}
