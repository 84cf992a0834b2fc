import Foundation
import Testing
import WorkoutProtocol
@testable import WorkoutServer

/// Every event in every state of each face's machine, on a manual clock: one table per face,
/// each row the state the connection was brought to, the event, and what came of it (the
/// phase after, the kinds of the driver's actions, and what the peer was sent).
@Suite("Each face's machine, every event in every state")
struct FaceMachineTableTests {
    /// The states a row starts from.
    enum State: String, CaseIterable {
        /// Part of the first bytes arrived (binary: half the preface; HTTP: half a request line).
        case started
        /// Binary: the preface answered, the client's HELLO awaited. HTTP: a request's head
        /// with a bearer token arrived and its session is being found.
        case handshaking
        /// Open, no call.
        case idle
        /// Open, a unary call running (id 1).
        case calling
        /// Open, with a session, a Watch running (binary id 2, HTTP id 2).
        case watching
        /// Shutdown began while a call runs.
        case draining
        /// The connection closed.
        case closed
    }

    /// The events of a row.
    enum Event: String, CaseIterable {
        /// Binary: a PING frame. HTTP: a GET of a path that is not there.
        case bytes
        /// A request for Meta.Health.
        case request
        /// The call in hand (1) finished OK.
        case finish
        /// The Watch (2) has a message.
        case message
        /// The socket took all of the output.
        case wrote
        /// The timer fired 20 seconds in: past the handshake's 10 s and the sessionless idle
        /// 15 s, before the ping interval's 30 s and the request's 30 s.
        case tick
        /// Shutdown began.
        case shutdown
        /// The server sheds the connection.
        case shed
        /// The peer closed.
        case lost
        /// A bearer token's session was found.
        case authenticated
    }

    /// Brings a machine to `state`, then applies `event`; what came of it, in a line.
    static func outcome(binary: Bool, _ state: State, _ event: Event) -> String {
        var driver = Driver(binary: binary)
        driver.bring(to: state)
        driver.drain()
        driver.apply(event)
        return driver.summary()
    }

    /// A machine and its manual clock, with what the peer has read.
    struct Driver {
        let binary: Bool
        var machine = ServerConnectionMachine(limits: .init(), methods: ServerMachineHarness.methods, now: .zero)
        var now = ConnectionInstant.zero
        var actions: [ServerConnectionAction] = []
        /// The binary peer's reading of what it was sent.
        var peer = FrameDecoder(role: .client, maxFrameSize: 1 << 20)
        var peerHasPreface = false
        /// Output bytes the peer saw that the machine kept (it takes no writes once closed).
        var seenButKept = 0

        init(binary: Bool) {
            self.binary = binary
            _ = machine.start(now: .zero)
        }

        mutating func send(_ bytes: [UInt8]) { actions = bytes.withUnsafeBytes { machine.received($0, now: now) } }
        mutating func send(_ text: String) { send(Array(text.utf8)) }
        mutating func send(_ frame: Frame) {
            var bytes: [UInt8] = []
            frame.encode(into: &bytes)
            send(bytes)
        }

