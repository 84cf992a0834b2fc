package import WorkoutProtocol
import HTTPTypes

/// Every rule of one server connection, with no socket, no Dispatch and no clock of its own.
///
/// The driver (``Connection``) feeds it events, each with the time: bytes that arrived,
/// bytes the socket took, a call's outcome, a stream's message, a timer tick, shutdown. The
/// machine answers with ``ServerConnectionAction``s to carry out, and keeps what the peer
/// should receive in ``output``. What it decides, and nobody else:
///
/// 1. **Handshake** (PROTOCOL.md 4): the client's preface is answered at once with ours and
///    our HELLO (we never wait for the client's HELLO); a bad preface is refused with the
///    0/0 preface and a GOAWAY; the ClientHello's sizes must be 0 or within bounds; the
///    whole handshake must finish within `handshakeTimeout`.
/// 2. **Calls** (8–10): ids strictly increase; a REQUEST is checked in the order of PROTOCOL.md
///    8 (draining, calls in flight, method known, deadline 0, inflate, session) before the
///    driver is told to run it; every call gets exactly one final frame; deadlines and CANCEL
///    end a call at once and tell the driver to stop its work.
/// 3. **Streams** (11): a stream's messages go out only while the output has room (flow
///    control is TCP's); a Watch ends OK at the maximum stream duration, UNAUTHENTICATED when
///    the session ends, UNAVAILABLE at shutdown.
/// 4. **Keepalive and idle** (12): a PING after `pingInterval` of silence, GOAWAY UNAVAILABLE
///    when nothing answers within `idleTimeout`; GOAWAY OK after `idleTimeout` without calls.
/// 5. **Backpressure** (15): at `maxBufferedOutput` unread bytes, or when the transport holds
///    more than `maxTransportBacklog` bytes for the socket (TLS ciphertext, including what
///    OpenSSL answers while reading, such as KeyUpdate replies), reading and producing pause;
///    they resume when both are down to half; a peer that leaves them full for
///    `slowReaderTimeout` is disconnected.
/// 6. **GOAWAY and draining** (13): shutdown sends GOAWAY naming the last call id, answers
///    later REQUESTs UNAVAILABLE, and closes when the calls are done and the output written,
///    including what the transport still held of it.
/// 7. **A device that holds without asking** (15): until a call binds a session, frames may
///    carry at most `maxFrameSizeWithoutSession` bytes (the methods without a session need no
///    more) and the connection may stay idle only `sessionlessIdleTimeout`; every frame must
///    arrive whole within `frameTimeout` of its first byte, and so must every TLS record
///    (the driver reports with ``transportRead(completedRecord:holdsIncompleteRecord:now:)``
///    what the transport holds); and the server may ``shed(_:now:)``
///    a connection whose place or memory it needs.
///
/// 8. **The HTTP face** (PROTOCOL.md 25): a first byte A–Z other than `W` makes the connection
///    HTTP/1.1. Requests are cut off by a bounded ``HTTPRequestParser``, one in hand at a time;
///    a bearer token is resolved once per connection (``ServerConnectionAction/authenticate(token:)``,
///    answered by ``authenticated(_:now:)``); the body's limit depends on it as a frame's does on
///    the session; a whole request must arrive within `frameTimeout`; keep-alive idle time and
///    requests per connection are limits of their own. Calls run as on the binary face; answers
///    are Connect's (``ConnectProtocol``).
///
/// Once ``phase`` is `.closed` every event is ignored.
package struct ServerConnectionMachine: Sendable {
    /// The settings the rules apply.
    package struct Limits: Sendable, Hashable {
        /// The largest frame payload accepted after the HELLO exchange.
        package var maxFrameSize = HandshakeLimits.defaultMaxFrameSize
        /// Calls in flight per connection (an open stream counts).
        package var maxCallsInFlight = HandshakeLimits.defaultMaxCallsInFlight
        /// Unread output at which reading and producing pause.
        package var maxBufferedOutput = 8 << 20
        /// Bytes the transport may hold for the socket (TLS ciphertext) before reading and
        /// producing pause: one full TLS write's ciphertext (64 KiB of plaintext) and 64 KiB
        /// more, which only records OpenSSL makes while reading can fill.
        package var maxTransportBacklog = 128 << 10
        /// How long the output may stay full before the peer is dropped.
        package var slowReaderTimeout: Duration = .seconds(30)
        /// How long the preface and HELLO may take.
        package var handshakeTimeout: Duration = .seconds(10)
        /// Silence without calls before GOAWAY OK; also how long a PING may go unanswered.
        package var idleTimeout: Duration = .seconds(300)
        /// Silence before the server sends a PING.
        package var pingInterval: Duration = .seconds(30)
        /// How long a Watch may run before it ends OK (the client resumes).
        package var maxStreamDuration: Duration = .seconds(24 * 3600)
        /// The server software, in ServerHello.
        package var agent = "workoutd"
        /// The server's version, in ServerHello.
        package var serverVersion = ""
        /// The largest frame payload accepted before a call bound a session.
        package var maxFrameSizeWithoutSession = Handshake.preHelloMaxFrameSize
        /// How long a connection without a session may go without calls before GOAWAY OK.
        package var sessionlessIdleTimeout: Duration = .seconds(15)
        /// How long a frame may take to arrive whole, from its first byte; on the HTTP face,
        /// how long a request (head and body) may take.
        package var frameTimeout: Duration = .seconds(30)
        /// HTTP: the largest request head (request line and header fields).
        package var maxHTTPHeadBytes = 16 << 10
        /// HTTP: the most header fields in a request.
        package var maxHTTPHeaderCount = 100
        /// HTTP: requests served on one connection before it is closed (the last answer says
        /// `Connection: close`).
        package var maxHTTPRequestsPerConnection = 10_000
        /// HTTP: how long a kept-alive connection with a session may wait for its next request
        /// (without a session, `sessionlessIdleTimeout` applies, as on the binary face).
        package var httpIdleTimeout: Duration = .seconds(60)

        /// The protocol's defaults.
        package init() {}
    }

    /// Where the connection is in its life.
    package enum Phase: Sendable, Hashable {
        /// Waiting for the client's 8-byte preface.
        case awaitingPreface
        /// Our preface and HELLO are out; waiting for the client's HELLO.
        case awaitingHello
        /// Calls are served.
        case open
        /// GOAWAY sent: calls in flight finish, new ones are answered UNAVAILABLE.
        case draining
        /// Done; every event is ignored.
        case closed
    }

    /// Which protocol the connection speaks, told by its first byte.
    package enum Face: Sendable, Hashable {
        /// Nothing received yet.
        case undecided
        /// The binary protocol: its preface begins with `W` (`WKRP`).
        case binary
        /// HTTP/1.1: a request line begins with a method, upper-case letters, none of which
        /// is `W`.
        case http
    }

    /// A call the driver is running.
    private struct OpenCall: Sendable {
        let method: UInt32
        let isStream: Bool
        /// A Watch: resumable, so it ends OK at the stream duration limit and with the session.
        let isWatch: Bool
        let startedAt: ConnectionInstant
        let deadline: ConnectionInstant?
        /// The deadline's budget as the client sent it, for the message.
        let budgetMilliseconds: UInt32
    }

    /// The rules' settings.
    package let limits: Limits
    /// Where the connection is.
    package private(set) var phase = Phase.awaitingPreface
    /// What the peer should receive and the socket has not taken yet.
    package private(set) var output = OutputBuffer()
    /// Whether a call has bound a session to the connection.
    package private(set) var hasSession = false
    /// The client software its HELLO named (at most 128 bytes); on the HTTP face, the last
    /// request's `User-Agent`.
    package private(set) var clientAgent = ""
    /// The protocol the connection speaks.
    package private(set) var face = Face.undecided
    /// The HTTP face's state, once the connection speaks HTTP.
    private var http: HTTPExchange?
    /// Where HTTP paths lead.
    private let httpRoutes: HTTPRoutes

    private let methods: [UInt32: MethodDescriptor]
    private var decoder = FrameDecoder(role: .server)
    private var encoder = FrameEncoder()
    private var callIDs = CallIDSequence()
    private var calls: [UInt32: OpenCall] = [:]
    private var keepalive: Keepalive
    private let openedAt: ConnectionInstant
    /// The last REQUEST, CANCEL or final frame: what the idle timeout counts from.
    private var lastCallActivity: ConnectionInstant
    /// Since when the output or the transport's backlog has been full (reading and producing paused).
    private var backedUpSince: ConnectionInstant?
    /// Bytes the transport holds for the socket that are no longer in ``output`` (the driver
    /// reports them with ``wrote(_:transportBacklog:now:)``).
    package private(set) var transportBacklog = 0
    /// Since when the frame the decoder holds part of has been arriving.
    private var incompleteFrameSince: ConnectionInstant?
    /// Since when the transport has held part of a TLS record that has not arrived whole.
    private var incompleteRecordSince: ConnectionInstant?
    /// The earliest call deadline or stream end, possibly stale (earlier than the truth).
    private var earliestCallTimer: ConnectionInstant?
    /// When the driver's timer is set to fire.
    private var armedAt: ConnectionInstant?

    /// The method that streams changes live (ends OK at the duration limit, with the session).
    private static let watchMethod = MethodCatalog.watch.descriptor.number

    /// A connection accepted at `now`, serving `methods` (over HTTP at the paths of `httpRoutes`,
    /// by default those of `methods`).
    package init(limits: Limits, methods: [UInt32: MethodDescriptor], httpRoutes: HTTPRoutes? = nil, now: ConnectionInstant) {
        self.limits = limits
        self.methods = methods
        self.httpRoutes = httpRoutes ?? HTTPRoutes(methods: methods)
        self.openedAt = now
        self.lastCallActivity = now
        self.keepalive = Keepalive(interval: limits.pingInterval, timeout: limits.idleTimeout, now: now)
    }

    // MARK: - Queries

    /// Whether a stream's producer may send now: the call is open and the output has room.
    package func canProduce(_ callID: UInt32) -> Bool {
        backedUpSince == nil && calls[callID] != nil && (phase == .open || phase == .draining)
    }

    /// The largest body a stream message may carry to this client.
    package var peerMaxFrameSize: Int { encoder.maxFrameSize }

    /// The highest call id accepted (L of a GOAWAY).
    package var lastCallID: UInt32 { callIDs.last }

    /// Whether a call is in flight (its final frame not yet sent).
    package func isRunning(_ callID: UInt32) -> Bool { calls[callID] != nil }

    /// The number of calls in flight.
    package var callsInFlight: Int { calls.count }

    /// The memory the connection holds for frames still arriving: the decoder's buffer while it
    /// holds part of a frame; the capacity an empty decoder keeps for the next frame (at most
    /// ``FrameDecoder/retainedCapacity``) is not counted, as no frame is arriving.
    package var heldFrameBytes: Int {
        if let http { return http.isReadingRequest ? http.parser.bufferCapacity : 0 }
        return decoder.holdsIncompleteFrame ? decoder.bufferCapacity : 0
    }

    /// Whether the transport holds part of a TLS record, as the driver last reported.
    package var transportHoldsIncompleteRecord: Bool { incompleteRecordSince != nil }

    /// Since when the connection has been without a session and without calls, or `nil` when
    /// it has either (or is closed): the connections the server sheds first when it is full.
    package var idleWithoutSessionSince: ConnectionInstant? {
        guard phase != .closed, phase != .draining, !hasSession, calls.isEmpty else { return nil }
        return lastCallActivity
    }

    /// The payload limit for frames whose header has not arrived yet.
    private var currentMaxFrameSize: Int {
        hasSession ? limits.maxFrameSize : min(limits.maxFrameSize, limits.maxFrameSizeWithoutSession)
    }

    // MARK: - Events

    /// The connection was admitted: arms the handshake timer.
    package mutating func start(now: ConnectionInstant) -> [ServerConnectionAction] {
        var actions: [ServerConnectionAction] = []
        settle(now: now, &actions)
        return actions
    }

    /// Bytes arrived from the peer.
    package mutating func received(_ bytes: UnsafeRawBufferPointer, now: ConnectionInstant) -> [ServerConnectionAction] {
        var actions: [ServerConnectionAction] = []
        guard phase != .closed else { return actions }
        if face == .undecided, let first = bytes.first {
            face = (0x41...0x5A).contains(first) && first != UInt8(ascii: "W") ? .http : .binary
            if face == .http {
                http = HTTPExchange(parser: HTTPRequestParser(maxHeadBytes: limits.maxHTTPHeadBytes, maxHeaderCount: limits.maxHTTPHeaderCount))
                phase = .open
            }
        }
        if face == .http {
            receivedHTTP(bytes, now: now, &actions)
            settle(now: now, &actions)
            return actions
        }
        keepalive.heard(at: now)
        decoder.append(bytes)
        do {
            if phase == .awaitingPreface {
                guard let preface = try decoder.readPreface() else {
                    settle(now: now, &actions)
                    return actions
                }
                switch Handshake.answer(to: preface) {
                case .success(let answer):
                    output.append { answer.encode(into: &$0) }
                    sendServerHello()
                    phase = .awaitingHello
                case .failure(let error):
                    refuse(error, &actions)
                    return actions
                }
            }
            var completedFrame = false
            while phase != .closed, let frame = try decoder.nextFrame() {
                completedFrame = true
                try handle(frame, now: now, &actions)
            }
            if !decoder.holdsIncompleteFrame {
                incompleteFrameSince = nil
            } else if completedFrame || incompleteFrameSince == nil {
                incompleteFrameSince = now
            }
        } catch {
            if phase == .awaitingPreface {
                refuse(error, &actions)
            } else if error.code == .frameTooLarge, !hasSession, phase != .awaitingHello {
                let message = "\(error.message): until a session is bound (Auth.Login, Auth.Register, Auth.Resume) frames carry at most \(currentMaxFrameSize) bytes"
                closeWithError(error.status, message, log: "protocol error: \(message)", &actions)
            } else {
                closeWithError(error.status, error.message, log: "protocol error: \(error.message)", &actions)
            }
            return actions
        }
        settle(now: now, &actions)
        return actions
    }

    /// The transport (TLS) took what the socket read: `holdsIncompleteRecord` says whether it
    /// now holds part of a record that has not arrived whole, `completedRecord` whether a
    /// record came out of it whole (plaintext was delivered). A record must arrive whole within
    /// `frameTimeout` of the moment the transport began holding it, as a frame must (PROTOCOL.md
    /// 15). The driver calls it when what it would report differs from
    /// ``transportHoldsIncompleteRecord``, or a record completed while the next is held.
    package mutating func transportRead(
        completedRecord: Bool, holdsIncompleteRecord: Bool, now: ConnectionInstant
    ) -> [ServerConnectionAction] {
        var actions: [ServerConnectionAction] = []
        guard phase != .closed else { return actions }
        if !holdsIncompleteRecord {
            incompleteRecordSince = nil
        } else if completedRecord || incompleteRecordSince == nil {
            incompleteRecordSince = now
        }
        settle(now: now, &actions)
        return actions
    }

    /// The transport took `count` bytes of ``output``, and now holds `transportBacklog` bytes
    /// for the socket (TLS ciphertext not sent yet; 0 for plain TCP). The driver also calls it
    /// with a `count` of 0 whenever the backlog changed: after reading (OpenSSL may answer
    /// while reading) and after the socket took some of it.
    package mutating func wrote(_ count: Int, transportBacklog: Int = 0, now: ConnectionInstant) -> [ServerConnectionAction] {
        var actions: [ServerConnectionAction] = []
        guard phase != .closed else { return actions }
        output.consume(count)
        self.transportBacklog = transportBacklog
        if backedUpSince != nil, output.count <= limits.maxBufferedOutput / 2,
            transportBacklog <= limits.maxTransportBacklog / 2
        {
            backedUpSince = nil
            if http?.holdsReading != true { actions.append(.resumeReading) }
            if calls.values.contains(where: \.isStream) { actions.append(.resumeProducing) }
        }
        settle(now: now, &actions)
        return actions
    }

    /// A call's work ended with `outcome`; `session` says whether it bound or ended the
    /// connection's session. Ignored when the call already ended (cancelled, timed out).
    package mutating func callFinished(
        _ callID: UInt32, _ outcome: CallOutcome, session: SessionChange? = nil, now: ConnectionInstant
    ) -> [ServerConnectionAction] {
        var actions: [ServerConnectionAction] = []
        guard phase != .closed, let call = calls.removeValue(forKey: callID) else { return actions }
        if face == .http {
            if session == .ended {
                hasSession = false
                http?.forgetSession()
            }
            sendFinal(callID, method: call.method, isStream: call.isStream, startedAt: call.startedAt, outcome, now: now, &actions)
            advanceHTTP(now: now, &actions)
            settle(now: now, &actions)
            return actions
        }
        sendFinal(callID, method: call.method, isStream: call.isStream, startedAt: call.startedAt, outcome, now: now, &actions)
        switch session {
        case .bound?:
            hasSession = true
        case .ended?:
            hasSession = false
            endWatches(.failure(CallFailure(.unauthenticated, "the session ended")), now: now, &actions)
        case nil:
            break
        }
        if session != nil, phase == .open || phase == .draining { decoder.maxFrameSize = currentMaxFrameSize }
        settle(now: now, &actions)
        return actions
    }

    /// A stream's producer has a message for the client. Dropped when the call has ended.
    package mutating func streamMessage(_ callID: UInt32, _ body: [UInt8], now: ConnectionInstant) -> [ServerConnectionAction] {
        var actions: [ServerConnectionAction] = []
        guard phase == .open || phase == .draining, let call = calls[callID] else { return actions }
        if face == .http {
            httpStreamMessage(callID, call: call, body, now: now, &actions)
            settle(now: now, &actions)
            return actions
        }
        do {
            try output.append { bytes throws(ProtocolError) in try encoder.append(.streamMessage, callID: callID, body: body, to: &bytes) }
        } catch {
            calls[callID] = nil
            actions.append(.stopWork(callID: callID))
            sendFinal(callID, method: call.method, isStream: true, startedAt: call.startedAt,
                      .failure(CallFailure(.resourceExhausted, tooLarge(body.count))), now: now, &actions)
        }
        settle(now: now, &actions)
        return actions
    }

    /// The timer fired (or any moment): applies every time limit that has passed by `now`.
    package mutating func tick(now: ConnectionInstant) -> [ServerConnectionAction] {
        var actions: [ServerConnectionAction] = []
        armedAt = nil
        switch phase {
        case .closed:
            return actions
        case .awaitingPreface, .awaitingHello:
            if now >= openedAt + limits.handshakeTimeout {
                let message = "the handshake did not finish within \(limits.handshakeTimeout)"
                if phase == .awaitingHello {
                    closeWithError(.deadlineExceeded, message, log: "handshake timed out", &actions)
                } else {
                    close(log: "handshake timed out", &actions)
                }
                return actions
            }
        case .open, .draining:
            if let backedUpSince, now >= backedUpSince + limits.slowReaderTimeout {
                endWatches(.failure(CallFailure(.resourceExhausted, "the client reads too slowly")), now: now, &actions)
                close(log: "dropping a slow reader: \(output.count + transportBacklog) bytes unread for \(limits.slowReaderTimeout)", &actions)
                return actions
            }
            if let since = incompleteRecordSince, now >= since + limits.frameTimeout {
                closeWithError(.deadlineExceeded, "a TLS record did not arrive whole within \(limits.frameTimeout)",
                               log: "incomplete TLS record timed out", &actions)
                return actions
            }
            if let since = incompleteFrameSince, now >= since + limits.frameTimeout {
                if face == .http {
                    closeWithError(.deadlineExceeded, "the request did not arrive whole within \(limits.frameTimeout)",
                                   log: "incomplete HTTP request timed out: \(http?.parser.bufferedByteCount ?? 0) bytes held", &actions)
                } else {
                    closeWithError(.deadlineExceeded, "a frame did not arrive whole within \(limits.frameTimeout)",
                                   log: "incomplete frame timed out: \(decoder.bufferedByteCount) bytes held", &actions)
                }
                return actions
            }
            if face == .http {
                if calls.isEmpty, http?.isIdle == true, hasSession, now >= lastCallActivity + limits.httpIdleTimeout {
                    close(log: "HTTP keep-alive idle for \(limits.httpIdleTimeout)", &actions)
                    return actions
                }
                if let since = idleWithoutSessionSince, http?.isIdle == true, now >= since + limits.sessionlessIdleTimeout {
                    close(log: "HTTP keep-alive idle without a session", &actions)
                    return actions
                }
                expireCalls(now: now, &actions)
                advanceHTTP(now: now, &actions)
                settle(now: now, &actions)
                return actions
            }
            if calls.isEmpty, limits.idleTimeout > .zero, now >= lastCallActivity + limits.idleTimeout {
                goAway(.ok, "idle for \(limits.idleTimeout); reconnect when needed")
                close(log: "idle timeout", &actions)
                return actions
            }
            if let since = idleWithoutSessionSince, now >= since + limits.sessionlessIdleTimeout {
                goAway(.ok, "no session and no calls for \(limits.sessionlessIdleTimeout); reconnect when needed")
                close(log: "idle without a session", &actions)
                return actions
            }
            switch keepalive.check(at: now) {
            case .wait:
                break
            case .sendPing:
                output.append { Frame(type: .ping, body: Keepalive.pingPayload(at: now)).encode(into: &$0) }
            case .peerUnresponsive:
                goAway(.unavailable, "keepalive timeout: no answer to a PING within \(limits.idleTimeout)")
                close(log: "peer stopped answering pings", &actions)
                return actions
            }
            expireCalls(now: now, &actions)
        }
        settle(now: now, &actions)
        return actions
    }

    /// Starts a graceful end: GOAWAY naming the last call, Watches end UNAVAILABLE, calls in
    /// flight finish, then close. Before the handshake is done, closes at once.
    package mutating func beginShutdown(message: String, now: ConnectionInstant) -> [ServerConnectionAction] {
        var actions: [ServerConnectionAction] = []
        switch phase {
        case .closed, .draining:
            return actions
        case .awaitingPreface, .awaitingHello:
            close(log: "closed during the handshake: \(message)", &actions)
            return actions
        case .open:
            phase = .draining
            endWatches(.failure(CallFailure(.unavailable, message)), now: now, &actions)
            if face == .http {
                // A request not yet running is not started; one running finishes, saying close.
                if http?.isRunning != true {
                    close(log: "closed while idle: \(message)", &actions)
                    return actions
                }
            } else {
                goAway(.ok, message)
            }
            settle(now: now, &actions)
            return actions
        }
    }

    /// The server needs the connection's place or the memory it holds: GOAWAY
    /// RESOURCE_EXHAUSTED saying `message`, calls in flight abandoned, close.
    package mutating func shed(_ message: String, now: ConnectionInstant) -> [ServerConnectionAction] {
        var actions: [ServerConnectionAction] = []
        switch phase {
        case .closed:
            break
        case .awaitingPreface:
            close(log: "shed during the handshake: \(message)", &actions)
        case .awaitingHello, .open, .draining:
            endWatches(.failure(CallFailure(.resourceExhausted, message)), now: now, &actions)
            closeWithError(.resourceExhausted, message, log: "shed: \(message)", &actions)
        }
        return actions
    }

    /// The peer closed, or reading or writing failed: closes without a word.
    package mutating func connectionLost(_ reason: String) -> [ServerConnectionAction] {
        var actions: [ServerConnectionAction] = []
        close(log: reason, &actions)
        return actions
    }

    // MARK: - Frames

    private mutating func handle(_ frame: Frame, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) throws(ProtocolError) {
        switch frame.type {
        case .hello:
            try receiveHello(frame)
        case .request:
            guard phase == .open || phase == .draining else {
                throw ProtocolError(.unexpectedHello, "REQUEST before the HELLO exchange")
            }
            try callIDs.accept(frame.callID)
            lastCallActivity = now
            startCall(frame, now: now, &actions)
        case .cancel:
            lastCallActivity = now
            guard let call = calls.removeValue(forKey: frame.callID) else { return }
            actions.append(.stopWork(callID: frame.callID))
            sendFinal(frame.callID, method: call.method, isStream: call.isStream, startedAt: call.startedAt,
                      .failure(CallFailure(.cancelled, "cancelled by the client")), now: now, &actions)
        case .ping:
            output.append { Frame(type: .pong, body: frame.body).encode(into: &$0) }
        case .pong:
            break
        default:
            throw ProtocolError(.unexpectedFrameType, "\(frame.type) frames may not be sent by a client")
        }
    }

    private mutating func sendServerHello() {
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
        output.append { Frame(type: .hello, body: body).encode(into: &$0) }
    }

    private mutating func receiveHello(_ frame: Frame) throws(ProtocolError) {
        guard phase == .awaitingHello else {
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
        clientAgent = String(decoding: hello.agent.utf8.prefix(128), as: UTF8.self)
        let clientMax = hello.maxFrameSize == 0 ? HandshakeLimits.defaultMaxFrameSize : Int(hello.maxFrameSize)
        encoder = FrameEncoder(
            maxFrameSize: clientMax,
            compressionEnabled: hello.acceptsCompressed,
            maxDecompressedSize: hello.maxDecompressedSize == 0 ? nil : Int(hello.maxDecompressedSize))
        phase = .open
        decoder.maxFrameSize = currentMaxFrameSize
    }

    // MARK: - Calls

    private mutating func startCall(_ frame: Frame, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) {
        let callID = frame.callID
        let descriptor = methods[frame.code]
        func refuse(_ status: StatusCode, _ message: String, _ actions: inout [ServerConnectionAction]) {
            sendFinal(callID, method: frame.code, isStream: descriptor?.isServerStreaming ?? false, startedAt: now,
                      .failure(CallFailure(status, message)), now: now, &actions)
        }
        guard phase == .open else {
            refuse(.unavailable, "the server is shutting down; call again on a new connection", &actions)
            return
        }
        guard calls.count < limits.maxCallsInFlight else {
            refuse(.resourceExhausted, "too many calls in flight: at most \(limits.maxCallsInFlight) on this connection", &actions)
            return
        }
        guard let descriptor else {
            refuse(.unimplemented, "this server has no method \(frame.code)", &actions)
            return
        }
        if frame.deadline == 0 {
            refuse(.deadlineExceeded, "the call's deadline had passed when it arrived", &actions)
            return
        }
        let body: [UInt8]
        do {
            body = try frame.decodedBody(maxDecompressedSize: currentMaxFrameSize)
        } catch {
            refuse(error.status, error.message, &actions)
            return
        }
        if descriptor.needsSession && !hasSession {
            refuse(.unauthenticated, "this method needs a session: call Auth.Login, Auth.Register or Auth.Resume first", &actions)
            return
        }
        openCall(callID, descriptor, deadlineMilliseconds: frame.deadline, now: now)
        actions.append(.run(ServerCallStart(callID: callID, method: frame.code, body: body)))
    }

    /// Keeps a call the driver is told to run, with its deadline (and a Watch's duration) on
    /// the timer: either face's.
    private mutating func openCall(_ callID: UInt32, _ descriptor: MethodDescriptor, deadlineMilliseconds: UInt32?, now: ConnectionInstant) {
        let call = OpenCall(
            method: descriptor.number, isStream: descriptor.isServerStreaming, isWatch: descriptor.number == Self.watchMethod,
            startedAt: now, deadline: deadlineMilliseconds.map { now + .milliseconds(Int64($0)) },
            budgetMilliseconds: deadlineMilliseconds ?? 0)
        calls[callID] = call
        if let end = timerOf(call) { earliestCallTimer = min(earliestCallTimer ?? end, end) }
    }

    /// When a call's own timer runs out: its deadline, or a Watch's duration limit.
    private func timerOf(_ call: OpenCall) -> ConnectionInstant? {
        let streamEnd = call.isWatch ? call.startedAt + limits.maxStreamDuration : nil
        switch (call.deadline, streamEnd) {
        case let (deadline?, end?): return min(deadline, end)
        case let (deadline?, nil): return deadline
        case let (nil, end): return end
        }
    }

    /// Ends calls past their deadline (DEADLINE_EXCEEDED) and Watches past the stream
    /// duration (OK: the client resumes).
    private mutating func expireCalls(now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) {
        guard let earliest = earliestCallTimer, earliest <= now else { return }
        earliestCallTimer = nil
        for (callID, call) in calls.sorted(by: { $0.key < $1.key }) {
            if let deadline = call.deadline, deadline <= now {
                calls[callID] = nil
                actions.append(.stopWork(callID: callID))
                sendFinal(callID, method: call.method, isStream: call.isStream, startedAt: call.startedAt,
                          .failure(CallFailure(.deadlineExceeded, "the call did not finish within its deadline of \(call.budgetMilliseconds) ms")),
                          now: now, &actions)
            } else if call.isWatch, now >= call.startedAt + limits.maxStreamDuration {
                calls[callID] = nil
                actions.append(.stopWork(callID: callID))
                sendFinal(callID, method: call.method, isStream: true, startedAt: call.startedAt, .success([]), now: now, &actions)
            } else if let end = timerOf(call) {
                earliestCallTimer = min(earliestCallTimer ?? end, end)
            }
        }
    }

    /// Ends every open Watch with `outcome`.
    private mutating func endWatches(_ outcome: CallOutcome, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) {
        for (callID, call) in calls.sorted(by: { $0.key < $1.key }) where call.isWatch {
            calls[callID] = nil
            actions.append(.stopWork(callID: callID))
            sendFinal(callID, method: call.method, isStream: true, startedAt: call.startedAt, outcome, now: now, &actions)
        }
    }

    /// Sends a call's one final frame: RESPONSE or STREAM_END, with its status. A response too
    /// large for the client becomes RESOURCE_EXHAUSTED saying so.
    private mutating func sendFinal(
        _ callID: UInt32, method: UInt32, isStream: Bool, startedAt: ConnectionInstant,
        _ outcome: CallOutcome, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]
    ) {
        if face == .http {
            sendHTTPFinal(callID, method: method, isStream: isStream, startedAt: startedAt, outcome, now: now, &actions)
            return
        }
        let type: FrameType = isStream ? .streamEnd : .response
        var status = StatusCode.ok
        switch outcome {
        case .success(let body):
            do {
                try output.append { bytes throws(ProtocolError) in try encoder.append(type, callID: callID, body: isStream ? [] : body, to: &bytes) }
            } catch {
                status = .resourceExhausted
                appendFailure(type, callID: callID, CallFailure(.resourceExhausted, tooLarge(body.count)))
            }
        case .failure(let failure):
            status = failure.status
            appendFailure(type, callID: callID, failure)
        }
        lastCallActivity = now
        actions.append(.callEnded(ServerCallSummary(callID: callID, method: method, status: status, duration: now.since(startedAt))))
    }

    private mutating func appendFailure(_ type: FrameType, callID: UInt32, _ failure: CallFailure) {
        let body = (try? failure.details.serializedBytes()) ?? []
        output.append { Frame(type: type, callID: callID, code: failure.status.rawValue, body: body).encode(into: &$0) }
    }

    private func tooLarge(_ size: Int) -> String {
        "the response (\(size) bytes) is larger than this client's max frame size \(encoder.maxFrameSize)"
    }

    // MARK: - Closing

    /// Appends a GOAWAY naming the last call the server will finish.
    private mutating func goAway(_ status: StatusCode, _ message: String) {
        if face == .http { return }
        let frame = GoAwayNotice(lastCallID: callIDs.last, status: status, message: message).frame
        output.append { frame.encode(into: &$0) }
    }

    /// Refuses a bad preface: the 0/0 preface, a GOAWAY saying why, then close.
    private mutating func refuse(_ error: ProtocolError, _ actions: inout [ServerConnectionAction]) {
        var details = Workout_V1_RpcStatus()
        details.message = error.message
        let payload = (try? details.serializedBytes()) ?? []
        output.append { Handshake.writeRefusal(error, goAwayPayload: payload, into: &$0) }
        close(log: "handshake refused: \(error.message)", &actions)
    }

    /// A connection error: GOAWAY with its status, calls in flight abandoned, close.
    private mutating func closeWithError(_ status: StatusCode, _ message: String, log: String, _ actions: inout [ServerConnectionAction]) {
        if face == .http {
            httpLastWords(CallFailure(status, message))
        } else {
            goAway(status, message)
        }
        close(log: log, &actions)
    }

    /// Closes: every call's work stops; the driver writes what the output holds and closes.
    private mutating func close(log: String, _ actions: inout [ServerConnectionAction]) {
        guard phase != .closed else { return }
        phase = .closed
        for callID in calls.keys.sorted() { actions.append(.stopWork(callID: callID)) }
        calls.removeAll()
        actions.append(.close(log: log))
    }

    /// After every event: backpressure, the end of draining, and the timer.
    private mutating func settle(now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) {
        guard phase != .closed else { return }
        if backedUpSince == nil, output.count >= limits.maxBufferedOutput || transportBacklog > limits.maxTransportBacklog {
            backedUpSince = now
            actions.append(.pauseReading)
        }
        if phase == .draining, calls.isEmpty, output.isEmpty, transportBacklog == 0 {
            close(log: "drained", &actions)
            return
        }
        if let next = nextWake(), armedAt.map({ next < $0 }) ?? true {
            armedAt = next
            actions.append(.armTimer(next))
        }
    }

    /// The earliest moment a time limit may apply.
    private func nextWake() -> ConnectionInstant? {
        switch phase {
        case .closed:
            return nil
        case .awaitingPreface, .awaitingHello:
            return openedAt + limits.handshakeTimeout
        case .open, .draining:
            var next = face == .http ? nil : keepalive.nextCheck()
            func consider(_ instant: ConnectionInstant?) {
                guard let instant else { return }
                next = min(next ?? instant, instant)
            }
            consider(backedUpSince.map { $0 + limits.slowReaderTimeout })
            consider(incompleteRecordSince.map { $0 + limits.frameTimeout })
            consider(incompleteFrameSince.map { $0 + limits.frameTimeout })
            if face == .http {
                if calls.isEmpty, hasSession { consider(lastCallActivity + limits.httpIdleTimeout) }
            } else if calls.isEmpty, limits.idleTimeout > .zero {
                consider(lastCallActivity + limits.idleTimeout)
            }
            consider(idleWithoutSessionSince.map { $0 + limits.sessionlessIdleTimeout })
            consider(earliestCallTimer)
            return next
        }
    }
}

