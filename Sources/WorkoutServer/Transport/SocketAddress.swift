import SystemCalls
#if canImport(Glibc)
package import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A socket address (IPv4 or IPv6) as bytes, printable as `host:port`.
package struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// The raw `sockaddr_in` or `sockaddr_in6` bytes.
    package let storage: [UInt8]

    /// Copies an address from the kernel's structure.
    package init(_ address: UnsafeRawPointer, length: socklen_t) {
        storage = Array(UnsafeRawBufferPointer(start: address, count: Int(length)))
    }

    /// The address family (`AF_INET` or `AF_INET6`).
    package var family: Int32 {
        storage.withUnsafeBytes { Int32($0.load(as: sockaddr.self).sa_family) }
    }

    /// The port.
    package var port: Int {
        storage.withUnsafeBytes { raw in
            family == AF_INET6
                ? Int(UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port))
                : Int(UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port))
        }
    }

    /// The numeric host, without the port (`127.0.0.1`, `::1`).
    package var host: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        storage.withUnsafeBytes { raw in
            if family == AF_INET6 {
                var address = raw.load(as: sockaddr_in6.self).sin6_addr
                _ = inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
            } else {
                var address = raw.load(as: sockaddr_in.self).sin_addr
                _ = inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
            }
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    package var description: String {
        family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The addresses `host` names for listening on `port` (getaddrinfo with AI_PASSIVE).
    package static func resolve(host: String, port: Int) throws -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var result: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host.isEmpty ? nil : host, String(port), &hints, &result)
        guard rc == 0, let first = result else {
            throw SystemCallError(call: "getaddrinfo(\(host))", errno: rc == EAI_SYSTEM ? errno : EINVAL)
        }
        defer { freeaddrinfo(first) }
        var addresses: [SocketAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let address = entry.pointee.ai_addr {
                let candidate = SocketAddress(address, length: entry.pointee.ai_addrlen)
                if !addresses.contains(candidate) { addresses.append(candidate) }
            }
            cursor = entry.pointee.ai_next
        }
        return addresses
    }

    /// This address with another port.
    package func with(port: Int) -> SocketAddress {
        var bytes = storage
        let big = UInt16(port).bigEndian
        withUnsafeBytes(of: big) { portBytes in
            bytes[2] = portBytes[0]
            bytes[3] = portBytes[1]
        }
        return SocketAddress(bytes: bytes)
    }

    private init(bytes: [UInt8]) { storage = bytes }
}