        static func post(_ path: String, _ body: String, token: Bool = false) -> String {
            let bearer = token ? "Authorization: Bearer \(Data(repeating: 0xAB, count: 32).base64EncodedString())\r\n" : ""
            let type = path.contains("Watch") ? "application/connect+json" : "application/json"
            return "POST \(path) HTTP/1.1\r\nHost: h\r\nContent-Type: \(type)\r\n\(bearer)Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        }

        /// Connect's envelope around an empty JSON message.
        static let envelopedEmpty = "\u{0}\u{0}\u{0}\u{0}\u{2}{}"

        mutating func handshake() {
            send([0x57, 0x4B, 0x52, 0x50, 1, 1, 0, 0])
            send(ServerMachineHarness.clientHello())
        }

        mutating func bring(to state: State) {
            switch (binary, state) {
            case (true, .started): send([0x57, 0x4B, 0x52, 0x50])
            case (false, .started): send("POST /workout.v1.Meta")
            case (true, .handshaking): send([0x57, 0x4B, 0x52, 0x50, 1, 1, 0, 0])
            case (false, .handshaking): send(Self.post("/workout.v1.MetaService/Health", "{}", token: true))
            case (true, .idle): handshake()
            case (false, .idle): send(Self.post("/workout.v1.MetaService/Health", "{}"))
                _ = machine.callFinished(1, .success([]), now: now)
            case (true, .calling), (true, .draining):
                handshake()
                send(Frame(type: .request, callID: 1, code: MethodCatalog.health.number, body: []))
            case (false, .calling), (false, .draining):
                send(Self.post("/workout.v1.MetaService/Health", "{}"))
            case (true, .watching):
                handshake()
                send(Frame(type: .request, callID: 1, code: MethodCatalog.login.number, body: []))
                _ = machine.callFinished(1, .success([]), session: .bound, now: now)
                send(Frame(type: .request, callID: 2, code: MethodCatalog.watch.number, body: []))
            case (false, .watching):
                send(Self.post("/workout.v1.MetaService/Health", "{}", token: true))
                _ = machine.authenticated(.success([1, 2, 3]), now: now)
                _ = machine.callFinished(1, .success([]), now: now)
                send(Self.post(MethodCatalog.watch.descriptor.httpPath, Self.envelopedEmpty, token: true))
            case (true, .closed): handshake()
                _ = machine.connectionLost("gone")
            case (false, .closed): send(Self.post("/workout.v1.MetaService/Health", "{}"))
                _ = machine.connectionLost("gone")
            }
            if state == .draining { _ = machine.beginShutdown(message: "stopping", now: now) }
        }

        /// The peer reads everything so far.
        mutating func drain() {
            let bytes = machine.output.withUnreadBytes { Array($0) }
            _ = machine.wrote(bytes.count, now: now)
            seenButKept = machine.output.count
            guard binary else { return }
            peer.append(bytes)
            if !peerHasPreface { peerHasPreface = (try? peer.readPreface()).flatMap { $0 } != nil }
            if peerHasPreface { while (try? peer.nextFrame()) != nil {} }
        }

        mutating func apply(_ event: Event) {
            switch event {
            case .bytes:
                if binary { send(Frame(type: .ping, body: Array(repeating: 7, count: 8))) } else { send("GET /nothing HTTP/1.1\r\nHost: h\r\n\r\n") }
            case .request:
                if binary {
                    send(Frame(type: .request, callID: 9, code: MethodCatalog.health.number, body: []))
                } else {
                    send(Self.post("/workout.v1.MetaService/Health", "{}"))
                }
            case .finish: actions = machine.callFinished(1, .success([]), now: now)
            case .message: actions = machine.streamMessage(2, [], now: now)
            case .wrote: actions = machine.wrote(machine.output.count, now: now)
            case .tick:
                now = .zero + .seconds(20)
                actions = machine.tick(now: now)
            case .shutdown: actions = machine.beginShutdown(message: "stopping", now: now)
            case .shed: actions = machine.shed("full", now: now)
            case .lost: actions = machine.connectionLost("gone")
            case .authenticated: actions = machine.authenticated(.success([1, 2, 3]), now: now)
            }
        }

        /// `phase: action kinds | what the peer was sent`.
        func summary() -> String {
            let kinds = actions.map { action -> String in
                switch action {
                case .run(let call): "run \(call.callID)"
                case .authenticate: "authenticate"
                case .stopWork(let id): "stop \(id)"
                case .callEnded(let summary): "ended \(summary.callID) \(summary.status.name)"
                case .pauseReading: "pause"
                case .resumeReading: "resume"
                case .resumeProducing: "produce"
                case .armTimer: "timer"
                case .close: "close"
                }
            }
            return "\(machine.phase): \(kinds.joined(separator: ", ")) | \(sent())"
        }

        /// What the output holds, by kind: frames with their status, or HTTP status lines and chunks.
        func sent() -> String {
            let bytes = machine.output.withUnreadBytes { Array($0.dropFirst(seenButKept)) }
            guard !bytes.isEmpty else { return "-" }
            if binary {
                var decoder = peer
                decoder.append(bytes)
                var parts: [String] = []
                var hasPreface = peerHasPreface
                if !hasPreface, (try? decoder.readPreface()).flatMap({ $0 }) != nil {
                    hasPreface = true
                    parts.append("PREFACE")
                }
                while hasPreface, let frame = try? decoder.nextFrame() {
                    let code = frame.type == .response || frame.type == .streamEnd || frame.type == .goAway
                        ? " \(frame.type == .goAway ? GoAwayNotice(frame).status.name : StatusCode(rawValue: frame.code).name)" : ""
                    parts.append("\(frame.type)\(code)")
                }
                return parts.joined(separator: " ")
            }
            let text = String(decoding: bytes, as: UTF8.self)
            var parts: [String] = []
            for line in text.components(separatedBy: "\r\n") {
                if line.hasPrefix("HTTP/1.1 ") { parts.append(String(line.dropFirst(9).prefix(3))) }
                if line == "Connection: close" { parts.append("close") }
                // A chunk's envelope begins with its flags: 0 a message, 2 the stream's end.
                if line.first == "\u{0}" { parts.append("message") }
                if line.first == "\u{2}" { parts.append(line.contains(#"{"error":"#) ? "end-error" : "end-ok") }
            }
            return parts.isEmpty ? "data" : parts.joined(separator: " ")
        }
    }

    @Test("The binary face's machine: every event in every state")
    func binaryTable() {
        for (state, rows) in Self.binaryTable {
            for (event, expected) in rows {
                #expect(Self.outcome(binary: true, state, event) == expected, "\(state) + \(event)")
            }
        }
    }

    @Test("The HTTP face's machine: every event in every state")
    func httpTable() {
        for (state, rows) in Self.httpTable {
            for (event, expected) in rows {
                #expect(Self.outcome(binary: false, state, event) == expected, "\(state) + \(event)")
            }
        }
    }

    @Test("Each table has a row for every event in every state")
    func tablesAreWhole() {
        for table in [Self.binaryTable, Self.httpTable] {
            #expect(table.map(\.0) == State.allCases)
            for (_, rows) in table { #expect(rows.map(\.0) == Event.allCases) }
        }
    }

    /// `phase: actions | sent`: a PREFACE, frames with their status (a GOAWAY's is its own).
    static let binaryTable: [(State, [(Event, String)])] = [
        (.started, [
            (.bytes, "closed: close | PREFACE GOAWAY INVALID_ARGUMENT"),
            (.request, "closed: close | PREFACE GOAWAY FAILED_PRECONDITION"),
            (.finish, "awaitingPreface:  | -"),
            (.message, "awaitingPreface:  | -"),
            (.wrote, "awaitingPreface:  | -"),
            (.tick, "closed: close | -"),
            (.shutdown, "closed: close | -"),
            (.shed, "closed: close | -"),
            (.lost, "closed: close | -"),
            (.authenticated, "awaitingPreface:  | -"),
        ]),
        (.handshaking, [
            (.bytes, "closed: close | GOAWAY INVALID_ARGUMENT"),
            (.request, "closed: close | GOAWAY INVALID_ARGUMENT"),
            (.finish, "awaitingHello:  | -"),
            (.message, "awaitingHello:  | -"),
            (.wrote, "awaitingHello:  | -"),
            (.tick, "closed: close | GOAWAY DEADLINE_EXCEEDED"),
            (.shutdown, "closed: close | -"),
            (.shed, "closed: close | GOAWAY RESOURCE_EXHAUSTED"),
            (.lost, "closed: close | -"),
            (.authenticated, "awaitingHello:  | -"),
        ]),
        (.idle, [
            (.bytes, "open:  | PONG"),
            (.request, "open: run 9 | -"),
            (.finish, "open:  | -"),
            (.message, "open:  | -"),
            (.wrote, "open:  | -"),
            (.tick, "closed: close | GOAWAY OK"),
            (.shutdown, "draining:  | GOAWAY OK"),
            (.shed, "closed: close | GOAWAY RESOURCE_EXHAUSTED"),
            (.lost, "closed: close | -"),
            (.authenticated, "open:  | -"),
        ]),
        (.calling, [
            (.bytes, "open:  | PONG"),
            (.request, "open: run 9 | -"),
            (.finish, "open: ended 1 OK | RESPONSE OK"),
            (.message, "open:  | -"),
            (.wrote, "open:  | -"),
            (.tick, "open: timer | -"),
            (.shutdown, "draining:  | GOAWAY OK"),
            (.shed, "closed: stop 1, close | GOAWAY RESOURCE_EXHAUSTED"),
            (.lost, "closed: stop 1, close | -"),
            (.authenticated, "open:  | -"),
        ]),
        (.watching, [
            (.bytes, "open:  | PONG"),
            (.request, "open: run 9 | -"),
            (.finish, "open:  | -"),
            (.message, "open:  | STREAM_MESSAGE"),
            (.wrote, "open:  | -"),
            (.tick, "open: timer | -"),
            (.shutdown, "draining: stop 2, ended 2 UNAVAILABLE | STREAM_END UNAVAILABLE GOAWAY OK"),
            (.shed, "closed: stop 2, ended 2 RESOURCE_EXHAUSTED, close | STREAM_END RESOURCE_EXHAUSTED GOAWAY RESOURCE_EXHAUSTED"),
            (.lost, "closed: stop 2, close | -"),
            (.authenticated, "open:  | -"),
        ]),
        (.draining, [
            (.bytes, "draining:  | PONG"),
            (.request, "draining: ended 9 UNAVAILABLE | RESPONSE UNAVAILABLE"),
            (.finish, "draining: ended 1 OK | RESPONSE OK"),
            (.message, "draining:  | -"),
            (.wrote, "draining:  | -"),
            (.tick, "draining: timer | -"),
            (.shutdown, "draining:  | -"),
            (.shed, "closed: stop 1, close | GOAWAY RESOURCE_EXHAUSTED"),
            (.lost, "closed: stop 1, close | -"),
            (.authenticated, "draining:  | -"),
        ]),
        (.closed, [
            (.bytes, "closed:  | -"),
            (.request, "closed:  | -"),
            (.finish, "closed:  | -"),
            (.message, "closed:  | -"),
            (.wrote, "closed:  | -"),
            (.tick, "closed:  | -"),
            (.shutdown, "closed:  | -"),
            (.shed, "closed:  | -"),
            (.lost, "closed:  | -"),
            (.authenticated, "closed:  | -"),
        ]),
    ]

    /// `phase: actions | sent`: status lines, `close` for `Connection: close`, a stream's
    /// chunks as `message`, `end-ok` or `end-error`.
    static let httpTable: [(State, [(Event, String)])] = [
        (.started, [
            (.bytes, "draining: ended 0 INVALID_ARGUMENT | 400 close"),
            (.request, "draining: ended 0 INVALID_ARGUMENT | 400 close"),
            (.finish, "open:  | -"),
            (.message, "open:  | -"),
            (.wrote, "open:  | -"),
            (.tick, "open: timer | -"),
            (.shutdown, "closed: close | -"),
            (.shed, "closed: close | 429 close"),
            (.lost, "closed: close | -"),
            (.authenticated, "open:  | -"),
        ]),
        (.handshaking, [
            (.bytes, "open:  | -"),
            (.request, "open:  | -"),
            (.finish, "open:  | -"),
            (.message, "open:  | -"),
            (.wrote, "open:  | -"),
            (.tick, "open: timer | -"),
            (.shutdown, "closed: close | -"),
            (.shed, "closed: close | 429 close"),
            (.lost, "closed: close | -"),
            (.authenticated, "open: run 1 | -"),
        ]),
        (.idle, [
            (.bytes, "draining: ended 0 UNIMPLEMENTED | 404 close"),
            (.request, "open: run 2 | -"),
            (.finish, "open:  | -"),
            (.message, "open:  | -"),
            (.wrote, "open:  | -"),
            (.tick, "closed: close | -"),
            (.shutdown, "closed: close | -"),
            (.shed, "closed: close | -"),
            (.lost, "closed: close | -"),
            (.authenticated, "open:  | -"),
        ]),
        (.calling, [
            (.bytes, "open:  | -"),
            (.request, "open:  | -"),
            (.finish, "open: ended 1 OK | 200"),
            (.message, "open:  | -"),
            (.wrote, "open:  | -"),
            (.tick, "open:  | -"),
            (.shutdown, "draining:  | -"),
            (.shed, "closed: stop 1, close | 429 close"),
            (.lost, "closed: stop 1, close | -"),
            (.authenticated, "open:  | -"),
        ]),
        (.watching, [
            (.bytes, "open:  | -"),
            (.request, "open:  | -"),
            (.finish, "open:  | -"),
            (.message, "open:  | message"),
            (.wrote, "open:  | -"),
            (.tick, "open: timer | -"),
            (.shutdown, "closed: stop 2, ended 2 UNAVAILABLE, close | end-error"),
            (.shed, "closed: stop 2, ended 2 RESOURCE_EXHAUSTED, close | end-error"),
            (.lost, "closed: stop 2, close | -"),
            (.authenticated, "open:  | -"),
        ]),
        (.draining, [
            (.bytes, "draining:  | -"),
            (.request, "draining:  | -"),
            (.finish, "draining: ended 1 OK | 200 close"),
            (.message, "draining:  | -"),
            (.wrote, "draining:  | -"),
            (.tick, "draining:  | -"),
            (.shutdown, "draining:  | -"),
            (.shed, "closed: stop 1, close | 429 close"),
            (.lost, "closed: stop 1, close | -"),
            (.authenticated, "draining:  | -"),
        ]),
        (.closed, [
            (.bytes, "closed:  | -"),
            (.request, "closed:  | -"),
            (.finish, "closed:  | -"),
            (.message, "closed:  | -"),
            (.wrote, "closed:  | -"),
            (.tick, "closed:  | -"),
            (.shutdown, "closed:  | -"),
            (.shed, "closed:  | -"),
            (.lost, "closed:  | -"),
            (.authenticated, "closed:  | -"),
        ]),
    ]
}
