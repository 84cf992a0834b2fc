import WorkoutServer
import WorkoutTLS

/// One full TLS handshake on both sides, without sockets: a new client and a new server
/// ``TLSSession`` from contexts made once (as the server and the client library keep theirs),
/// carried to completion the way the connections' drivers carry it, then the server's public
/// key read out as the client does to check its pin.
final class TLSHandshake {
    private let serverContext: TLSContext
    private let clientContext: TLSContext

    /// Contexts for a fresh server identity.
    init() throws {
        let (identity, _) = try ServerIdentity.generate()
        serverContext = try identity.makeTLSContext()
        clientContext = try TLSContext.client()
    }

    /// One handshake, both sides' work: ClientHello to the client's last Finished, and the
    /// server key the client pins.
    func handshake() throws {
        let client = try TLSSession(context: clientContext)
        let server = try TLSSession(context: serverContext)
        try Self.complete(client, server)
        guard client.peerPublicKey != nil else { throw MicroBenchmarkFailure("the client saw no server key") }
    }

    /// Carries a new client's and server's handshake messages between them until both are done.
    ///
    /// - Throws: ``MicroBenchmarkFailure`` when ten flights do not complete it, or ``TLSError``.
    static func complete(_ client: TLSSession, _ server: TLSSession) throws {
        try client.advanceHandshake()
        for _ in 0..<10 where !(client.isHandshakeComplete && server.isHandshakeComplete) {
            try TLSRoundTrip.carry(client, to: server)
            try server.advanceHandshake()
            try TLSRoundTrip.carry(server, to: client)
            try client.advanceHandshake()
        }
        guard client.isHandshakeComplete, server.isHandshakeComplete else { throw MicroBenchmarkFailure("the TLS handshake did not complete") }
    }
}
