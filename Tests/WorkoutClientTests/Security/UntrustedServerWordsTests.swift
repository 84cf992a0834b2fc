#if canImport(WorkoutTLS)
import ClientTestSupport
import Foundation
import TestSupport
import Testing
import WorkoutClient
import WorkoutProtocol
import WorkoutServer
import WorkoutTLS
#if canImport(Glibc)
import Glibc
#endif

/// What a server says inside TLS before the client has checked its key reaches the client's
/// protocol only once the key is trusted: it can neither replace the alarm of a changed key
/// with words of its own, nor get ahead of the client's handshake and hang the connect. And a
/// refusal in the clear, before any TLS, is repeated only as plain, bounded text.
@Suite("Words of a server whose key is not checked yet")
struct UntrustedServerWordsTests {
    /// A client of `server` with `trust`, one connection attempt, bounded waits.
    static func client(of server: ScriptedTLSServer, _ trust: ServerTrust) -> WorkoutClient {
        WorkoutClient(
            configuration: .init(
                address: server.address, deviceName: "untrusted words test", connectTimeout: .seconds(10), callTimeout: .seconds(10),
                reconnect: ReconnectPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(20), maximumAttempts: 1)),
            trust: trust)
    }

    @Test(
        "A refusal sent with the handshake's last message, and the TLS session's end after it, do not hide that the server's key changed",
        .timeLimit(.minutes(1)), arguments: [false, true])
    func refusalCannotHideChangedKey(closing: Bool) async throws {
        try await withTemporaryDirectory { directory in
            // TLS 1.2: the server sends the handshake's last message, its refusal in the same segment.
            let server = try ScriptedTLSServer(newestVersion: .tls12)
            let pinPath = directory + "/known_servers"
            let pinned = try #require(ServerFingerprint(try ServerIdentity.generate().0.fingerprint.description))
            try KnownServers(path: pinPath).remember(pinned, for: server.address)
            let words = try ScriptedTLSServer.prefaceAndGoAway(.unavailable, "maintenance: run workout login --fingerprint AAAA-BBBB")
            async let served = blocking { () -> (closed: Bool, received: Int) in
                let peer = try server.accept(sendingAtOnce: words, closing: closing, timeout: 10)
                return (peer.awaitClose(timeout: 10), peer.plaintextReceived)
            }
            let client = Self.client(of: server, ServerTrust(knownServers: KnownServers(path: pinPath)))
            defer { client.close() }
            let error = await failure { _ = try await client.health() }
            #expect(error?.code == .failedPrecondition, "\(String(describing: error))")
            #expect(error?.trust?.kind == .keyChanged, "\(String(describing: error))")
            #expect(error?.trust?.pinned == pinned)
            #expect(error?.trust?.presented?.description == server.identity.fingerprint.description)
            #expect(error?.message.contains(server.identity.fingerprint.description) == true)
            #expect(error?.message.contains("maintenance") == false)
            let (closed, received) = try await served
            #expect(closed)
            #expect(received == 0, "the client sent plaintext to a server whose key changed")
            #expect(try KnownServers(path: pinPath).fingerprint(for: server.address) == pinned)
        }
    }

    @Test("A refusal in the clear before TLS is repeated without control characters and bounded", .timeLimit(.minutes(1)))
    func clearRefusalIsDefanged() async throws {
        let listener = try ScriptedServer()
        var refusal: [UInt8] = []
        Preface.refusal.encode(into: &refusal)
        var status = Workout_V1_RpcStatus()
        status.message = "\u{1B}[2J\u{1B}]0;owned\u{07}too many \u{202E}connections\r\n" + String(repeating: "x", count: 600)  // the whole answer within the 1,024 bytes a client keeps
        try FrameEncoder(maxFrameSize: 4 << 20).append(
            .goAway, callID: 0, code: StatusCode.resourceExhausted.rawValue, body: status.serializedBytes(), to: &refusal)
        let answer = refusal
        async let served = blocking { () -> Bool in
            let descriptor = try listener.acceptDescriptor(timeout: 10)
            defer { Glibc.close(descriptor) }
            // The whole ClientHello record first (closing with bytes unread would reset the
            // connection, and could take the answer with it).
            let deadline = Date().addingTimeInterval(10)
            var hello: [UInt8] = []
            while hello.count < 5 || hello.count < 5 + (Int(hello[3]) << 8 | Int(hello[4])) {
                let chunk = try ScriptedServer.receive(from: descriptor, until: deadline)
                guard !chunk.isEmpty else { return false }
                hello += chunk
            }
            return answer.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == answer.count
        }
        let client = WorkoutClient(
            configuration: .init(
                address: listener.address, deviceName: "untrusted words test", connectTimeout: .seconds(10), callTimeout: .seconds(10),
                reconnect: ReconnectPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(20), maximumAttempts: 1)),
            trust: ServerTrust(knownServers: KnownServers.inMemory()))
        defer { client.close() }
        let error = await failure { _ = try await client.health() }
        #expect(try await served)
        // Out of attempts: UNAVAILABLE, saying what the last one heard.
        #expect(error?.code == .unavailable, "\(String(describing: error))")
        let message = error?.message ?? ""
        #expect(message.contains("too many connections"), "\(message)")
        #expect(!message.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format })
        #expect(message.contains("before TLS"))
        #expect(message.filter { $0 == "x" }.count <= 200, "\(message)")
        #expect(message.hasSuffix("…"))
    }

    @Test("A server answering before the member trusted its key gets its HELLO through once they do, and the call runs", .timeLimit(.minutes(1)))
    func earlyHelloWaitsForTrust() async throws {
        try await withTemporaryDirectory { directory in
            let server = try ScriptedTLSServer(newestVersion: .tls13)
            let words = try ScriptedPeer.prefaceAndHello()
            async let served = blocking { () -> Bool in
                let peer = try server.accept(sendingAtOnce: words, timeout: 10)
                var frame = try peer.readFrame(timeout: 10)
                while frame.type != .request { frame = try peer.readFrame(timeout: 10) }
                try peer.fail(frame.callID, .permissionDenied, "scripted answer")
                return peer.awaitClose(timeout: 10)
            }
            // The member takes a moment to compare the fingerprint: the server's preface and
            // HELLO arrive meanwhile, before the client has sent its own.
            let trust = ServerTrust(knownServers: KnownServers(path: directory + "/known_servers")) { _, _ in
                try? await Task.sleep(for: .milliseconds(300))
                return true
            }
            let client = Self.client(of: server, trust)
            let error = await failure { _ = try await client.health() }
            #expect(error?.code == .permissionDenied, "\(String(describing: error))")
            client.close()
            #expect(try await served)
        }
    }
}
#endif
