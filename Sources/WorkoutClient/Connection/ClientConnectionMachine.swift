import WorkoutProtocol

/// Every rule of the client's side of one connection, with no socket, no Dispatch and no clock
/// of its own.
///
/// The driver (``ClientConnection``) feeds it events with the time — calls started and
/// abandoned, bytes that arrived, bytes the socket took, timer ticks — and carries out the
/// ``ClientConnectionAction``s it returns; what the server should receive waits in ``output``.
/// What it decides, and nobody else:
///
/// 1. **Handshake** (PROTOCOL.md 4): our preface and HELLO go out at once; the server's preface
///    must accept a version we offered; its HELLO gives the limits; a GOAWAY instead is a
///    refusal; all within `handshakeTimeout`.
/// 2. **Calls** (8): ids from one ``CallIDSequence``; beyond the server's `max_calls_in_flight`
///    calls wait in a FIFO instead of being refused; an abandoned call (deadline, cancel) gets a
///    CANCEL and keeps its slot until its final frame arrives.
/// 3. **Deadlines** (9): the remaining budget is sent with the REQUEST, and kept locally too:
///    whichever comes first ends the call.
/// 4. **Keepalive** (12): while calls wait, a silent interval gets a PING and a silent timeout
///    after it closes the connection, so a vanished (or hung) server cannot leave a call waiting
///    forever; each the shorter of the ``KeepalivePolicy``'s and the server's `ping_interval`.
/// 5. **GOAWAY** (13): no new calls; calls above its last id fail as *not processed* (safe to
///    retry anywhere); the rest are answered; then the connection closes.
///
/// Once closed, every event is ignored, and every call still waiting has been failed.
struct ClientConnectionMachine {
    /// What the client announces and how long opening may take.
    struct Options: Sendable {
        /// The client software, sent in the HELLO (at most 128 bytes).
        var agent = "WorkoutClient/1"
        /// The largest frame payload we accept, and our inflate cap.
        var maxFrameSize = HandshakeLimits.defaultMaxFrameSize
        /// How long connecting may take, and then the handshake as well.
        var connectTimeout: Duration = .seconds(5)
        /// When to ping a silent server while calls wait, and when to give it up.
        var keepalive = KeepalivePolicy()
    }

    /// Where the connection is in its life.
    enum Phase {
        /// Our preface and HELLO are out; the server's are awaited.
        case handshaking
        /// Calls are served.
        case ready
        /// GOAWAY arrived: no new calls; calls up to its last id still get answers.
        case draining
        /// Done, for this reason.
        case closed(WorkoutError)
    }

    /// A call, from its start to its final frame (or until its caller stops waiting).
    private struct Call {
        let method: UInt32
        var body: [UInt8]
        let isStream: Bool
        let deadline: ConnectionInstant?
        /// The call id once the REQUEST is out (0 before).
        var callID: UInt32 = 0
    }

    /// The options the connection was opened with.
    let options: Options
    /// Where the connection is.
    private(set) var phase = Phase.handshaking
    /// What the server should receive and the socket has not taken yet.
    private(set) var output = OutputBuffer()
    /// The server's HELLO, once it arrived.
    private(set) var serverHello: Workout_V1_ServerHello?

    private var decoder = FrameDecoder(role: .client)
    private var encoder = FrameEncoder()
    private var callIDs = CallIDSequence()
    /// Calls whose callers wait for an outcome.
    private var calls: [ClientCallHandle: Call] = [:]
    /// Calls whose REQUEST is out and whose final frame has not arrived, by call id; `nil` for
    /// an abandoned call (it still counts against the server's limit).
    private var inFlight: [UInt32: ClientCallHandle?] = [:]
    /// Calls waiting for a free slot, oldest first.
    private var waiting: [ClientCallHandle] = []
    private var maxCallsInFlight = HandshakeLimits.defaultMaxCallsInFlight
    private var nextHandle: UInt64 = 1
    private var keepalive: Keepalive?
    private let openedAt: ConnectionInstant
    /// The earliest local deadline, possibly stale (earlier than the truth).
    private var earliestDeadline: ConnectionInstant?
    private var armedAt: ConnectionInstant?