// MARK: - The HTTP face

extension ServerConnectionMachine {
    /// A bearer token's session was found (`.success`, with the member's id) or not.
    package mutating func authenticated(_ result: Result<[UInt8], CallFailure>, now: ConnectionInstant) -> [ServerConnectionAction] {
        var actions: [ServerConnectionAction] = []
        guard phase == .open || phase == .draining, var exchange = http, case .authenticating(var plan) = exchange.stage else { return actions }
        switch result {
        case .success(let memberID):
            exchange.sessionToken = plan.token
            exchange.memberID = memberID
            plan.authorized = true
            exchange.stage = .readingBody(plan)
            http = exchange
            hasSession = true
            advanceHTTP(now: now, &actions)
        case .failure(let failure):
            exchange.forgetSession()
            exchange.stage = .awaitingHead
            http = exchange
            hasSession = false
            // The body was not read: answer, then close.
            refuseHTTP(ConnectProtocol.httpStatus(failure.status), failure, &actions)
        }
        settle(now: now, &actions)
        return actions
    }

    private mutating func receivedHTTP(_ bytes: UnsafeRawBufferPointer, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) {
        guard let running = http?.isRunning else { return }
        // Nothing more is read once the answer that ends the connection is decided.
        if phase == .draining, !running { return }
        http!.parser.append(bytes)
        advanceHTTP(now: now, &actions)
    }

