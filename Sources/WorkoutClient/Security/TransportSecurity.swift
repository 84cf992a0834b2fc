/// How a client's bytes travel to the server.
public enum TransportSecurity: Sendable, Hashable {
    /// TLS, with the server's key pinned by ``ServerTrust``: the default.
    case tls
    /// Plain TCP, for a server on this machine or behind the household's own TLS proxy.
    /// Passwords (sign-in, registration, password changes) are sent over it only to a
    /// loopback address, unless `allowsPasswords`.
    case plainTCP(allowsPasswords: Bool = false)
}

extension ServerAddress {
    /// Whether the address is this machine's loopback (`localhost`, 127.x.y.z, `::1`).
    var isLoopback: Bool {
        let name = host.lowercased()
        return name == "localhost" || name.hasPrefix("127.") || name == "::1"
    }
}
