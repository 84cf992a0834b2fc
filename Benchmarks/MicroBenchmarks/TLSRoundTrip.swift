import WorkoutServer
import WorkoutTLS

/// One call's TLS work on both sides, without sockets: a client and a server ``TLSSession``
/// after their handshake, carrying a request of ``requestBytes`` and a reply of ``replyBytes``
/// (the sizes of a meals-day call) the way the connections' drivers do — ciphertext handed
/// over, plaintext read until there is no more, ciphertext taken for the socket.
final class TLSRoundTrip {
    /// A `Queries.MealsOfDay` REQUEST frame's size, about.
    static let requestBytes = 120
    /// Its RESPONSE frame's size with 10 meals of 2 food items, about.
    static let replyBytes = 1_400

    private let client: TLSSession
    private let server: TLSSession
    private let request = [UInt8](repeating: 0x2A, count: requestBytes)
    private let reply = [UInt8](repeating: 0x17, count: replyBytes)
    private var scratch = [UInt8](repeating: 0, count: 64 * 1_024)

    /// Two sessions of a fresh server identity, their handshake done.
    init() throws {
        let (identity, _) = try ServerIdentity.generate()
        server = try TLSSession(context: identity.makeTLSContext())
        client = try TLSSession(context: TLSContext.client())
        try TLSHandshake.complete(client, server)
        // The server's session tickets, which the client reads with its first data.
        _ = try drain(client)
    }

    /// One request and its reply, both sides' TLS work.
    func roundTrip() throws {
        _ = try request.withUnsafeBytes { try client.writePlaintext($0) }
        try Self.carry(client, to: server)
        guard try drain(server) == Self.requestBytes else { throw MicroBenchmarkFailure("the server did not read the request") }
        _ = try reply.withUnsafeBytes { try server.writePlaintext($0) }
        try Self.carry(server, to: client)
        guard try drain(client) == Self.replyBytes else { throw MicroBenchmarkFailure("the client did not read the reply") }
    }

    /// Hands every pending ciphertext byte of `from` to `to`, as a socket would.
    static func carry(_ from: TLSSession, to: TLSSession) throws {
        while from.hasPendingCiphertext {
            let count = try from.pendingCiphertext { bytes throws(TLSError) in
                try to.receive(bytes)
                return bytes.count
            }
            from.ciphertextSent(count)
        }
    }

    /// Reads plaintext until there is no more, as the drivers do; how many bytes.
    private func drain(_ session: TLSSession) throws -> Int {
        var total = 0
        while true {
            let count = try scratch.withUnsafeMutableBytes { try session.readPlaintext(into: $0) }
            if count == 0 { return total }
            total += count
        }
    }
}