    /// A connection whose socket just connected at `now`: our preface and HELLO are queued.
    init(options: Options, now: ConnectionInstant) {
        self.options = options
        self.openedAt = now
        var hello = Workout_V1_ClientHello()
        hello.agent = String(decoding: options.agent.utf8.prefix(128), as: UTF8.self)
        hello.maxFrameSize = UInt32(options.maxFrameSize)
        hello.acceptsCompressed = true
        hello.maxDecompressedSize = UInt32(options.maxFrameSize)
        let body = (try? hello.serializedBytes()) ?? []
        output.append { bytes in
            Preface(offering: Handshake.supportedVersions).encode(into: &bytes)
            Frame(type: .hello, body: body).encode(into: &bytes)
        }
    }

    /// Whether the connection is closed.
    var isClosed: Bool {
        if case .closed = phase { return true }
        return false
    }

    // MARK: - Events

    /// Arms the handshake timer (call once, after the sources started).
    mutating func start(now: ConnectionInstant) -> [ClientConnectionAction] {
        var actions: [ClientConnectionAction] = []
        settle(now: now, &actions)
        return actions
    }

    /// A caller starts a call; the handle names it in later events and actions.
    mutating func startCall(
        method: UInt32, body: [UInt8], isStream: Bool, deadline: ConnectionInstant?, now: ConnectionInstant
    ) -> (ClientCallHandle, [ClientConnectionAction]) {
        var actions: [ClientConnectionAction] = []
        let handle = ClientCallHandle(value: nextHandle)
        nextHandle += 1
        switch phase {
        case .closed(let error):
            actions.append(.fail(handle, CallFailure(disposition: .notProcessed, error: error)))
            return (handle, actions)
        case .draining:
            actions.append(.fail(handle, CallFailure(disposition: .notProcessed, error: .unavailable("the connection is closing"))))
            return (handle, actions)
        case .handshaking, .ready:
            break
        }
        calls[handle] = Call(method: method, body: body, isStream: isStream, deadline: deadline)
        if let deadline { earliestDeadline = min(earliestDeadline ?? deadline, deadline) }
        waiting.append(handle)
        startWaiting(now: now, &actions)
        settle(now: now, &actions)
        return (handle, actions)
    }

    /// The caller stopped waiting (its task was cancelled, its stream dropped): a started call
    /// gets a CANCEL and keeps its slot until its final frame; a waiting one is dropped.
    mutating func abandon(_ handle: ClientCallHandle, _ error: WorkoutError, now: ConnectionInstant) -> [ClientConnectionAction] {
        var actions: [ClientConnectionAction] = []
        guard let call = calls.removeValue(forKey: handle) else { return actions }
        if call.callID == 0 {
            waiting.removeAll { $0 == handle }
        } else {
            inFlight[call.callID] = .some(nil)
            if case .ready = phase {
                output.append { Frame(type: .cancel, callID: call.callID).encode(into: &$0) }
            }
        }
        actions.append(.fail(handle, .final(error)))
        settle(now: now, &actions)
        return actions
    }

    /// Bytes arrived from the server.
    mutating func received(_ bytes: UnsafeRawBufferPointer, now: ConnectionInstant) -> [ClientConnectionAction] {
        var actions: [ClientConnectionAction] = []
        guard !isClosed else { return actions }
        keepalive?.heard(at: now)
        decoder.append(bytes)
        do {
            if decoder.peerPreface == nil {
                guard let preface = try decoder.readPreface() else { return actions }
                // A refusal (0/0) is followed by the GOAWAY that says why.
                if preface != .refusal, let version = preface.versions, !Handshake.supportedVersions.contains(version.lowerBound) {
                    close(.unavailable("the server chose protocol version \(version.lowerBound), which this client does not speak"), &actions)
                    return actions
                }
            }
            while !isClosed, let frame = try decoder.nextFrame() {
                handle(frame, now: now, &actions)
            }
        } catch {
            close(WorkoutError(code: error.status, message: "the server broke the protocol: \(error.message)"), &actions)
            return actions
        }
        settle(now: now, &actions)
        return actions
    }

