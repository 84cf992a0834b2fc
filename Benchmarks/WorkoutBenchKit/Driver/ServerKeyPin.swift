package import WorkoutProtocol

/// The server key the load generator's TLS connections must see, pinned on first use as the
/// client library pins it: the first completed handshake records the fingerprint of the
/// server certificate's public key, and every later one must present the same key. So a TLS
/// connect costs the bench what it costs a device (reading the key out and hashing it), and a
/// run never measures a server other than the one it began with.
///
/// Shared by all the connections of one run; used on the driver's one thread only.
package final class ServerKeyPin {
    /// The fingerprint recorded by the first handshake, `nil` before it.
    package private(set) var pinned: KeyFingerprint?

    /// Nothing pinned yet.
    package init() {}

    /// Checks the key the server presented in a completed handshake (DER SubjectPublicKeyInfo).
    ///
    /// - Throws: ``BenchFailure`` when the server presented no key, or another key than the
    ///   first handshake's.
    package func check(_ publicKey: [UInt8]?) throws(BenchFailure) {
        guard let publicKey else { throw BenchFailure("--tls: the server presented no certificate key") }
        let fingerprint = KeyFingerprint(publicKey: publicKey)
        guard let pinned else {
            self.pinned = fingerprint
            return
        }
        guard fingerprint == pinned else {
            throw BenchFailure("--tls: the server's key changed during the run (pinned \(pinned), now \(fingerprint))")
        }
    }
}
