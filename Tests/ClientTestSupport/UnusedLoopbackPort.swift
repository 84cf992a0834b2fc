#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback port nobody listens on: bound to port 0 (so the system picks a free one), then
/// closed again at once. For a client of a server that cannot be reached.
///
/// - Returns: The port.
/// - Throws: ``UnusedLoopbackPortError`` when no socket can be bound.
package func unusedLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw UnusedLoopbackPortError() }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
    }
    guard bound else { throw UnusedLoopbackPortError() }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// No loopback socket could be bound.
package struct UnusedLoopbackPortError: Error {}
