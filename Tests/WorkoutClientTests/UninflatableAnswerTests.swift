import ClientTestSupport
import Foundation
import Testing
import TestSupport
import WorkoutClient
import WorkoutProtocol

/// PROTOCOL.md 14: a client that cannot inflate a COMPRESSED answer fails that call with the
/// status the server would answer for the same fault (INVALID_ARGUMENT for a body that is not
/// a valid zlib stream, RESOURCE_EXHAUSTED past its cap), does not retry it, and keeps the
/// connection for other calls.
@Suite("Answers the client cannot inflate")
struct UninflatableAnswerTests {
    private func client(_ server: ScriptedServer) -> WorkoutClient {
        WorkoutClient(
            configuration: .init(
                address: server.address, deviceName: "test", connectTimeout: .seconds(2), callTimeout: .seconds(10),
                reconnect: ReconnectPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(100), maximumAttempts: 3),
                maximumRetries: 3, transportSecurity: .plainTCP()))
    }

    @Test("A bad zlib body is INVALID_ARGUMENT, one over the cap RESOURCE_EXHAUSTED; the connection stays")
    func uninflatable() async throws {
        let server = try ScriptedServer()
        let client = client(server)
        let bomb = Compression.deflate([UInt8](repeating: 0, count: 64 << 20))
        let bodies: [(body: [UInt8], status: StatusCode)] = [
            ([0x78, 0x9C, 0xDE, 0xAD, 0xBE, 0xEF], .invalidArgument),
            (bomb, .resourceExhausted),
        ]
        var peer: ScriptedPeer?
        for (body, status) in bodies {
            let health = Task { try await client.health() }
            if peer == nil { peer = try await blocking { try server.accept() } }
            let connection = try #require(peer)
            let request = try await blocking { try connection.readRequest() }
            connection.sendRaw(Frame(type: .response, callID: request.callID, isCompressed: true, body: body))
            let error = await failure { _ = try await health.value }
            #expect(error?.code == status, "\(String(describing: error))")
        }
        // Not retried, and the same connection answers the next call.
        async let health = client.health()
        let connection = try #require(peer)
        let request = try await blocking { try connection.readRequest() }
        var answer = Workout_V1_HealthResponse()
        answer.serving = true
        try connection.respond(to: request.callID, with: answer)
        #expect(try await health.isServing)
        client.close()
    }
}
