#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// This machine's network interfaces.
enum NetworkInterfaces {
    /// An IPv4 address of this machine that is not loopback (`eth0`'s, say), as text; `nil`
    /// when it has none.
    static var nonLoopbackIPv4Address: String? {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return nil }
        defer { freeifaddrs(first) }
        var next = first
        while let interface = next {
            defer { next = interface.pointee.ifa_next }
            guard let address = interface.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                  interface.pointee.ifa_flags & UInt32(IFF_LOOPBACK) == 0,
                  interface.pointee.ifa_flags & UInt32(IFF_UP) != 0
            else { continue }
            var ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            guard inet_ntop(AF_INET, &ipv4, &text, socklen_t(text.count)) != nil else { continue }
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return nil
    }
}
