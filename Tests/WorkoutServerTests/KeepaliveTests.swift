import Foundation
import ServerTestSupport
import Testing
import TestSupport
import WorkoutProtocol
import WorkoutServer

/// PROTOCOL.md 12: server PINGs come only after the HELLO exchange and after silence, one at a
/// time; any frame answers them; a client's PING is answered at once, also while calls are in
/// flight. No timing is asserted: reads wait, bounded by the connection's timeout.
@Suite("Keepalive as the specification says")
struct KeepaliveTests {
    @Test("A silent client gets a PING on call 0 with 8 bytes; its PONG keeps the connection")
    func serverPing() async throws {
        try await withServer(configure: {
            $0.pingInterval = .milliseconds(200)
            $0.idleTimeout = .seconds(60)
        }) { _, _, port in
            let connection = try TestConnection(port: port)
            try connection.handshake()
            #expect(connection.serverHello?.pingIntervalMs == 200)
            let ping = try connection.readFrame()
            #expect(ping.type == .ping && ping.callID == 0 && ping.body.count == 8)
            try connection.write([Frame(type: .pong, body: ping.body)])
            let health = try connection.call(MethodCatalog.health, Workout_V1_HealthRequest())
            #expect(health.serving)
            // One PING at a time: the next one comes only after another silence.
            let next = try connection.readFrame()
            #expect(next.type == .ping && next.body.count == 8)
        }
    }

    @Test("Over TLS, a quiet connection (its TLS buffers given back at the keepalive check) keeps working after each PING")
    func quietTLSConnection() async throws {
        try await withServer(tls: true, configure: {
            $0.pingInterval = .milliseconds(200)
            $0.idleTimeout = .seconds(60)
        }) { _, _, port in
            try await blocking {
                let connection = try TestConnection.owner(port: port)
                for _ in 0..<3 {
                    // The keepalive check that sends the PING finds no call in flight.
                    let ping = try connection.readFrame { $0.type == .ping }
                    try connection.write([Frame(type: .pong, body: ping.body)])
                    let health = try connection.call(MethodCatalog.health, Workout_V1_HealthRequest())
                    #expect(health.serving)
                }
            }
        }
    }

    @Test("A client's PING is answered with the same bytes while a Watch is in flight")
    func clientPing() async throws {
        try await withServer { _, _, port in
            let connection = try TestConnection.owner(port: port)
            let watch = try connection.sendRequest(MethodCatalog.watch, Workout_V1_WatchRequest())
            _ = try connection.readFrame { $0.callID == watch && $0.type == .streamMessage }
            let payload: [UInt8] = [9, 8, 7, 6, 5, 4, 3, 2]
            try connection.write([Frame(type: .ping, body: payload)])
            let pong = try connection.readFrame { $0.type == .pong }
            #expect(pong.body == payload && pong.callID == 0)
            try connection.cancel(watch)
            #expect(try connection.finalFrame(of: watch).status == .cancelled)
        }
    }
}
