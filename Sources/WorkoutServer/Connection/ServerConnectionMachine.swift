package import WorkoutProtocol

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
/// The rules live in three parts, and this type only routes events between them, switching
/// once per event on the face: ``ConnectionCore`` (phase, output, calls and their deadlines,
/// backpressure, the shared time limits of 5 and 7, closing), ``BinaryFaceMachine`` (1–4, 6)
/// and ``HTTPFaceMachine`` (8, with ``ConnectProtocol`` holding Connect's rules).
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

    /// The face's state, one of the two machines once the first byte told which.
    private enum FaceState: Sendable {
        /// Nothing received yet: only the handshake's time limit applies.
        case undecided
        /// The binary protocol.
        case binary(BinaryFaceMachine)
        /// HTTP/1.1.
        case http(HTTPFaceMachine)
        /// A face is being changed in place (never seen between events): holding it here
        /// keeps the face's buffers uniquely owned, so a change does not copy them.
        case modifying
    }

    /// What both faces share.
    private var core: ConnectionCore
    /// The face the connection speaks.
    private var faceState = FaceState.undecided
    private let methods: [UInt32: MethodDescriptor]
    private let httpRoutes: HTTPRoutes

    /// A connection accepted at `now`, serving `methods` (over HTTP at the paths of `httpRoutes`,
    /// by default those of `methods`).
    package init(limits: Limits, methods: [UInt32: MethodDescriptor], httpRoutes: HTTPRoutes? = nil, now: ConnectionInstant) {
        self.core = ConnectionCore(limits: limits, now: now)
        self.methods = methods
        self.httpRoutes = httpRoutes ?? HTTPRoutes(methods: methods)
    }

    // MARK: - Queries

    /// The rules' settings.
    package var limits: Limits { core.limits }
    /// Where the connection is.
    package var phase: Phase { core.phase }
    /// What the peer should receive and the socket has not taken yet.
    package var output: OutputBuffer { core.output }
    /// Whether a call (binary) or a bearer token (HTTP) has bound a session to the connection.
    package var hasSession: Bool { core.hasSession }
    /// The client software its HELLO named (at most 128 bytes); on the HTTP face, the last
    /// request's `User-Agent`.
    package var clientAgent: String { core.clientAgent }
    /// Bytes the transport holds for the socket that are no longer in ``output`` (the driver
    /// reports them with ``wrote(_:transportBacklog:now:)``).
    package var transportBacklog: Int { core.transportBacklog }

    /// The protocol the connection speaks.
    package var face: Face {
        switch faceState {
        case .undecided, .modifying: .undecided
        case .binary: .binary
        case .http: .http
        }
    }

    /// Whether a login binds its session to the connection (the binary face), rather than
    /// answering a token that each request presents (HTTP).
    package var loginBindsConnection: Bool {
        if case .http = faceState { return false }
        return true
    }

    /// Whether a stream's producer may send now: the call is open and the output has room.
    package func canProduce(_ callID: UInt32) -> Bool { core.canProduce(callID) }

    /// The largest body a stream message may carry to this client.
    package var peerMaxFrameSize: Int {
        if case .binary(let binary) = faceState { return binary.peerMaxFrameSize }
        return HandshakeLimits.defaultMaxFrameSize
    }

    /// The highest call id accepted (L of a GOAWAY; 0 on the HTTP face).
    package var lastCallID: UInt32 {
        if case .binary(let binary) = faceState { return binary.lastCallID }
        return 0
    }

    /// Whether a call is in flight (its final frame not yet sent).
    package func isRunning(_ callID: UInt32) -> Bool { core.call(callID) != nil }

    /// The number of calls in flight.
    package var callsInFlight: Int { core.calls.count }

    /// The memory the connection holds for frames (or a request) still arriving: the buffer
    /// while it holds part of one; the capacity an empty decoder keeps for the next frame (at
    /// most ``FrameDecoder/retainedCapacity``) is not counted, as no frame is arriving.
    package var heldFrameBytes: Int {
        switch faceState {
        case .binary(let binary): binary.heldFrameBytes
        case .http(let http): http.heldFrameBytes
        case .undecided, .modifying: 0
        }
    }

    /// Whether the transport holds part of a TLS record, as the driver last reported.
    package var transportHoldsIncompleteRecord: Bool { core.transportHoldsIncompleteRecord }

    /// Since when the connection has been without a session and without calls, or `nil` when
    /// it has either (or is closed): the connections the server sheds first when it is full.
    package var idleWithoutSessionSince: ConnectionInstant? { core.idleWithoutSessionSince }

    // MARK: - Events

    /// The connection was admitted: arms the handshake timer.
    package mutating func start(now: ConnectionInstant) -> [ServerConnectionAction] {
        var actions: [ServerConnectionAction] = []
        settle(now: now, &actions)
        return actions
    }

    /// Bytes arrived from the peer. The first byte decides the face: A–Z other than `W` is an
    /// HTTP request line, anything else the binary preface.
    package mutating func received(_ bytes: UnsafeRawBufferPointer, now: ConnectionInstant) -> [ServerConnectionAction] {
        var actions: [ServerConnectionAction] = []
        guard core.phase != .closed else { return actions }
        if case .undecided = faceState, let first = bytes.first {
            if (0x41...0x5A).contains(first) && first != UInt8(ascii: "W") {
                faceState = .http(HTTPFaceMachine(limits: core.limits, routes: httpRoutes))
                core.phase = .open
            } else {
                faceState = .binary(BinaryFaceMachine(limits: core.limits, methods: methods, now: core.openedAt))
            }
        }
        onFace(
            binary: { $0.received(bytes, &$1, now: now, &actions) },
            http: { $0.received(bytes, &$1, now: now, &actions) })
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
        guard core.phase != .closed else { return actions }
        core.transportRead(completedRecord: completedRecord, holdsIncompleteRecord: holdsIncompleteRecord, now: now)
        settle(now: now, &actions)
        return actions
    }

    /// The transport took `count` bytes of ``output``, and now holds `transportBacklog` bytes
    /// for the socket (TLS ciphertext not sent yet; 0 for plain TCP). The driver also calls it
    /// with a `count` of 0 whenever the backlog changed: after reading (OpenSSL may answer
    /// while reading) and after the socket took some of it.
    package mutating func wrote(_ count: Int, transportBacklog: Int = 0, now: ConnectionInstant) -> [ServerConnectionAction] {
        var actions: [ServerConnectionAction] = []
        guard core.phase != .closed else { return actions }
        var faceHoldsReading = false
        if case .http(let http) = faceState { faceHoldsReading = http.holdsReading }
        core.wrote(count, transportBacklog: transportBacklog, faceHoldsReading: faceHoldsReading, &actions)
        settle(now: now, &actions)
        return actions
    }

    /// A call's work ended with `outcome`; `session` says whether it bound or ended the
    /// connection's session, `revalidated` the tag of a GET's answer (HTTP). Ignored when the
    /// call already ended (cancelled, timed out).
    package mutating func callFinished(
        _ callID: UInt32, _ outcome: CallOutcome, session: SessionChange? = nil, revalidated: Revalidated? = nil, now: ConnectionInstant
    ) -> [ServerConnectionAction] {
        var actions: [ServerConnectionAction] = []
        guard core.phase != .closed, let call = core.removeCall(callID) else { return actions }
        onFace(
            binary: { $0.callFinished(callID, call, outcome, session: session, &$1, now: now, &actions) },
            http: { $0.callFinished(callID, call, outcome, session: session, revalidated: revalidated, &$1, now: now, &actions) })
        settle(now: now, &actions)
        return actions
    }

    /// A stream's producer has a message for the client. Dropped when the call has ended.
    package mutating func streamMessage(_ callID: UInt32, _ body: [UInt8], now: ConnectionInstant) -> [ServerConnectionAction] {
        var actions: [ServerConnectionAction] = []
        guard core.isServing, let call = core.call(callID) else { return actions }
        onFace(
            binary: { $0.streamMessage(callID, call, body, &$1, now: now, &actions) },
            http: { $0.streamMessage(callID, call, body, &$1, now: now, &actions) })
        settle(now: now, &actions)
        return actions
    }

    /// A bearer token's session was found (`.success`, with the member's id) or not (HTTP).
    package mutating func authenticated(_ result: Result<[UInt8], CallFailure>, now: ConnectionInstant) -> [ServerConnectionAction] {
        var actions: [ServerConnectionAction] = []
        onFace(binary: { _, _ in }, http: { $0.authenticated(result, &$1, now: now, &actions) })
        settle(now: now, &actions)
        return actions
    }

    /// The timer fired (or any moment): applies every time limit that has passed by `now`.
    package mutating func tick(now: ConnectionInstant) -> [ServerConnectionAction] {
        var actions: [ServerConnectionAction] = []
        core.timerFired()
        if case .undecided = faceState, core.phase == .awaitingPreface, now >= core.openedAt + core.limits.handshakeTimeout {
            core.close(log: "handshake timed out", &actions)
        }
        onFace(binary: { $0.tick(&$1, now: now, &actions) }, http: { $0.tick(&$1, now: now, &actions) })
        settle(now: now, &actions)
        return actions
    }

    /// Starts a graceful end: GOAWAY naming the last call, Watches end UNAVAILABLE, calls in
    /// flight finish, then close. Before the handshake is done, closes at once.
    package mutating func beginShutdown(message: String, now: ConnectionInstant) -> [ServerConnectionAction] {
        var actions: [ServerConnectionAction] = []
        if case .undecided = faceState { core.close(log: "closed during the handshake: \(message)", &actions) }
        onFace(
            binary: { $0.beginShutdown(message: message, &$1, now: now, &actions) },
            http: { $0.beginShutdown(message: message, &$1, now: now, &actions) })
        settle(now: now, &actions)
        return actions
    }

    /// The server needs the connection's place or the memory it holds: GOAWAY
    /// RESOURCE_EXHAUSTED saying `message`, calls in flight abandoned, close.
    package mutating func shed(_ message: String, now: ConnectionInstant) -> [ServerConnectionAction] {
        var actions: [ServerConnectionAction] = []
        if case .undecided = faceState { core.close(log: "shed during the handshake: \(message)", &actions) }
        onFace(
            binary: { $0.shed(message, &$1, now: now, &actions) },
            http: { $0.shed(message, &$1, now: now, &actions) })
        return actions
    }

    /// The peer closed, or reading or writing failed: closes without a word.
    package mutating func connectionLost(_ reason: String) -> [ServerConnectionAction] {
        var actions: [ServerConnectionAction] = []
        core.close(log: reason, &actions)
        return actions
    }

    // MARK: - The face

    /// Hands the event to the face the connection speaks, changed in place: the one switch
    /// of every event.
    private mutating func onFace(
        binary: (inout BinaryFaceMachine, inout ConnectionCore) -> Void,
        http: (inout HTTPFaceMachine, inout ConnectionCore) -> Void
    ) {
        switch faceState {
        case .binary(var machine):
            faceState = .modifying
            binary(&machine, &core)
            faceState = .binary(machine)
        case .http(var machine):
            faceState = .modifying
            http(&machine, &core)
            faceState = .http(machine)
        case .undecided, .modifying:
            break
        }
    }

    /// After every event: backpressure, the end of draining, and the timer at the earliest of
    /// the shared limits and the face's own.
    private mutating func settle(now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) {
        let faceWake: ConnectionInstant? = switch faceState {
        case .binary(let binary): binary.nextWake(core)
        case .http(let http): http.nextWake(core)
        case .undecided, .modifying: core.openedAt + core.limits.handshakeTimeout
        }
        core.settle(now: now, faceWake: faceWake, &actions)
    }
}

