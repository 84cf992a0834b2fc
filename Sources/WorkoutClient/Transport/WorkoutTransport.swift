/// A byte stream to a Workout server that an app supplies, for the client's connection to run
/// over instead of its built-in one (a socket, and OpenSSL on Linux).
///
/// On macOS and iOS the client has no TLS of its own: an app there supplies a transport built on
/// Network.framework, as <doc:SupplyingATransport> describes, through
/// ``WorkoutClient/init(configuration:sessionToken:trust:transport:)``. Each connection the client
/// opens gets a new transport from that function, and uses it once.
///
/// The client calls ``connect(to:security:timeout:keyCheck:)`` once, then ``send(_:)`` and
/// ``receive()`` (each at most once at a time, each from its own task), and ``close()`` when it is
/// done or the connection failed. Everything above the byte stream (the protocol, the calls,
/// reconnecting, the key pins) stays the client's.
public protocol WorkoutTransport: AnyObject, Sendable {
    /// Connects to `address` and, over ``TransportSecurity/tls``, completes a TLS 1.2 or 1.3
    /// handshake in which the server's key is checked: the transport accepts the server's
    /// self-signed certificate without any other verification, hands the leaf certificate to
    /// `keyCheck` (``ServerKeyCheck/check(certificate:)``) and completes the handshake only
    /// when that returns; when it throws, the transport fails the handshake and throws. Over
    /// ``TransportSecurity/plainTCP(allowsPasswords:)`` it connects plain TCP, and checks no key.
    ///
    /// - Parameters:
    ///   - address: The server, as the member gave it (a name is resolved by the transport).
    ///   - security: TLS, or plain TCP.
    ///   - timeout: How long connecting and the TLS handshake may take.
    ///   - keyCheck: The client's check of the server's key.
    /// - Throws: Any error when the server cannot be reached or the handshake fails; a
    ///   ``WorkoutError`` is passed on as it is, any other error as `UNAVAILABLE` (then tried
    ///   again). A refusal of `keyCheck` is final whatever the transport throws.
    func connect(to address: ServerAddress, security: TransportSecurity, timeout: Duration, keyCheck: ServerKeyCheck) async throws

    /// Sends `bytes`, all of them, in order after what was sent before; returns once the
    /// transport took them (for backpressure: the client sends the next bytes only then).
    ///
    /// - Throws: When the connection failed.
    func send(_ bytes: [UInt8]) async throws

    /// The next bytes the server sent, at least one; empty when the server ended the stream.
    ///
    /// - Throws: When the connection failed (or was closed meanwhile).
    func receive() async throws -> [UInt8]

    /// Ends the connection (without waiting): a pending ``send(_:)`` or ``receive()`` then
    /// ends, with an error or an empty answer. Called once; may come before ``connect(to:security:timeout:keyCheck:)``
    /// finished, when the task opening the connection was cancelled.
    func close()

    /// Whether the address the transport is connected to is this machine's loopback, once
    /// connected: over plain TCP, passwords go only to such a peer (unless allowed). `false`
    /// when unknown.
    var peerIsLoopback: Bool { get }
}