    /// Reads what the parser holds as far as it goes: a head, its session, its body, its call.
    ///
    /// The exchange is changed in place (`http!`), never through a copy: a copy would share the
    /// parser's buffer, and each change would then copy the buffer whole.
    private mutating func advanceHTTP(now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) {
        while phase == .open || phase == .draining, let stage = http?.stage {
            switch stage {
            case .awaitingHead:
                if phase == .draining { return }
                let head: HTTPRequestParser.Head?
                do {
                    head = try http!.parser.nextHead()
                } catch {
                    refuseHTTP(error.status, CallFailure(ConnectProtocol.status(for: error.status), error.message), &actions)
                    return
                }
                guard let head else {
                    if http!.parser.bufferedByteCount == 0 {
                        incompleteFrameSince = nil
                    } else if incompleteFrameSince == nil {
                        incompleteFrameSince = now
                        lastCallActivity = now
                    }
                    return
                }
                if incompleteFrameSince == nil { incompleteFrameSince = now }
                lastCallActivity = now
                if let agent = head.request.headerFields[.userAgent] {
                    clientAgent = String(decoding: agent.utf8.prefix(128), as: UTF8.self)
                }
                var plan: HTTPRequestPlan
                do {
                    guard let planned = try planRequest(head) else {
                        // A file answered at once; the next request may follow.
                        http!.requestsServed += 1
                        incompleteFrameSince = nil
                        lastCallActivity = now
                        if !head.keepsAlive || http!.requestsServed >= limits.maxHTTPRequestsPerConnection, phase == .open {
                            phase = .draining
                        }
                        continue
                    }
                    plan = planned
                } catch {
                    refuseHTTP(error.status, CallFailure(ConnectProtocol.status(for: error.status), error.message), &actions)
                    return
                }
                if let token = plan.token, token == http!.sessionToken {
                    plan.authorized = true
                    http!.stage = .readingBody(plan)
                } else if let token = plan.token {
                    http!.stage = .authenticating(plan)
                    actions.append(.authenticate(token: token))
                    return
                } else {
                    http!.stage = .readingBody(plan)
                }
            case .authenticating:
                return
            case .readingBody(let plan):
                let limit = plan.authorized ? limits.maxFrameSize : min(limits.maxFrameSize, limits.maxFrameSizeWithoutSession)
                guard plan.contentLength <= limit else {
                    let hint = plan.authorized ? "" : " without a session (send Authorization: Bearer and a session token)"
                    refuseHTTP(.contentTooLarge, CallFailure(.resourceExhausted, "the body (\(plan.contentLength) bytes) is larger than \(limit) bytes, the limit\(hint)"), &actions)
                    return
                }
                guard let body = http!.parser.takeBody(plan.contentLength) else { return }
                http!.parser.trim(keeping: limits.maxHTTPHeadBytes)
                incompleteFrameSince = http!.parser.bufferedByteCount > 0 ? now : nil
                startHTTPCall(plan, body: body, now: now, &actions)
            case .running:
                if http!.parser.bufferedByteCount > limits.maxHTTPHeadBytes, !http!.holdsReading {
                    http!.holdsReading = true
                    actions.append(.pauseReading)
                }
                return
            }
        }
    }