    /// The socket took `count` bytes of ``output``.
    mutating func wrote(_ count: Int) {
        output.consume(count)
    }

    /// The timer fired (or any moment): applies every time limit that has passed by `now`.
    mutating func tick(now: ConnectionInstant) -> [ClientConnectionAction] {
        var actions: [ClientConnectionAction] = []
        armedAt = nil
        switch phase {
        case .closed:
            return actions
        case .handshaking:
            if now >= openedAt + options.connectTimeout {
                close(.unavailable("the server did not complete the handshake within \(options.connectTimeout)"), &actions)
                return actions
            }
        case .ready, .draining:
            switch keepalive?.check(at: now, watching: !inFlight.isEmpty) ?? .wait {
            case .wait:
                break
            case .sendPing:
                output.append { Frame(type: .ping, body: Keepalive.pingPayload(at: now)).encode(into: &$0) }
            case .peerUnresponsive:
                close(.unavailable("the server stopped answering"), &actions)
                return actions
            }
        }
        expireDeadlines(now: now, &actions)
        settle(now: now, &actions)
        return actions
    }

    /// The socket failed or the peer closed: every call fails.
    mutating func connectionLost(_ error: WorkoutError) -> [ClientConnectionAction] {
        var actions: [ClientConnectionAction] = []
        close(error, &actions)
        return actions
    }

    // MARK: - Frames

    private mutating func handle(_ frame: Frame, now: ConnectionInstant, _ actions: inout [ClientConnectionAction]) {
        switch frame.type {
        case .hello:
            receiveHello(frame, now: now, &actions)
        case .response, .streamEnd:
            finish(frame, &actions)
            startWaiting(now: now, &actions)
            closeIfDrained(&actions)
        case .streamMessage:
            guard let handle = inFlight[frame.callID] ?? nil, calls[handle] != nil else { return }
            do {
                actions.append(.deliver(handle, try frame.decodedBody(maxDecompressedSize: options.maxFrameSize)))
            } catch {
                // PROTOCOL.md 14: a client fails the call locally (and cancels the stream).
                actions.append(contentsOf: abandon(handle, WorkoutError(code: error.status, message: "bad stream message: \(error.message)"), now: now))
            }
        case .ping:
            output.append { Frame(type: .pong, body: frame.body).encode(into: &$0) }
        case .goAway:
            receiveGoAway(GoAwayNotice(frame), &actions)
        default:
            break  // PONG
        }
    }

    private mutating func receiveHello(_ frame: Frame, now: ConnectionInstant, _ actions: inout [ClientConnectionAction]) {
        guard case .handshaking = phase else { return }
        guard let hello = try? Workout_V1_ServerHello(serializedBytes: frame.body) else {
            close(.unavailable("the server sent a HELLO that does not decode"), &actions)
            return
        }
        serverHello = hello
        let peerLimit = hello.maxFrameSize == 0 ? HandshakeLimits.defaultMaxFrameSize : Int(hello.maxFrameSize)
        encoder = FrameEncoder(
            maxFrameSize: peerLimit, compressionEnabled: hello.acceptsCompressed,
            maxDecompressedSize: hello.maxDecompressedSize == 0 ? peerLimit : Int(hello.maxDecompressedSize))
        decoder.maxFrameSize = options.maxFrameSize
        maxCallsInFlight = hello.maxCallsInFlight == 0 ? HandshakeLimits.defaultMaxCallsInFlight : Int(hello.maxCallsInFlight)
        // The shorter of ours and the server's announced interval, for both waits.
        let announced = Duration.milliseconds(Int64(hello.pingIntervalMs))
        keepalive = Keepalive(
            interval: Self.shorter(options.keepalive.interval, announced), timeout: Self.shorter(options.keepalive.timeout, announced), now: now)
        phase = .ready
        actions.append(.handshakeCompleted(hello))
        startWaiting(now: now, &actions)
    }

