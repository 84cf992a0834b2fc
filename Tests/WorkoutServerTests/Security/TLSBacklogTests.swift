import ServerTestSupport
import TestSupport
import Testing
import WorkoutProtocol
import WorkoutServer
#if canImport(Glibc)
import Glibc
#endif

/// What OpenSSL writes while the server reads (TLS 1.3 KeyUpdate answers) counts against the
/// connection's output limits: a client that asks for answers and never reads them is
/// paused, then dropped as a slow reader, instead of growing the server's memory.
@Suite("TLS ciphertext made while reading is bounded")
struct TLSBacklogTests {
    @Test("A client flooding KeyUpdate requests without reading the answers is paused, then dropped as a slow reader")
    func keyUpdateFloodIsBounded() async throws {
        try await withServer(tls: true, configure: {
            $0.slowReaderTimeout = .milliseconds(300)
            $0.sessionlessIdleTimeout = .seconds(120)
        }) { server, _, port in
            let result = try await blocking {
                let flooder = try TestConnection(port: port, timeout: 5, receiveBuffer: 4_096)
                try flooder.handshake()
                // 300,000 KeyUpdates are about 8 MB of records each way: more than the
                // loopback socket buffers hold, so a server that kept reading would hold the
                // rest of its answers in memory.
                let result = try flooder.sendKeyUpdates(300_000, sendTimeout: 2)
                // Without reading anything (which would let the server send its backlog),
                // wait a bounded while for the server to drop the connection.
                for _ in 0..<200 where server.statistics.openConnections > 0 { usleep(50_000) }
                _ = flooder
                return result
            }
            #expect(server.statistics.openConnections == 0, "the flooding connection is still open after \(result.sent) KeyUpdates (send errno \(result.failure))")
        }
    }
}
