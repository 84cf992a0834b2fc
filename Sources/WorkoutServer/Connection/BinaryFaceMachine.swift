import WorkoutProtocol

/// The binary protocol's rules of a connection (PROTOCOL.md 4–15): the handshake, frames,
/// calls by id, CANCEL, keepalive, GOAWAY. It keeps the frame decoder and encoder and the call
/// ids; the calls themselves, the output and the shared time limits are the
/// ``ConnectionCore``'s, passed to every event.
struct BinaryFaceMachine: Sendable {
    private let methods: [UInt32: MethodDescriptor]
    private var decoder = FrameDecoder(role: .server)
    private var encoder = FrameEncoder()
    private var callIDs = CallIDSequence()
    private var keepalive: Keepalive

    /// The binary face of a connection accepted at `now`, serving `methods`.
    init(limits: ServerConnectionMachine.Limits, methods: [UInt32: MethodDescriptor], now: ConnectionInstant) {
        self.methods = methods
        self.keepalive = Keepalive(interval: limits.pingInterval, timeout: limits.idleTimeout, now: now)
    }

    // MARK: - Queries

    /// The largest body a stream message may carry to this client.
    var peerMaxFrameSize: Int { encoder.maxFrameSize }

    /// The highest call id accepted (L of a GOAWAY).
    var lastCallID: UInt32 { callIDs.last }

    /// The memory held for a frame still arriving (an empty decoder's kept capacity is not counted).
    var heldFrameBytes: Int { decoder.holdsIncompleteFrame ? decoder.bufferCapacity : 0 }

    /// The payload limit for frames whose header has not arrived yet.
    private func currentMaxFrameSize(_ core: ConnectionCore) -> Int {
        core.hasSession ? core.limits.maxFrameSize : min(core.limits.maxFrameSize, core.limits.maxFrameSizeWithoutSession)
    }

    /// The earliest moment a limit of this face may apply: the handshake's end, the next
    /// keepalive check, the idle timeout.
    func nextWake(_ core: ConnectionCore) -> ConnectionInstant? {
        switch core.phase {
        case .closed:
            return nil
        case .awaitingPreface, .awaitingHello:
            return core.openedAt + core.limits.handshakeTimeout
        case .open, .draining:
            var next = keepalive.nextCheck()
            if core.calls.isEmpty, core.limits.idleTimeout > .zero {
                let idle = core.lastCallActivity + core.limits.idleTimeout
                next = min(next ?? idle, idle)
            }
            return next
        }
    }

    // MARK: - Events

    /// Bytes arrived: the preface, then frames.
    mutating func received(_ bytes: UnsafeRawBufferPointer, _ core: inout ConnectionCore, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) {
        keepalive.heard(at: now)
        decoder.append(bytes)
        do {
            if core.phase == .awaitingPreface {
                guard let preface = try decoder.readPreface() else { return }
                switch Handshake.answer(to: preface) {
                case .success(let answer):
                    core.output.append { answer.encode(into: &$0) }
                    sendServerHello(&core)
                    core.phase = .awaitingHello
                case .failure(let error):
                    refuse(error, &core, &actions)
                    return
                }
            }
            var completedFrame = false
            while core.phase != .closed, let frame = try decoder.nextFrame() {
                completedFrame = true
                try handle(frame, &core, now: now, &actions)
            }
            if !decoder.holdsIncompleteFrame {
                core.incompleteFrameSince = nil
            } else if completedFrame || core.incompleteFrameSince == nil {
                core.incompleteFrameSince = now
            }
        } catch {
            if core.phase == .awaitingPreface {
                refuse(error, &core, &actions)
            } else if error.code == .frameTooLarge, !core.hasSession, core.phase != .awaitingHello {
                let message = "\(error.message): until a session is bound (Auth.Login, Auth.Register, Auth.Resume) frames carry at most \(currentMaxFrameSize(core)) bytes"
                closeWithError(error.status, message, log: "protocol error: \(message)", &core, &actions)
            } else {
                closeWithError(error.status, error.message, log: "protocol error: \(error.message)", &core, &actions)
            }
        }
    }

