import ClientTestSupport
import Foundation
import Testing
import TestSupport
import WorkoutProtocol
@testable import WorkoutClient

/// Cancellation reaches the connection however early it comes.
@Suite struct ClientConnectionCancellationTests {
    @Test func aCallFromATaskCancelledBeforeItStartsEndsCancelledAndSendsNothing() async throws {
        let server = try ScriptedServer()
        async let opened = ClientConnection.open(to: ServerAddress(host: "127.0.0.1", port: server.port), options: .init(), security: .plainTCP())
        let peer = try await blocking { try server.accept() }
        let connection = try await opened
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                _ = try await connection.unary(method: MethodCatalog.health.number, body: [], deadline: nil)
                return nil as StatusCode?
            } catch let failure as CallFailure {
                return failure.error.code
            } catch {
                return .unknown
            }
        }
        #expect(await cancelled.value == .cancelled)
        // Nothing was sent for it: the next REQUEST the server reads is the next call's, id 1.
        async let next = connection.unary(method: MethodCatalog.health.number, body: [], deadline: nil)
        let request = try await blocking { try peer.readRequest() }
        #expect(request.callID == 1)
        try peer.respond(to: request.callID, with: Workout_V1_HealthResponse())
        _ = try await next
        connection.close(reason: .unavailable("done"))
    }

    /// How a test stops a call while its client is still connecting.
    enum Interruption: String, CaseIterable, Sendable {
        /// The calling task is cancelled.
        case cancelTheCall
        /// The client is closed.
        case closeTheClient
    }

    @Test(
        "A call cancelled, or its client closed, while the client connects ends CANCELLED at once, not when connecting gives up",
        arguments: Interruption.allCases)
    func interruptedWhileConnectingEndsCancelled(_ interruption: Interruption) async throws {
        // The server accepts the TCP connection and never answers the ClientHello: the client
        // is stuck connecting until its (long) time limit, then would try again.
        let server = try ScriptedServer()
        let client = WorkoutClient(
            configuration: .init(
                address: server.address, connectTimeout: .seconds(60),
                reconnect: ReconnectPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(1), maximumAttempts: 3)),
            trust: ServerTrust(confirmNewServer: { _, _ in true }))
        defer { client.close() }
        let call = Task { await failure { _ = try await client.health() } }
        let peer = try await blocking { try server.acceptDescriptor() }
        defer { close(peer) }
        let started = ContinuousClock.now
        switch interruption {
        case .cancelTheCall: call.cancel()
        case .closeTheClient: client.close()
        }
        let error = await call.value
        #expect(error?.code == .cancelled, "\(String(describing: error))")
        // A generous bound, far below the 60 s the connect would have waited.
        #expect(ContinuousClock.now - started < .seconds(20))
        if interruption == .closeTheClient {
            // A call after close() is refused the same way.
            let after = await failure { _ = try await client.health() }
            #expect(after?.code == .cancelled)
        }
    }
}