    /// The shorter of two durations, `.zero` counting as none.
    private static func shorter(_ a: Duration, _ b: Duration) -> Duration {
        a == .zero ? b : b == .zero ? a : min(a, b)
    }

    private mutating func receiveGoAway(_ notice: GoAwayNotice, _ actions: inout [ClientConnectionAction]) {
        if case .handshaking = phase {
            let message = notice.message.isEmpty ? "the server refused the connection" : "the server refused the connection: \(notice.message)"
            close(WorkoutError(code: notice.status == .ok ? .unavailable : notice.status, message: message), &actions)
            return
        }
        let explanation = notice.message.isEmpty ? "the server is closing the connection" : "the server is closing the connection (\(notice.message))"
        actions.append(.stopNewCalls)
        for callID in inFlight.keys.sorted() where !notice.mayHaveProcessed(callID) {
            if let handle = inFlight.removeValue(forKey: callID) ?? nil, calls.removeValue(forKey: handle) != nil {
                actions.append(.fail(handle, CallFailure(disposition: .notProcessed, error: .unavailable(explanation))))
            }
        }
        failWaiting(CallFailure(disposition: .notProcessed, error: .unavailable(explanation)), &actions)
        phase = .draining
        closeIfDrained(&actions)
    }

    /// A call's final frame: its outcome, unless its caller stopped waiting.
    private mutating func finish(_ frame: Frame, _ actions: inout [ClientConnectionAction]) {
        guard let entry = inFlight.removeValue(forKey: frame.callID), let handle = entry,
              let call = calls.removeValue(forKey: handle) else { return }
        let body: [UInt8]
        do {
            body = try frame.decodedBody(maxDecompressedSize: options.maxFrameSize)
        } catch {
            actions.append(.fail(handle, .final(WorkoutError(code: error.status, message: "bad answer from the server: \(error.message)"))))
            return
        }
        let status = StatusCode(rawValue: frame.code)
        if status != .ok {
            actions.append(.fail(handle, .final(WorkoutError(code: status, statusBody: body))))
        } else if call.isStream {
            actions.append(.finish(handle))
        } else {
            actions.append(.deliver(handle, frame.type == .response ? body : []))
        }
    }

    // MARK: - Sending

    /// Sends waiting calls while the server's limit leaves room.
    private mutating func startWaiting(now: ConnectionInstant, _ actions: inout [ClientConnectionAction]) {
        guard case .ready = phase else { return }
        while !waiting.isEmpty && inFlight.count < maxCallsInFlight {
            send(waiting.removeFirst(), now: now, &actions)
        }
    }

    private mutating func send(_ handle: ClientCallHandle, now: ConnectionInstant, _ actions: inout [ClientConnectionAction]) {
        guard var call = calls[handle] else { return }
        guard let callID = callIDs.next() else {
            calls[handle] = nil
            actions.append(.fail(handle, CallFailure(disposition: .notProcessed, error: .unavailable("call ids are used up on this connection"))))
            actions.append(.stopNewCalls)
            return
        }
        var budget: UInt32?
        if let deadline = call.deadline {
            guard deadline > now else {
                calls[handle] = nil
                actions.append(.fail(handle, .final(WorkoutError(code: .deadlineExceeded, message: "the deadline passed before the call was sent"))))
                return
            }
            budget = UInt32(clamping: (deadline.since(now).wholeNanoseconds + 999_999) / 1_000_000)
        }
        do {
            try output.append { bytes throws(ProtocolError) in
                try encoder.append(.request, callID: callID, code: call.method, deadline: budget, body: call.body, to: &bytes)
            }
        } catch {
            calls[handle] = nil
            actions.append(.fail(handle, .final(WorkoutError(code: error.status, message: error.message))))
            return
        }
        if inFlight.isEmpty { keepalive?.heard(at: now) }  // silence counts from when we start waiting
        call.callID = callID
        call.body = []
        calls[handle] = call
        inFlight[callID] = handle
    }