    /// A call's work ended: its final frame, and the session it bound or ended.
    mutating func callFinished(
        _ callID: UInt32, _ call: ConnectionCore.OpenCall, _ outcome: CallOutcome, session: SessionChange?,
        _ core: inout ConnectionCore, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]
    ) {
        sendFinal(callID, call, outcome, &core, now: now, &actions)
        switch session {
        case .bound?:
            core.hasSession = true
        case .ended?:
            core.hasSession = false
            endWatches(.failure(CallFailure(.unauthenticated, "the session ended")), &core, now: now, &actions)
        case nil:
            break
        }
        if session != nil, core.isServing { decoder.maxFrameSize = currentMaxFrameSize(core) }
    }

    /// A stream's message, as a STREAM_MESSAGE frame; one too large for the client ends the
    /// stream RESOURCE_EXHAUSTED.
    mutating func streamMessage(
        _ callID: UInt32, _ call: ConnectionCore.OpenCall, _ body: [UInt8],
        _ core: inout ConnectionCore, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]
    ) {
        do {
            try core.output.append { bytes throws(ProtocolError) in try encoder.append(.streamMessage, callID: callID, body: body, to: &bytes) }
        } catch {
            _ = core.removeCall(callID)
            actions.append(.stopWork(callID: callID))
            sendFinal(callID, call, .failure(CallFailure(.resourceExhausted, tooLarge(body.count))), &core, now: now, &actions)
        }
    }

    /// The timer fired: the handshake's limit, then the shared limits, idleness, keepalive and
    /// the calls' deadlines.
    mutating func tick(_ core: inout ConnectionCore, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) {
        switch core.phase {
        case .closed:
            return
        case .awaitingPreface, .awaitingHello:
            guard now >= core.openedAt + core.limits.handshakeTimeout else { return }
            if core.phase == .awaitingHello {
                closeWithError(.deadlineExceeded, "the handshake did not finish within \(core.limits.handshakeTimeout)", log: "handshake timed out", &core, &actions)
            } else {
                core.close(log: "handshake timed out", &actions)
            }
        case .open, .draining:
            let limits = core.limits
            if let expired = core.expiredLimit(now: now, arriving: "a frame", heldBytes: decoder.bufferedByteCount) {
                end(expired, &core, now: now, &actions)
                return
            }
            if core.calls.isEmpty, limits.idleTimeout > .zero, now >= core.lastCallActivity + limits.idleTimeout {
                goAway(.ok, "idle for \(limits.idleTimeout); reconnect when needed", &core)
                core.close(log: "idle timeout", &actions)
                return
            }
            if core.sessionlessIdleExpired(now: now) {
                goAway(.ok, "no session and no calls for \(limits.sessionlessIdleTimeout); reconnect when needed", &core)
                core.close(log: "idle without a session", &actions)
                return
            }
            switch keepalive.check(at: now) {
            case .wait:
                break
            case .sendPing:
                core.output.append { Frame(type: .ping, body: Keepalive.pingPayload(at: now)).encode(into: &$0) }
            case .peerUnresponsive:
                goAway(.unavailable, "keepalive timeout: no answer to a PING within \(limits.idleTimeout)", &core)
                core.close(log: "peer stopped answering pings", &actions)
                return
            }
            for ended in core.takeExpiredCalls(now: now, &actions) {
                sendFinal(ended.callID, ended.call, ended.outcome, &core, now: now, &actions)
            }
        }
    }

    /// A graceful end: GOAWAY naming the last call, Watches end UNAVAILABLE, calls in flight
    /// finish; before the handshake is done, closes at once.
    mutating func beginShutdown(message: String, _ core: inout ConnectionCore, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) {
        switch core.phase {
        case .closed, .draining:
            return
        case .awaitingPreface, .awaitingHello:
            core.close(log: "closed during the handshake: \(message)", &actions)
        case .open:
            core.phase = .draining
            endWatches(.failure(CallFailure(.unavailable, message)), &core, now: now, &actions)
            goAway(.ok, message, &core)
        }
    }

    /// The server needs the connection's place: GOAWAY RESOURCE_EXHAUSTED, close.
    mutating func shed(_ message: String, _ core: inout ConnectionCore, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) {
        switch core.phase {
        case .closed:
            break
        case .awaitingPreface:
            core.close(log: "shed during the handshake: \(message)", &actions)
        case .awaitingHello, .open, .draining:
            endWatches(.failure(CallFailure(.resourceExhausted, message)), &core, now: now, &actions)
            closeWithError(.resourceExhausted, message, log: "shed: \(message)", &core, &actions)
        }
    }

    // MARK: - Frames

    private mutating func handle(_ frame: Frame, _ core: inout ConnectionCore, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) throws(ProtocolError) {
        switch frame.type {
        case .hello:
            try receiveHello(frame, &core)
        case .request:
            guard core.isServing else {
                throw ProtocolError(.unexpectedHello, "REQUEST before the HELLO exchange")
            }
            try callIDs.accept(frame.callID)
            core.lastCallActivity = now
            startCall(frame, &core, now: now, &actions)
        case .cancel:
            core.lastCallActivity = now
            guard let call = core.removeCall(frame.callID) else { return }
            actions.append(.stopWork(callID: frame.callID))
            sendFinal(frame.callID, call, .failure(CallFailure(.cancelled, "cancelled by the client")), &core, now: now, &actions)
        case .ping:
            core.output.append { Frame(type: .pong, body: frame.body).encode(into: &$0) }
        case .pong:
            break
        default:
            throw ProtocolError(.unexpectedFrameType, "\(frame.type) frames may not be sent by a client")
        }
    }

    private func sendServerHello(_ core: inout ConnectionCore) {
        let limits = core.limits
        var hello = Workout_V1_ServerHello()
        hello.version = UInt32(Handshake.supportedVersions.upperBound)
        hello.serverAgent = limits.agent
        hello.serverVersion = limits.serverVersion
        hello.maxFrameSize = UInt32(limits.maxFrameSize)
        hello.maxCallsInFlight = UInt32(limits.maxCallsInFlight)
        hello.pingIntervalMs = limits.pingInterval.clampedMilliseconds
        hello.idleTimeoutMs = limits.idleTimeout.clampedMilliseconds
        hello.maxDecompressedSize = UInt32(limits.maxFrameSize)
        hello.acceptsCompressed = true
        let body = (try? hello.serializedBytes()) ?? []
        core.output.append { Frame(type: .hello, body: body).encode(into: &$0) }
    }

    private mutating func receiveHello(_ frame: Frame, _ core: inout ConnectionCore) throws(ProtocolError) {
        guard core.phase == .awaitingHello else {
            throw ProtocolError(.unexpectedHello, "a second HELLO")
        }
        let body = try frame.decodedBody(maxDecompressedSize: Handshake.preHelloMaxFrameSize)
        guard let hello = try? Workout_V1_ClientHello(serializedBytes: body) else {
            throw ProtocolError(.unexpectedHello, "the HELLO does not decode as workout.v1.ClientHello")
        }
        let allowed = HandshakeLimits.allowedFrameSizes
        for (name, value) in [("max_frame_size", hello.maxFrameSize), ("max_decompressed_size", hello.maxDecompressedSize)]
        where value != 0 && !allowed.contains(Int(value)) {
            throw ProtocolError(.invalidLimits, "ClientHello.\(name) \(value) is outside 0 or \(allowed.lowerBound)...\(allowed.upperBound)")
        }
        core.clientAgent = String(decoding: hello.agent.utf8.prefix(128), as: UTF8.self)
        let clientMax = hello.maxFrameSize == 0 ? HandshakeLimits.defaultMaxFrameSize : Int(hello.maxFrameSize)
        encoder = FrameEncoder(
            maxFrameSize: clientMax,
            compressionEnabled: hello.acceptsCompressed,
            maxDecompressedSize: hello.maxDecompressedSize == 0 ? nil : Int(hello.maxDecompressedSize))
        core.phase = .open
        decoder.maxFrameSize = currentMaxFrameSize(core)
    }

    // MARK: - Calls

    /// A REQUEST, checked in the order of PROTOCOL.md 8 (draining, calls in flight, method
    /// known, deadline 0, inflate, session) before the driver is told to run it.
    private mutating func startCall(_ frame: Frame, _ core: inout ConnectionCore, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) {
        let callID = frame.callID
        let descriptor = methods[frame.code]
        func refuse(_ status: StatusCode, _ message: String, _ core: inout ConnectionCore, _ actions: inout [ServerConnectionAction]) {
            let call = ConnectionCore.OpenCall(
                method: frame.code, isStream: descriptor?.isServerStreaming ?? false, isWatch: false,
                startedAt: now, deadline: nil, budgetMilliseconds: 0)
            sendFinal(callID, call, .failure(CallFailure(status, message)), &core, now: now, &actions)
        }
        guard core.phase == .open else {
            refuse(.unavailable, "the server is shutting down; call again on a new connection", &core, &actions)
            return
        }
        guard core.calls.count < core.limits.maxCallsInFlight else {
            refuse(.resourceExhausted, "too many calls in flight: at most \(core.limits.maxCallsInFlight) on this connection", &core, &actions)
            return
        }
        guard let descriptor else {
            refuse(.unimplemented, "this server has no method \(frame.code)", &core, &actions)
            return
        }
        if frame.deadline == 0 {
            refuse(.deadlineExceeded, "the call's deadline had passed when it arrived", &core, &actions)
            return
        }
        let body: [UInt8]
        do {
            body = try frame.decodedBody(maxDecompressedSize: currentMaxFrameSize(core))
        } catch {
            refuse(error.status, error.message, &core, &actions)
            return
        }
        if !core.hasSession, let refusal = CallAuthorization.refusal(descriptor, caller: nil) {
            refuse(refusal.status, refusal.details.message, &core, &actions)
            return
        }
        core.openCall(callID, descriptor, deadlineMilliseconds: frame.deadline, now: now)
        actions.append(.run(ServerCallStart(callID: callID, method: frame.code, body: body)))
    }

    /// Ends every open Watch with `outcome`.
    private func endWatches(_ outcome: CallOutcome, _ core: inout ConnectionCore, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) {
        for ended in core.takeWatches(outcome, &actions) {
            sendFinal(ended.callID, ended.call, ended.outcome, &core, now: now, &actions)
        }
    }

    /// Sends a call's one final frame: RESPONSE or STREAM_END, with its status. A response too
    /// large for the client becomes RESOURCE_EXHAUSTED saying so.
    private func sendFinal(
        _ callID: UInt32, _ call: ConnectionCore.OpenCall, _ outcome: CallOutcome,
        _ core: inout ConnectionCore, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]
    ) {
        let type: FrameType = call.isStream ? .streamEnd : .response
        var status = StatusCode.ok
        switch outcome {
        case .success(let body):
            do {
                try core.output.append { bytes throws(ProtocolError) in
                    try encoder.append(type, callID: callID, body: call.isStream ? [] : body, to: &bytes)
                }
            } catch {
                status = .resourceExhausted
                appendFailure(type, callID: callID, CallFailure(.resourceExhausted, tooLarge(body.count)), &core)
            }
        case .failure(let failure):
            status = failure.status
            appendFailure(type, callID: callID, failure, &core)
        }
        core.lastCallActivity = now
        actions.append(.callEnded(ServerCallSummary(callID: callID, method: call.method, status: status, duration: now.since(call.startedAt))))
    }

    private func appendFailure(_ type: FrameType, callID: UInt32, _ failure: CallFailure, _ core: inout ConnectionCore) {
        let body = (try? failure.details.serializedBytes()) ?? []
        core.output.append { Frame(type: type, callID: callID, code: failure.status.rawValue, body: body).encode(into: &$0) }
    }

    private func tooLarge(_ size: Int) -> String {
        "the response (\(size) bytes) is larger than this client's max frame size \(encoder.maxFrameSize)"
    }

    // MARK: - Closing

    /// Appends a GOAWAY naming the last call the server will finish.
    private func goAway(_ status: StatusCode, _ message: String, _ core: inout ConnectionCore) {
        let frame = GoAwayNotice(lastCallID: callIDs.last, status: status, message: message).frame
        core.output.append { frame.encode(into: &$0) }
    }

    /// Refuses a bad preface: the 0/0 preface, a GOAWAY saying why, then close.
    private func refuse(_ error: ProtocolError, _ core: inout ConnectionCore, _ actions: inout [ServerConnectionAction]) {
        var details = Workout_V1_RpcStatus()
        details.message = error.message
        let payload = (try? details.serializedBytes()) ?? []
        core.output.append { Handshake.writeRefusal(error, goAwayPayload: payload, into: &$0) }
        core.close(log: "handshake refused: \(error.message)", &actions)
    }

    /// A shared limit ran out: a slow reader's Watches end and it is dropped; else GOAWAY.
    private func end(_ expired: ConnectionCore.ExpiredLimit, _ core: inout ConnectionCore, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) {
        if expired.isSlowReader {
            endWatches(.failure(expired.failure), &core, now: now, &actions)
            core.close(log: expired.log, &actions)
        } else {
            closeWithError(expired.failure.status, expired.failure.details.message, log: expired.log, &core, &actions)
        }
    }

    /// A connection error: GOAWAY with its status, calls in flight abandoned, close.
    private func closeWithError(_ status: StatusCode, _ message: String, log: String, _ core: inout ConnectionCore, _ actions: inout [ServerConnectionAction]) {
        goAway(status, message, &core)
        core.close(log: log, &actions)
    }
}