    /// The checked plan of a call, `nil` when the request was for a file (answered here), or
    /// why it is refused.
    private mutating func planRequest(_ head: HTTPRequestParser.Head) throws(HTTPRequestError) -> HTTPRequestPlan? {
        let request = head.request
        let target = request.path ?? "/"
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let descriptor: MethodDescriptor
        switch httpRoutes.route(at: path) {
        case .method(let method)?:
            descriptor = method
        case .asset(let asset)?:
            guard request.method == .get || request.method == .head else {
                throw HTTPRequestError(.methodNotAllowed, "\(path.prefix(200)) takes GET, not \(request.method.rawValue.prefix(16))")
            }
            if request.headerFields[.contentLength].map({ $0 != "0" }) ?? false || request.headerFields[.transferEncoding] != nil {
                throw HTTPRequestError(.badRequest, "a GET carries no body")
            }
            answerAsset(asset, headOnly: request.method == .head, keepAlive: head.keepsAlive)
            return nil
        case nil:
            throw HTTPRequestError(.notFound, "nothing at \(path.prefix(200)): methods are at POST /workout.v1.<Service>Service/<Method>, e.g. /workout.v1.MetaService/Health")
        }
        guard request.method == .post else {
            throw HTTPRequestError(.methodNotAllowed, "\(descriptor.httpPath) takes POST, not \(request.method.rawValue.prefix(16))")
        }
        let fields = request.headerFields
        let contentType = fields[.contentType]
        // An upload of a file of its own format takes any Content-Type and answers JSON.
        let encoding = descriptor.requestType == MethodDescriptor.anyBody ? .json
            : descriptor.isServerStreaming ? ConnectProtocol.streamingEncoding(contentType) : ConnectProtocol.unaryEncoding(contentType)
        guard let encoding else {
            let wanted = descriptor.isServerStreaming ? "application/connect+json or application/connect+proto" : "application/json or application/proto"
            throw HTTPRequestError(.unsupportedMediaType, "\(descriptor.name) takes Content-Type \(wanted), not \(contentType.map { String($0.prefix(64)) } ?? "none")")
        }
        if fields[.transferEncoding] != nil {
            throw HTTPRequestError(.lengthRequired, "chunked request bodies are not accepted: send the body with Content-Length")
        }
        let lengths = fields[values: .contentLength]
        guard lengths.count <= 1 || Set(lengths).count == 1 else {
            throw HTTPRequestError(.badRequest, "Content-Length is given twice with different values")
        }
        guard let lengthText = lengths.first else {
            throw HTTPRequestError(.lengthRequired, "a POST needs Content-Length (send {} for an empty message)")
        }
        guard (1...12).contains(lengthText.utf8.count), lengthText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let contentLength = Int(lengthText) else {
            throw HTTPRequestError(.badRequest, "Content-Length must be a whole number of bytes")
        }
        if let contentEncoding = fields[.contentEncoding], contentEncoding.lowercased() != "identity" {
            throw HTTPRequestError(.unsupportedMediaType, "compressed request bodies (Content-Encoding \(contentEncoding.prefix(32))) are not accepted")
        }
        let timeout = try ConnectProtocol.timeoutMilliseconds(fields[ConnectProtocol.timeoutField])
        var token: [UInt8]?
        if let authorization = fields[.authorization] {
            token = try BearerToken.parse(authorization)
        }
        var idempotencyKey: String?
        if let key = fields[ConnectProtocol.idempotencyKeyField] {
            guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw HTTPRequestError(.badRequest, "Idempotency-Key must be 1 to 255 visible ASCII characters")
            }
            idempotencyKey = key
        }
        var signature: String?
        if let value = fields[ConnectProtocol.signatureField] {
            guard (1...128).contains(value.utf8.count), value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw HTTPRequestError(.badRequest, "X-Signature must be sha256= and 64 hex digits")
            }
            signature = value
        }
        return HTTPRequestPlan(
            descriptor: descriptor, encoding: encoding, contentLength: contentLength, timeoutMilliseconds: timeout,
            keepAlive: head.keepsAlive, token: token, idempotencyKey: idempotencyKey, signature: signature)
    }

    /// Answers a file, with the headers that keep a page to itself: a strict
    /// Content-Security-Policy (its own scripts, styles and connections only, no inline script,
    /// no framing), no MIME sniffing, no referrer.
    private mutating func answerAsset(_ asset: StaticAsset, headOnly: Bool, keepAlive: Bool) {
        var fields = HTTPFields()
        fields[.contentType] = asset.contentType
        fields[.cacheControl] = "no-cache"
        fields[.contentSecurityPolicy] = ConnectProtocol.contentSecurityPolicy
        fields[.xContentTypeOptions] = "nosniff"
        fields[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        output.append {
            HTTPResponseHead.write(.ok, fields, contentLength: asset.body.count, keepAlive: keepAlive, to: &$0)
            if !headOnly { $0.append(contentsOf: asset.body) }
        }
    }

    /// Runs a request whose body arrived, or answers why not (keeping the connection).
    private mutating func startHTTPCall(_ plan: HTTPRequestPlan, body: [UInt8], now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) {
        guard var exchange = http else { return }
        let descriptor = plan.descriptor
        let callID = exchange.nextCallID
        exchange.nextCallID &+= 1
        func answerAtOnce(_ failure: CallFailure, _ actions: inout [ServerConnectionAction]) {
            exchange.stage = .running(callID: callID, plan, streaming: false)
            http = exchange
            sendHTTPFinal(callID, method: descriptor.number, isStream: false, startedAt: now, .failure(failure), now: now, &actions)
        }
        guard phase == .open else {
            answerAtOnce(CallFailure(.unavailable, "the server is shutting down; try again in a moment"), &actions)
            return
        }
        if descriptor.needsSession, !plan.authorized {
            answerAtOnce(CallFailure(.unauthenticated, "\(descriptor.name) needs a session: send Authorization: Bearer and a session token (from \(MethodCatalog.login.descriptor.httpPath)) or a device token"), &actions)
            return
        }
        if plan.timeoutMilliseconds == 0 {
            answerAtOnce(CallFailure(.deadlineExceeded, "the call's deadline (Connect-Timeout-Ms: 0) had passed when it arrived"), &actions)
            return
        }
        let request: [UInt8]
        do {
            let message = descriptor.isServerStreaming ? try ConnectProtocol.streamingRequestMessage(body) : body
            let ids = plan.authorized ? RecordIDSource(memberID: exchange.memberID ?? [], method: descriptor.number, idempotencyKey: plan.idempotencyKey) : nil
            request = try descriptor.transcoder.request(from: message, encoding: plan.encoding, assigningIDsFrom: ids)
        } catch let error as HTTPRequestError {
            answerAtOnce(CallFailure(.invalidArgument, error.message), &actions)
            return
        } catch {
            answerAtOnce(CallFailure(.invalidArgument, "\(error)"), &actions)
            return
        }
        openCall(callID, descriptor, deadlineMilliseconds: plan.timeoutMilliseconds, now: now)
        exchange.stage = .running(callID: callID, plan, streaming: descriptor.isServerStreaming)
        http = exchange
        if descriptor.isServerStreaming {
            var fields = HTTPFields()
            fields[.contentType] = plan.encoding == .json ? "application/connect+json" : "application/connect+proto"
            fields[.cacheControl] = "no-store"
            output.append { HTTPResponseHead.write(.ok, fields, contentLength: nil, keepAlive: plan.keepAlive, to: &$0) }
        }
        var start = ServerCallStart(callID: callID, method: descriptor.number, body: request)
        start.speaksForSession = plan.authorized
        start.signature = plan.signature
        actions.append(.run(start))
    }

    /// A stream's message as a chunk holding one envelope.
    private mutating func httpStreamMessage(
        _ callID: UInt32, call: OpenCall, _ body: [UInt8], now: ConnectionInstant, _ actions: inout [ServerConnectionAction]
    ) {
        guard let exchange = http, case .running(callID, let plan, true) = exchange.stage else { return }
        do {
            let message = plan.encoding == .json ? try plan.descriptor.transcoder.responseJSON(from: body) : body
            var envelope: [UInt8] = []
            envelope.reserveCapacity(message.count + 5)
            ConnectProtocol.appendEnvelope(message, endOfStream: false, to: &envelope)
            output.append { HTTPResponseHead.writeChunk(envelope, to: &$0) }
        } catch {
            calls[callID] = nil
            actions.append(.stopWork(callID: callID))
            sendHTTPFinal(callID, method: call.method, isStream: true, startedAt: call.startedAt,
                          .failure(CallFailure(.internal, "a stream message could not be written as JSON")), now: now, &actions)
        }
    }

    /// The answer that ends the call in hand: a unary response (its body, or Connect's JSON
    /// error with its HTTP status), or a stream's end message and last chunk.
    private mutating func sendHTTPFinal(
        _ callID: UInt32, method: UInt32, isStream: Bool, startedAt: ConnectionInstant,
        _ outcome: CallOutcome, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]
    ) {
        guard var exchange = http, case .running(callID, let plan, let streaming) = exchange.stage else { return }
        exchange.requestsServed += 1
        var keepAlive = plan.keepAlive && phase == .open && exchange.requestsServed < limits.maxHTTPRequestsPerConnection
        // A request that presented the connection's session token and is answered
        // UNAUTHENTICATED found its session ended (revoked, expired, its member removed) or its
        // signature wrong. As for a token the server does not know, the connection closes after
        // the 401: one rule for a 401 to a request with a bearer token (PROTOCOL.md 25.3).
        if case .failure(let failure) = outcome, failure.status == .unauthenticated, plan.authorized {
            keepAlive = false
            exchange.forgetSession()
        }
        var status = StatusCode.ok
        if streaming {
            var failure: CallFailure?
            if case .failure(let error) = outcome { failure = error }
            status = failure?.status ?? .ok
            var envelope: [UInt8] = []
            ConnectProtocol.appendEnvelope(ConnectProtocol.endStreamJSON(failure), endOfStream: true, to: &envelope)
            output.append {
                HTTPResponseHead.writeChunk(envelope, to: &$0)
                HTTPResponseHead.writeChunk([], to: &$0)
            }
        } else {
            switch outcome {
            case .success(let body):
                do {
                    let answer = plan.encoding == .json ? try plan.descriptor.transcoder.responseJSON(from: body) : body
                    var fields = HTTPFields()
                    fields[.contentType] = plan.encoding == .json ? "application/json" : "application/proto"
                    fields[.cacheControl] = "no-store"
                    output.append {
                        HTTPResponseHead.write(.ok, fields, contentLength: answer.count, keepAlive: keepAlive, to: &$0)
                        $0.append(contentsOf: answer)
                    }
                } catch {
                    status = .internal
                    appendHTTPError(CallFailure(.internal, "the answer could not be written as JSON"), keepAlive: keepAlive)
                }
            case .failure(let failure):
                status = failure.status
                appendHTTPError(failure, keepAlive: keepAlive)
            }
        }
        exchange.stage = .awaitingHead
        let resume = exchange.holdsReading
        exchange.holdsReading = false
        http = exchange
        if resume, backedUpSince == nil { actions.append(.resumeReading) }
        if !keepAlive, phase == .open { phase = .draining }
        lastCallActivity = now
        actions.append(.callEnded(ServerCallSummary(callID: callID, method: method, status: status, duration: now.since(startedAt))))
    }

    /// Connect's error answer for a unary call.
    private mutating func appendHTTPError(_ failure: CallFailure, keepAlive: Bool, status: HTTPResponse.Status? = nil) {
        let body = ConnectProtocol.errorJSON(failure)
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        fields[.cacheControl] = "no-store"
        if failure.details.retryAfterMs > 0 {
            fields[.retryAfter] = String((failure.details.retryAfterMs + 999) / 1000)
        }
        if status == .methodNotAllowed { fields[.allow] = "POST" }
        output.append {
            HTTPResponseHead.write(status ?? ConnectProtocol.httpStatus(failure.status), fields, contentLength: body.count, keepAlive: keepAlive, to: &$0)
            $0.append(contentsOf: body)
        }
    }

    /// Refuses the request in hand before it ran (its body may be unread): the answer, then
    /// the connection ends once it is written.
    private mutating func refuseHTTP(_ status: HTTPResponse.Status, _ failure: CallFailure, _ actions: inout [ServerConnectionAction]) {
        guard var exchange = http else { return }
        appendHTTPError(failure, keepAlive: false, status: status)
        exchange.stage = .awaitingHead
        exchange.requestsServed += 1
        http = exchange
        incompleteFrameSince = nil
        actions.append(.callEnded(ServerCallSummary(callID: 0, method: 0, status: failure.status, duration: .zero)))
        if phase == .open { phase = .draining }
    }

    /// Before the connection closes on an error: what the client should still hear, if it
    /// waits for an answer (a request timing out hears 408, a stream its end).
    private mutating func httpLastWords(_ failure: CallFailure) {
        guard let exchange = http else { return }
        switch exchange.stage {
        case .running(_, _, streaming: true):
            var envelope: [UInt8] = []
            ConnectProtocol.appendEnvelope(ConnectProtocol.endStreamJSON(failure), endOfStream: true, to: &envelope)
            output.append {
                HTTPResponseHead.writeChunk(envelope, to: &$0)
                HTTPResponseHead.writeChunk([], to: &$0)
            }
        case .running:
            appendHTTPError(failure, keepAlive: false)
        case .awaitingHead where exchange.parser.bufferedByteCount == 0:
            break
        case .awaitingHead, .authenticating, .readingBody:
            appendHTTPError(failure, keepAlive: false, status: failure.status == .deadlineExceeded ? .requestTimeout : nil)
        }
    }
}

