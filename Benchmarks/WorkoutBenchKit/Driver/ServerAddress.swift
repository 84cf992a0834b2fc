#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the server listens: an IPv4 address and a port, from `host:port`.
package struct ServerAddress: Sendable, Hashable, CustomStringConvertible {
    /// The host as given.
    package var host: String
    /// The TCP port.
    package var port: Int

    /// Parses `host:port` (a host name or IPv4 address, a port from 1 to 65535).
    ///
    /// - Returns: `nil` when the text is not of that form.
    package init?(parsing text: String) {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        let host = String(text[..<colon])
        guard !host.isEmpty, !host.contains(":"), let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port) else {
            return nil
        }
        self.host = host
        self.port = port
    }

    /// An address from its parts.
    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    package var description: String { "\(host):\(port)" }

    /// The IPv4 socket address, resolving a host name with `getaddrinfo` (AF_INET).
    ///
    /// - Throws: ``BenchFailure`` when the name does not resolve to an IPv4 address.
    func socketAddress() throws -> sockaddr_in {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        #if os(Linux)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        defer { if let list { freeaddrinfo(list) } }
        guard status == 0, let first = list, let address = first.pointee.ai_addr else {
            let reason = status == 0 ? "no IPv4 address" : String(cString: gai_strerror(status))
            throw BenchFailure("cannot resolve \(host): \(reason)")
        }
        return UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self)
    }
}
