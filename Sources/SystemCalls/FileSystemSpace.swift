#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension SystemCall {
    /// The bytes an unprivileged process may still write on the file system holding `path`
    /// (wraps `statvfs`: `f_bavail` blocks of `f_frsize` bytes).
    ///
    /// - Parameter path: any file or directory on the file system.
    /// - Returns: the bytes available to a process without privileges.
    /// - Throws: ``SystemCallError`` naming `statvfs` and `path`.
    package static func availableBytes(onFileSystemOf path: String) throws(SystemCallError) -> UInt64 {
        var info = statvfs()
        try retrying("statvfs", subject: path) { statvfs(path, &info) }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize)
    }
}
