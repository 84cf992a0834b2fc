#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The C library's calls under names no method shadows (a type with its own `close()` or
// `connect(to:)` cannot name the C function plainly, and `Glibc.close` does not build on Darwin).

/// Wraps `close(2)`.
@inline(__always)
func posixClose(_ descriptor: Int32) {
    _ = close(descriptor)
}

/// Wraps `read(2)`.
@inline(__always)
func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// Wraps `connect(2)` for an IPv4 address.
@inline(__always)
func posixConnect(_ descriptor: Int32, _ address: sockaddr_in) -> Int32 {
    var target = address
    return withUnsafePointer(to: &target) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
}

/// Wraps `send(2)`; on Linux with `MSG_NOSIGNAL`, so a closed peer gives EPIPE, not SIGPIPE
/// (elsewhere the socket has `SO_NOSIGPIPE`).
@inline(__always)
func posixSend(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if os(Linux)
    send(descriptor, buffer, count, Int32(MSG_NOSIGNAL))
    #else
    send(descriptor, buffer, count, 0)
    #endif
}