    // MARK: - Time

    private mutating func expireDeadlines(now: ConnectionInstant, _ actions: inout [ClientConnectionAction]) {
        guard let earliest = earliestDeadline, earliest <= now else { return }
        earliestDeadline = nil
        for (handle, call) in calls.sorted(by: { $0.key.value < $1.key.value }) {
            guard let deadline = call.deadline else { continue }
            if deadline <= now {
                actions.append(contentsOf: abandon(handle, WorkoutError(code: .deadlineExceeded, message: "deadline exceeded"), now: now))
            } else {
                earliestDeadline = min(earliestDeadline ?? deadline, deadline)
            }
        }
    }

    /// After every event: the timer.
    private mutating func settle(now: ConnectionInstant, _ actions: inout [ClientConnectionAction]) {
        guard !isClosed else { return }
        var next: ConnectionInstant?
        func consider(_ instant: ConnectionInstant?) {
            guard let instant else { return }
            next = min(next ?? instant, instant)
        }
        if case .handshaking = phase { consider(openedAt + options.connectTimeout) }
        consider(keepalive?.nextCheck(watching: !inFlight.isEmpty))
        consider(earliestDeadline)
        if let next, armedAt.map({ next < $0 }) ?? true {
            armedAt = next
            actions.append(.armTimer(next))
        }
    }

    // MARK: - Closing

    private mutating func failWaiting(_ failure: CallFailure, _ actions: inout [ClientConnectionAction]) {
        for handle in waiting where calls.removeValue(forKey: handle) != nil {
            actions.append(.fail(handle, failure))
        }
        waiting = []
    }

    private mutating func closeIfDrained(_ actions: inout [ClientConnectionAction]) {
        if case .draining = phase, inFlight.isEmpty {
            close(.unavailable("the server closed the connection"), &actions)
        }
    }

    /// Closes: calls sent fail with an unknown outcome, calls never sent as not processed.
    private mutating func close(_ error: WorkoutError, _ actions: inout [ClientConnectionAction]) {
        guard !isClosed else { return }
        let wasHandshaking: Bool
        if case .handshaking = phase { wasHandshaking = true } else { wasHandshaking = false }
        phase = .closed(error)
        for callID in inFlight.keys.sorted() {
            if let handle = inFlight[callID] ?? nil, calls.removeValue(forKey: handle) != nil {
                actions.append(.fail(handle, CallFailure(disposition: .outcomeUnknown, error: error)))
            }
        }
        inFlight = [:]
        failWaiting(CallFailure(disposition: .notProcessed, error: error), &actions)
        output.discard()
        actions.append(.stopNewCalls)
        actions.append(.close(error, duringHandshake: wasHandshaking))
    }
}

/// Names one call on a ``ClientConnectionMachine``.
struct ClientCallHandle: Hashable, Sendable {
    /// A number unique on its connection.
    let value: UInt64
}

/// What ``ClientConnectionMachine`` asks its driver to do.
enum ClientConnectionAction {
    /// A unary call's response body, or a stream's next message.
    case deliver(ClientCallHandle, [UInt8])
    /// A stream ended OK.
    case finish(ClientCallHandle)
    /// A call failed; no other outcome follows.
    case fail(ClientCallHandle, CallFailure)
    /// The server's HELLO arrived: the connection is ready.
    case handshakeCompleted(Workout_V1_ServerHello)
    /// No new call may choose this connection.
    case stopNewCalls
    /// Call ``ClientConnectionMachine/tick(now:)`` at this moment (replacing an earlier setting).
    case armTimer(ConnectionInstant)
    /// Stop the sources and close the socket; every call has had its outcome.
    case close(WorkoutError, duringHandshake: Bool)
}
