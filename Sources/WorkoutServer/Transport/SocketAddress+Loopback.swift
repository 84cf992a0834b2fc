extension SocketAddress {
    /// Whether the address is a loopback one (127.0.0.0/8, ::1, or ::ffff:127.x.y.z), which
    /// no other machine can reach.
    package var isLoopback: Bool {
        let text = host
        return text.hasPrefix("127.") || text == "::1" || text.hasPrefix("::ffff:127.")
    }
}

/// The server was asked to listen in plain TCP beyond loopback without being allowed to.
package struct PlainTCPNotAllowed: Error, CustomStringConvertible {
    /// The addresses that are not loopback.
    package var addresses: [SocketAddress]

    package var description: String {
        "plain TCP on \(addresses.map(\.description).joined(separator: ", ")) would send passwords and health data in the clear; "
            + "use TLS, listen on loopback only, or allow plain TCP explicitly (a TLS-terminating proxy in front)"
    }
}

extension PlainTCPNotAllowed {
    /// The one check of plain TCP, for `serve` and `check-config` alike: refused when the
    /// server would listen without TLS on an address other machines reach, unless allowed.
    ///
    /// - Parameters:
    ///   - addresses: Where the server would listen.
    ///   - tls: Whether it speaks TLS.
    ///   - allowsPlainTCP: Whether plain TCP beyond loopback is allowed (a TLS proxy in front).
    /// - Throws: ``PlainTCPNotAllowed`` naming the addresses.
    package static func check(_ addresses: [SocketAddress], tls: Bool, allowsPlainTCP: Bool) throws(PlainTCPNotAllowed) {
        guard !tls, !allowsPlainTCP else { return }
        let reachable = addresses.filter { !$0.isLoopback }
        if !reachable.isEmpty { throw PlainTCPNotAllowed(addresses: reachable) }
    }
}
