#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether an address is this machine's loopback, decided on addresses, never on how a name
/// is spelled: `127.evil.example` is a DNS name (it may resolve anywhere), not 127.0.0.0/8.
///
/// Loopback is 127.0.0.0/8, `::1`, and IPv4-mapped `::ffff:127.0.0.0/104`.
enum LoopbackAddress {
    /// For an IP literal (IPv4 dotted quad or IPv6, without brackets), whether it is loopback;
    /// `nil` when `text` is not an IP literal (a name, or malformed) as `inet_pton` reads it.
    static func isLoopback(ipLiteral text: String) -> Bool? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { isLoopback(ipv4: $0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { isLoopback(ipv6: $0) }
        }
        return nil
    }

    /// Whether the peer `descriptor` is connected to is a loopback address (`false` when
    /// `getpeername` fails or the family is neither IPv4 nor IPv6).
    static func isPeerLoopback(_ descriptor: Int32) -> Bool {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) }
        }
        guard result == 0 else { return false }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafeBytes(of: &storage) { raw in
                var address = raw.load(as: sockaddr_in.self).sin_addr
                return withUnsafeBytes(of: &address) { isLoopback(ipv4: $0) }
            }
        case AF_INET6:
            return withUnsafeBytes(of: &storage) { raw in
                var address = raw.load(as: sockaddr_in6.self).sin6_addr
                return withUnsafeBytes(of: &address) { isLoopback(ipv6: $0) }
            }
        default:
            return false
        }
    }

    /// 127.0.0.0/8, from the 4 bytes in network order.
    private static func isLoopback(ipv4 bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count == 4 && bytes[0] == 127
    }

    /// `::1`, or `::ffff:127.0.0.0/104`, from the 16 bytes in network order.
    private static func isLoopback(ipv6 bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == 16 else { return false }
        if bytes.prefix(15).allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
        let mapped = bytes.prefix(10).allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
        return mapped && bytes[12] == 127
    }
}
