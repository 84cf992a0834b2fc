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
    /// Whether the address may be this machine's loopback, before connecting: an IP literal
    /// in 127.0.0.0/8, `::1` or `::ffff:127.0.0.0/104` (parsed as an address, so a name such
    /// as `127.evil.example` is not), or the name `localhost`, which counts only once the
    /// connection shows it resolved to a loopback address (``ClientConnection/peerIsLoopback``).
    var mayBeLoopback: Bool {
        if let literal = LoopbackAddress.isLoopback(ipLiteral: host) { return literal }
        return host.lowercased() == "localhost"
    }
}
