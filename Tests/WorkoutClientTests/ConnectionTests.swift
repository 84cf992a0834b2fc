import ClientTestSupport
import Foundation
import Testing
import TestSupport
import WorkoutClient
import WorkoutProtocol

/// The connection's behaviour seen from the wire: a scripted server reads exactly what the
/// client sends and answers as each test needs.
@Suite("Client connection, against a scripted server")
struct ConnectionTests {
    private func client(_ server: ScriptedServer, token: SessionToken? = nil, retries: Int = 3) -> WorkoutClient {
        WorkoutClient(
            configuration: .init(
                address: server.address, deviceName: "test", connectTimeout: .seconds(2), callTimeout: .seconds(10),
                reconnect: ReconnectPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(100), maximumAttempts: 3),
                maximumRetries: retries, transportSecurity: .plainTCP()),
            sessionToken: token)
    }

    private func healthAnswer() -> Workout_V1_HealthResponse {
        var answer = Workout_V1_HealthResponse()
        answer.serving = true
        answer.serverAgent = "scripted"
        return answer
    }

    @Test("handshake, a call answered by id, and PING answered with the same bytes")
    func handshakeCallAndPing() async throws {
        let server = try ScriptedServer()
        let client = client(server)
        async let health = client.health()
        let peer = try await blocking { try server.accept() }
        #expect(peer.clientHello.acceptsCompressed)
        #expect(peer.clientHello.agent == "WorkoutClient/1")
        let request = try await blocking { try peer.readRequest() }
        #expect(request.code == MethodCatalog.health.number)
        #expect(request.deadline != nil, "the default call timeout travels as a deadline")
        try peer.ping([1, 2, 3, 4, 5, 6, 7, 8])
        let pong = try await blocking { try peer.readFrame() }
        #expect(pong.type == .pong)
        #expect(pong.body == [1, 2, 3, 4, 5, 6, 7, 8])
        try peer.respond(to: request.callID, with: healthAnswer())
        let answer = try await health
        #expect(answer.isServing)
        #expect(answer.serverAgent == "scripted")
        client.close()
    }

    @Test("answers are matched by call id, in any order")
    func answersOutOfOrder() async throws {
        let server = try ScriptedServer()
        let client = client(server)
        async let first = client.health()
        let peer = try await blocking { try server.accept() }
        let firstRequest = try await blocking { try peer.readRequest() }
        async let second = client.achievements()
        let secondRequest = try await blocking { try peer.readRequest() }
        #expect(secondRequest.callID > firstRequest.callID)
        var achievements = Workout_V1_AchievementsResponse()
        var one = Workout_V1_Achievement()
        one.achievementID = "workout_1"
        achievements.achievements = [one]
        try peer.respond(to: secondRequest.callID, with: achievements)
        try peer.respond(to: firstRequest.callID, with: healthAnswer())
        #expect(try await second.map(\.id) == ["workout_1"])
        #expect(try await first.isServing)
        client.close()
    }

    @Test("a deadline travels with the request and ends an unanswered call locally, with a CANCEL")
    func deadline() async throws {
        let server = try ScriptedServer()
        let client = client(server)
        // Connect first, so that the deadline covers the call alone.
        async let warmUp = client.health()
        let peer = try await blocking { try server.accept() }
        let first = try await blocking { try peer.readRequest() }
        try peer.respond(to: first.callID, with: healthAnswer())
        #expect(try await warmUp.isServing)

        let started = ContinuousClock.now
        async let outcome = failure { _ = try await client.health(timeout: .milliseconds(500)) }
        let request = try await blocking { try peer.readRequest() }
        let budget = try #require(request.deadline)
        #expect(budget > 0 && budget <= 500)
        let error = await outcome
        #expect(error?.code == .deadlineExceeded)
        #expect(ContinuousClock.now - started >= .milliseconds(490))
        let cancel = try await blocking { try peer.readFrame() }
        #expect(cancel.type == .cancel)
        #expect(cancel.callID == request.callID)
        client.close()
    }

    @Test("cancelling the calling task sends CANCEL and ends the call with CANCELLED")
    func cancellation() async throws {
        let server = try ScriptedServer()
        let client = client(server)
        let task = Task { await failure { _ = try await client.achievements() } }
        let peer = try await blocking { try server.accept() }
        let request = try await blocking { try peer.readRequest() }
        task.cancel()
        let cancel = try await blocking { try peer.readFrame() }
        #expect(cancel.type == .cancel)
        #expect(cancel.callID == request.callID)
        #expect(await task.value?.code == .cancelled)
        // The connection is still good for the next call.
        async let next = client.health()
        let nextRequest = try await blocking { try peer.readRequest() }
        try peer.respond(to: nextRequest.callID, with: healthAnswer())
        #expect(try await next.isServing)
        #expect(client.connectionsOpened == 1)
        client.close()
    }

    @Test("calls beyond the server's max_calls_in_flight wait in the client, not refused")
    func callsInFlightLimit() async throws {
        let server = try ScriptedServer()
        let client = client(server)
        let calls = Task {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<5 { group.addTask { try await client.health().isServing } }
                return try await group.reduce(into: 0) { count, serving in count += serving ? 1 : 0 }
            }
        }
        let peer = try await blocking { try server.accept(maxCallsInFlight: 2) }
        var pending = [try await blocking { try peer.readRequest() }, try await blocking { try peer.readRequest() }]
        await #expect(throws: ScriptedServer.TimedOut.self) {
            try await blocking { try peer.readRequest(timeout: 0.3) }
        }
        var answered = 0
        while answered < 5 {
            let request = pending.removeFirst()
            try peer.respond(to: request.callID, with: healthAnswer())
            answered += 1
            if answered <= 3 { pending.append(try await blocking { try peer.readRequest() }) }
        }
        #expect(try await calls.value == 5)
        client.close()
    }

    @Test("a call waiting for a free slot still ends at its deadline, without being sent")
    func deadlineWhileWaiting() async throws {
        let server = try ScriptedServer()
        let client = client(server)
        async let blocker = failure { _ = try await client.achievements() }
        let peer = try await blocking { try server.accept(maxCallsInFlight: 1) }
        let first = try await blocking { try peer.readRequest() }
        let waited = await failure { _ = try await client.health(timeout: .milliseconds(300)) }
        #expect(waited?.code == .deadlineExceeded)
        // It never reached the wire: the next frame is the answer-less first call's business only.
        await #expect(throws: ScriptedServer.TimedOut.self) {
            try await blocking { try peer.readRequest(timeout: 0.3) }
        }
        try peer.respond(to: first.callID, with: Workout_V1_AchievementsResponse())
        #expect(await blocker == nil)
        client.close()
    }

    @Test("GOAWAY: calls above its last id are retried on a new connection, calls below are answered")
    func goAway() async throws {
        let server = try ScriptedServer()
        let client = client(server)
        async let first = client.health()
        let peer = try await blocking { try server.accept() }
        let firstRequest = try await blocking { try peer.readRequest() }
        // Not idempotent, so it is retried only because the server says it never processed it.
        async let invite = client.createInvite(note: "for Mia")
        let secondRequest = try await blocking { try peer.readRequest() }
        try peer.goAway(lastCallID: firstRequest.callID)
        try peer.respond(to: firstRequest.callID, with: healthAnswer())
        #expect(try await first.isServing)
        #expect(try await blocking { peer.awaitClose() }, "the client closes once the calls below the GOAWAY are answered")

        let second = try await blocking { try server.accept() }
        let retried = try await blocking { try second.readRequest() }
        #expect(retried.code == secondRequest.code)
        #expect(retried.body == secondRequest.body)
        var created = Workout_V1_CreateInviteResponse()
        created.code = "ABCD-EFGH"
        try second.respond(to: retried.callID, with: created)
        #expect(try await invite.code == "ABCD-EFGH")
        #expect(client.connectionsOpened == 2)
        client.close()
    }

    @Test("a lost connection fails writes without ids with UNAVAILABLE, and retries reads")
    func lostConnection() async throws {
        let server = try ScriptedServer()
        let client = client(server)
        async let invite = failure { _ = try await client.createInvite() }
        let peer = try await blocking { try server.accept() }
        _ = try await blocking { try peer.readRequest() }
        async let read = client.health()
        _ = try await blocking { try peer.readRequest() }
        peer.close()
        #expect(await invite?.code == .unavailable, "its outcome is unknown: not retried")
        let second = try await blocking { try server.accept() }
        let retried = try await blocking { try second.readRequest() }
        #expect(retried.code == MethodCatalog.health.number)
        try second.respond(to: retried.callID, with: healthAnswer())
        #expect(try await read.isServing)
        client.close()
    }

    @Test("a new connection resumes the stored session before any other call")
    func resumesOnConnect() async throws {
        let server = try ScriptedServer()
        let token = try #require(SessionToken(base64: Data(repeating: 7, count: 32).base64EncodedString()))
        let client = client(server, token: token)
        async let profile = client.health()
        let peer = try await blocking { try server.accept() }
        let resume = try await blocking { try peer.readRequest() }
        #expect(resume.code == MethodCatalog.resume.number)
        #expect(try Workout_V1_ResumeRequest(serializedBytes: resume.body).sessionToken == Data(repeating: 7, count: 32))
        await #expect(throws: ScriptedServer.TimedOut.self, "nothing else is sent before Resume answers") {
            try await blocking { try peer.readRequest(timeout: 0.2) }
        }
        try peer.respond(to: resume.callID, with: Workout_V1_ResumeResponse())
        let request = try await blocking { try peer.readRequest() }
        #expect(request.code == MethodCatalog.health.number)
        try peer.respond(to: request.callID, with: healthAnswer())
        #expect(try await profile.isServing)
        #expect(client.sessionToken == token)
        client.close()
    }

    @Test("a session the server refuses to resume is forgotten")
    func refusedResume() async throws {
        let server = try ScriptedServer()
        let token = try #require(SessionToken(base64: Data(repeating: 9, count: 32).base64EncodedString()))
        let client = client(server, token: token)
        async let health = client.health()
        let peer = try await blocking { try server.accept() }
        let resume = try await blocking { try peer.readRequest() }
        try peer.fail(resume.callID, .unauthenticated, "session expired")
        let request = try await blocking { try peer.readRequest() }
        try peer.respond(to: request.callID, with: healthAnswer())
        #expect(try await health.isServing)
        #expect(client.sessionToken == nil)
        client.close()
    }

    @Test("a server that goes silent gets a PING, then the connection is given up")
    func keepalive() async throws {
        let server = try ScriptedServer()
        let client = client(server)
        async let invite = failure { _ = try await client.createInvite() }
        let peer = try await blocking { try server.accept(pingIntervalMilliseconds: 200) }
        _ = try await blocking { try peer.readRequest() }
        let ping = try await blocking { try peer.readFrame(timeout: 5) }
        #expect(ping.type == .ping)
        #expect(ping.body.count == 8)
        // No PONG, no answer: the client closes and the call's outcome is unknown.
        let error = await invite
        #expect(error?.code == .unavailable)
        #expect(error?.message.contains("stopped answering") == true)
        #expect(try await blocking { peer.awaitClose() })
        client.close()
    }

    @Test("an unreachable server fails with UNAVAILABLE after the allowed attempts, quickly")
    func unreachable() async throws {
        let port = try ScriptedServer().port  // closed again at once: nothing listens there
        let client = WorkoutClient(configuration: .init(
            address: ServerAddress(host: "127.0.0.1", port: port), reconnect: .interactive, transportSecurity: .plainTCP()))
        let started = ContinuousClock.now
        let error = await failure { _ = try await client.health() }
        #expect(error?.code == .unavailable)
        #expect(error?.message.contains("cannot reach") == true)
        // Two attempts refused at once and one short backoff: far below the default patience.
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test("a server error status reaches the caller with its message and field")
    func errorStatus() async throws {
        let server = try ScriptedServer()
        let client = client(server)
        async let logged = failure { _ = try await client.logWeight(WeightEntry(weightKg: 70)) }
        let peer = try await blocking { try server.accept() }
        let request = try await blocking { try peer.readRequest() }
        // A refusal the client cannot foresee (it checks bounds before sending): the scripted
        // server refuses a valid entry.
        try peer.fail(request.callID, .invalidArgument, "entry.weight_kg must be at most 500", field: "entry.weight_kg")
        let error = try #require(await logged)
        #expect(error.code == .invalidArgument)
        // Named as the Swift call `logWeight(entry)` names it, the wire's name kept.
        #expect(error.field == "entry.weightKg")
        #expect(error.wireField == "entry.weight_kg")
        #expect(error.message == "entry.weightKg must be at most 500")
        client.close()
    }
}
