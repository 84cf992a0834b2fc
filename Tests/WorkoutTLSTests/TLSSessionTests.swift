import Testing
import WorkoutProtocol
import WorkoutServer
import WorkoutTLS

/// Two TLS sessions, a client and a server, talking through memory only.
@Suite("TLS sessions over memory BIOs")
struct TLSSessionTests {
    /// Moves every pending ciphertext byte of `from` into `to`.
    static func pump(_ from: TLSSession, _ to: TLSSession) throws {
        while from.hasPendingCiphertext {
            let count = try from.pendingCiphertext { bytes throws(TLSError) in
                try to.receive(bytes)
                return bytes.count
            }
            from.ciphertextSent(count)
        }
    }

    /// Runs the handshake to its end (a bounded number of rounds).
    static func handshake(_ client: TLSSession, _ server: TLSSession) throws {
        try client.advanceHandshake()
        for _ in 0..<10 where !(client.isHandshakeComplete && server.isHandshakeComplete) {
            try pump(client, server)
            try server.advanceHandshake()
            try pump(server, client)
            try client.advanceHandshake()
        }
    }

    /// Reads every plaintext byte `session` can decrypt now.
    static func readAll(_ session: TLSSession) throws -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try session.readPlaintext(into: $0) }
            if count == 0 { return received }
            received += buffer[..<count]
        }
    }

    static func pair(endorsed: Bool = false) throws -> (TLSSession, TLSSession, ServerIdentity) {
        var (identity, key) = try ServerIdentity.generate()
        if endorsed {
            let (next, _) = try ServerIdentity.generate()
            let endorsement = try KeyEndorsement(endorsing: next.fingerprint, by: key)
            (identity, key) = try ServerIdentity.generate(endorsements: [endorsement])
        }
        let server = try TLSSession(context: identity.makeTLSContext())
        let client = try TLSSession(context: TLSContext.client())
        return (client, server, identity)
    }

    @Test("Reading a KeyUpdate request makes the server answer with ciphertext of its own, though it wrote nothing")
    func keyUpdateIsAnsweredWhileReading() throws {
        let (client, server, _) = try Self.pair()
        try Self.handshake(client, server)
        try Self.pump(server, client)
        _ = try Self.readAll(client)
        #expect(!server.hasPendingCiphertext)
        for _ in 0..<100 { try client.requestKeyUpdate() }
        try Self.pump(client, server)
        #expect(try Self.readAll(server).isEmpty)
        // What a server must count against the connection's output limits.
        #expect(server.pendingCiphertextCount >= 100 * 20, "\(server.pendingCiphertextCount) bytes answered")
        // Both sides still agree on the keys.
        try Self.pump(server, client)
        _ = try Self.readAll(client)
        _ = try Array("after".utf8).withUnsafeBytes { try client.writePlaintext($0) }
        try Self.pump(client, server)
        #expect(try Self.readAll(server) == Array("after".utf8))
    }

    @Test("A server context limited to TLS 1.2 agrees on TLS 1.2 with the client, which pins the same key")
    func tls12Server() throws {
        let (identity, _) = try ServerIdentity.generate()
        let server = try TLSSession(context: TLSContext.server(
            certificatePEM: identity.certificatePEM, privateKeyPEM: identity.privateKeyPEM, newestVersion: .tls12))
        let client = try TLSSession(context: TLSContext.client())
        try Self.handshake(client, server)
        #expect(client.isHandshakeComplete && server.isHandshakeComplete)
        #expect(client.protocolVersion == "TLSv1.2")
        #expect(server.protocolVersion == "TLSv1.2")
        let key = try #require(client.peerPublicKey)
        #expect(KeyFingerprint(publicKey: key) == identity.fingerprint)
    }

    @Test("A client and a server complete a TLS 1.3 handshake and carry data both ways")
    func handshakeAndData() throws {
        let (client, server, identity) = try Self.pair()
        try Self.handshake(client, server)
        #expect(client.isHandshakeComplete && server.isHandshakeComplete)
        #expect(client.protocolVersion == "TLSv1.3")
        let key = try #require(client.peerPublicKey)
        #expect(KeyFingerprint(publicKey: key) == identity.fingerprint)

        let request = Array("WKRP request bytes".utf8) + [UInt8](repeating: 7, count: 100_000)
        var offset = 0
        var rounds = 0
        var received: [UInt8] = []
        while offset < request.count && rounds < 100 {
            rounds += 1
            offset += try request[offset...].withUnsafeBytes { try client.writePlaintext($0) }
            try Self.pump(client, server)
            received += try Self.readAll(server)
        }
        #expect(received == request)

        _ = try Array("answer".utf8).withUnsafeBytes { try server.writePlaintext($0) }
        try Self.pump(server, client)
        #expect(try Self.readAll(client) == Array("answer".utf8))

        client.close()
        try Self.pump(client, server)
        #expect(try Self.readAll(server).isEmpty)
        #expect(server.peerClosed)
    }

    @Test("The OpenSSL linked here frees buffers safely (CVE-2024-4741 fixed), as Debian 12's does")
    func opensslFreesBuffersSafely() {
        #expect(TLSSession.freeingBuffersIsSafe)
    }

    @Test("A quiet session gives its buffers back, not while a record is half received or ciphertext waits, and carries data after")
    func releasingBuffers() throws {
        let (client, server, _) = try Self.pair()
        #expect(!server.releaseBuffers(), "before the handshake")
        try Self.handshake(client, server)
        try Self.pump(server, client)
        _ = try Self.readAll(client)

        // Ciphertext that the socket has not taken yet.
        _ = try Array("pending".utf8).withUnsafeBytes { try server.writePlaintext($0) }
        #expect(!server.releaseBuffers())
        try Self.pump(server, client)
        #expect(try Self.readAll(client) == Array("pending".utf8))

        // Half a record received.
        _ = try [UInt8](repeating: 1, count: 3_000).withUnsafeBytes { try client.writePlaintext($0) }
        let half = try client.pendingCiphertext { bytes throws(TLSError) in
            try server.receive(UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count / 2)]))
            return bytes.count / 2
        }
        client.ciphertextSent(half)
        #expect(try Self.readAll(server).isEmpty)
        #expect(!server.releaseBuffers())
        try Self.pump(client, server)
        #expect(try Self.readAll(server) == [UInt8](repeating: 1, count: 3_000))

        // Quiet: released, on both sides (where the OpenSSL linked does it safely: 3.0.14 and
        // later), then both ways again.
        #expect(server.releaseBuffers() == TLSSession.freeingBuffersIsSafe)
        #expect(client.releaseBuffers() == TLSSession.freeingBuffersIsSafe)
        _ = try Array("after".utf8).withUnsafeBytes { try client.writePlaintext($0) }
        try Self.pump(client, server)
        #expect(try Self.readAll(server) == Array("after".utf8))
        _ = try Array("answer".utf8).withUnsafeBytes { try server.writePlaintext($0) }
        try Self.pump(server, client)
        #expect(try Self.readAll(client) == Array("answer".utf8))
    }

    @Test("A session says it holds part of a record from its first byte (header included) until the record is whole", arguments: [1, 4, 5, 6, 1_000])
    func holdsIncompleteRecord(received: Int) throws {
        let (client, server, _) = try Self.pair()
        #expect(!server.holdsIncompleteRecord, "before the handshake")
        try Self.handshake(client, server)
        try Self.pump(server, client)
        _ = try Self.readAll(client)
        #expect(!server.holdsIncompleteRecord)

        _ = try [UInt8](repeating: 2, count: 3_000).withUnsafeBytes { try client.writePlaintext($0) }
        let part = try client.pendingCiphertext { bytes throws(TLSError) in
            try server.receive(UnsafeRawBufferPointer(rebasing: bytes[..<received]))
            return received
        }
        client.ciphertextSent(part)
        #expect(try Self.readAll(server).isEmpty)
        #expect(server.holdsIncompleteRecord)
        try Self.pump(client, server)
        #expect(try Self.readAll(server) == [UInt8](repeating: 2, count: 3_000))
        #expect(!server.holdsIncompleteRecord)
    }

    @Test("Bytes that are not TLS fail the server's handshake with OpenSSL's reason, and are kept for diagnosis")
    func notTLS() throws {
        let (_, server, _) = try Self.pair()
        let preface = Preface.magic + [1, 1, 0, 0]
        try preface.withUnsafeBytes { try server.receive($0) }
        #expect(throws: TLSError.self) { try server.advanceHandshake() }
        do {
            try server.advanceHandshake()
        } catch {
            #expect(error.message.hasPrefix("TLS handshake failed"))
        }
        #expect(server.firstBytes == preface)
    }

    @Test("Plain protocol bytes sent to a TLS client fail its handshake")
    func plainServer() throws {
        let client = try TLSSession(context: TLSContext.client())
        try client.advanceHandshake()
        var refusal: [UInt8] = []
        Preface.refusal.encode(into: &refusal)
        refusal += [UInt8](repeating: 0, count: 32)
        try refusal.withUnsafeBytes { try client.receive($0) }
        #expect(throws: TLSError.self) { try client.advanceHandshake() }
        #expect(client.firstBytes.starts(with: Preface.magic))
    }

    @Test("The client reads the endorsements the server's certificate carries")
    func endorsementExtension() throws {
        let (client, server, identity) = try Self.pair(endorsed: true)
        try Self.handshake(client, server)
        let bytes = try #require(client.peerCertificateExtension(oid: KeyEndorsement.extensionOID))
        #expect(KeyEndorsement.decode(bytes) == identity.endorsements)
        #expect(identity.endorsements.count == 1)
        #expect(identity.endorsements[0].isValid)
    }
}