/// What a call's work came to.
package enum CallOutcome: Sendable, Equatable {
    /// Success: a unary call's response body (a stream's is ignored: STREAM_END OK is empty).
    case success([UInt8])
    /// Failure, with the status and details for the wire.
    case failure(CallFailure)
}

/// How a call changed the connection's session.
package enum SessionChange: Sendable, Hashable {
    /// Login, Register or Resume bound a session.
    case bound
    /// Logout or account deletion ended it.
    case ended
}

/// A call that passed every connection check and is the driver's to run.
package struct ServerCallStart: Sendable, Equatable {
    /// The call's id.
    package let callID: UInt32
    /// The method's number (the catalog's, known to the server).
    package let method: UInt32
    /// The request body, inflated.
    package let body: [UInt8]
    /// Whether the call speaks for the connection's session: always on the binary face; on
    /// HTTP only when the request presented the token the session came from.
    package var speaksForSession = true
    /// The request's `X-Signature` (HTTP only), for the ingest endpoints to check.
    package var signature: String?
}

/// A call's final frame went out: for statistics and logs.
package struct ServerCallSummary: Sendable, Hashable {
    /// The call's id.
    package let callID: UInt32
    /// The method number.
    package let method: UInt32
    /// The status sent.
    package let status: StatusCode
    /// From the REQUEST to the final frame.
    package let duration: Duration
}

/// What ``ServerConnectionMachine`` asks its driver to do.
package enum ServerConnectionAction: Sendable, Equatable {
    /// Run a call's work; report its end with `callFinished` (or messages with `streamMessage`).
    case run(ServerCallStart)
    /// HTTP: find the session of a bearer token (resuming it, as Auth.Resume does) and report
    /// it with ``ServerConnectionMachine/authenticated(_:now:)``.
    case authenticate(token: [UInt8])
    /// Stop a call's work: its final frame went out already, or never will.
    case stopWork(callID: UInt32)
    /// A call's final frame went out.
    case callEnded(ServerCallSummary)
    /// Stop reading: the output is full.
    case pauseReading
    /// Read again: the peer drained the output.
    case resumeReading
    /// Streams may produce again (see ``ServerConnectionMachine/canProduce(_:)``).
    case resumeProducing
    /// Call ``ServerConnectionMachine/tick(now:)`` at this moment (replacing an earlier setting).
    case armTimer(ConnectionInstant)
    /// Write what the output holds if the socket takes it, then close; `log` says why.
    case close(log: String)
}
