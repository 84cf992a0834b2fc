import ServerTestSupport
import TestSupport
import Testing
import WorkoutProtocol
import WorkoutServer
#if canImport(Glibc)
import Glibc
#endif

/// Half-open TLS handshakes hold a connection slot only until the handshake time limit, and
/// count against the same connection limits as any other connection.
@Suite("TLS handshakes within the connection limits")
struct TLSHandshakeLimitTests {
    /// The first bytes of a TLS ClientHello record (handshake, TLS 1.0 record version, 512
    /// bytes announced), and then nothing.
    static let partialClientHello: [UInt8] = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00]

    /// Whether the server closes `connection` (end of stream or reset) before its read timeout;
    /// what it sends before (a TLS alert) is skipped.
    static func closedByServer(_ connection: TestConnection) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        for _ in 0..<100 {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(connection.descriptor, $0.baseAddress, $0.count) }
            if count > 0 { continue }
            if count == 0 { return true }
            if errno == EINTR { continue }
            return errno == ECONNRESET
        }
        return false
    }

    @Test("A client that starts a TLS handshake and stalls is closed at the handshake time limit")
    func stalledHandshakeIsClosed() async throws {
        let context = try testServerIdentity.makeTLSContext()
        try await withServer(configure: { $0.tls = context; $0.handshakeTimeout = .milliseconds(300) }) { server, _, port in
            try await blocking {
                // A raw socket: the port is not registered as TLS, so no handshake is made for us.
                let stalled = try TestConnection(port: port, timeout: 5)
                try stalled.write(Self.partialClientHello)
                #expect(Self.closedByServer(stalled))
            }
            #expect(server.statistics.openConnections == 0)
        }
    }

    @Test("Stalled TLS handshakes count against the per-address limit: the next connection is refused")
    func stalledHandshakesCountAgainstTheLimit() async throws {
        let context = try testServerIdentity.makeTLSContext()
        try await withServer(configure: { $0.tls = context; $0.maxConnectionsPerSource = 3 }) { _, _, port in
            try await blocking {
                let stalled = try (0..<3).map { _ in try TestConnection(port: port, timeout: 5) }
                for connection in stalled { try connection.write(Self.partialClientHello) }
                // The refusal comes in the clear, before any TLS: the preface 0/0 and a GOAWAY.
                let refused = try TestConnection(port: port, timeout: 5)
                #expect(try refused.readPreface().isRefusal)
                let (status, details) = try TestConnection.status(of: try refused.readFrame())
                #expect(status == .resourceExhausted)
                #expect(details.message.contains("too many connections"))
                _ = stalled
            }
        }
    }

    @Test("When the server is full, a TLS connection without a session is shed with a GOAWAY it can read, sent through TLS")
    func shedOverTLS() async throws {
        try await withServer(tls: true, configure: { $0.maxConnections = 1 }) { server, _, port in
            try await blocking {
                // The port is registered as TLS: this connection completes the TLS handshake.
                let idle = try TestConnection(port: port, timeout: 5)
                try idle.handshake()
                let newcomer = try TestConnection(port: port, timeout: 5)
                try newcomer.handshake()
                let goAway = try idle.readFrame { $0.type == .goAway }
                let (status, details) = try TestConnection.status(of: goAway)
                #expect(status == .resourceExhausted)
                #expect(details.message.contains("the server is full"), "\(details.message)")
                #expect(idle.isClosedByServer())
                #expect(try newcomer.call(MethodCatalog.health, Workout_V1_HealthRequest()).serving)
            }
            #expect(server.statistics.shedConnections == 1)
        }
    }
}
