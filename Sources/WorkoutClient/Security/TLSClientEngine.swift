/// The seam between a client connection and a TLS implementation: a session without a socket,
/// which the connection feeds the bytes it reads and drains of the bytes it writes.
///
/// On Linux the engine is OpenSSL's (``OpenSSLClientEngine``). Elsewhere there is none: an app
/// on Apple platforms supplies a whole ``WorkoutTransport`` (Network.framework does TLS over
/// its own connection, not over a socket this library reads).
///
/// The engine must not verify the server's certificate against an authority (there is none):
/// the connection pins the server's public key itself after the handshake. It must check
/// that the server proved possession of that key in the handshake (every TLS stack does).
///
/// Used on the connection's queue only.
protocol TLSClientEngine: AnyObject {
    /// Takes ciphertext read from the socket.
    func receive(_ ciphertext: UnsafeRawBufferPointer) throws(WorkoutError)
    /// Moves the handshake on; whether it is complete.
    func advanceHandshake() throws(WorkoutError) -> Bool
    /// Whether the handshake is complete.
    var isHandshakeComplete: Bool { get }
    /// Decrypts into `buffer`; 0 when nothing (more) is there.
    func readPlaintext(into buffer: UnsafeMutableRawBufferPointer) throws(WorkoutError) -> Int
    /// Whether the server ended the TLS session.
    var peerClosed: Bool { get }
    /// Encrypts a prefix of `plaintext`; how many bytes it took.
    func writePlaintext(_ plaintext: UnsafeRawBufferPointer) throws(WorkoutError) -> Int
    /// Whether ciphertext waits for the socket.
    var hasPendingCiphertext: Bool { get }
    /// Runs `body` with the ciphertext waiting for the socket.
    func withPendingCiphertext<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R
    /// Marks `count` bytes of it as sent.
    func ciphertextSent(_ count: Int)
    /// Queues the close_notify alert.
    func close()
    /// The first bytes the server sent (to tell a server that does not speak TLS).
    var firstBytes: [UInt8] { get }
    /// The server certificate's public key, DER SubjectPublicKeyInfo, after the handshake.
    var peerPublicKey: [UInt8]? { get }
    /// The content of the server certificate's extension `oid`, if it has one.
    func peerCertificateExtension(oid: String) -> [UInt8]?
}

/// The platform's TLS engine for a new connection.
///
/// - Throws: ``WorkoutError`` (`UNIMPLEMENTED`) on a platform without one (macOS, iOS), saying
///   that the app supplies a ``WorkoutTransport`` there.
func makeTLSClientEngine() throws(WorkoutError) -> any TLSClientEngine {
    #if canImport(WorkoutTLS)
    return try OpenSSLClientEngine()
    #else
    throw WorkoutError(
        code: .unimplemented,
        message: "WorkoutClient has no TLS of its own on this platform: an app on macOS or iOS supplies a WorkoutTransport "
            + "built on Network.framework (WorkoutClient(configuration:sessionToken:trust:transport:), see the article "
            + "\"Supplying a transport\"), or connects over plain TCP where that is allowed")
    #endif
}
