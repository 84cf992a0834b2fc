import Testing
import WorkoutProtocol
@testable import WorkoutServer

/// A ``ServerConnectionMachine`` driven by hand: a manual clock, the client's bytes made here,
/// the server's output read back as frames, and the actions of the last event.
struct ServerMachineHarness {
    var machine: ServerConnectionMachine
    /// The manual clock, in milliseconds from zero.
    private(set) var now = ConnectionInstant.zero
    /// The actions of the last event (and of the writes that read the output back).
    private(set) var actions: [ServerConnectionAction] = []
    /// Every action since the harness began.
    private(set) var history: [ServerConnectionAction] = []
    private var peer = FrameDecoder(role: .client, maxFrameSize: 64 << 20)
    private var nextCallID: UInt32 = 1

    /// Every catalog method, as a server serves them.
    static let methods = Dictionary(uniqueKeysWithValues: MethodCatalog.all.map { ($0.number, $0) })

    /// A connection accepted at time zero; with `handshake`, preface and HELLO done both ways.
    init(limits: ServerConnectionMachine.Limits = .init(), handshake: Bool = true) {
        machine = ServerConnectionMachine(limits: limits, methods: Self.methods, now: .zero)
        record(machine.start(now: .zero))
        if handshake {
            sendPreface()
            send(Self.clientHello())
            _ = readFrames()
        }
    }

    static func clientHello(maxFrameSize: UInt32 = 0, maxDecompressedSize: UInt32 = 0) -> Frame {
        var hello = Workout_V1_ClientHello()
        hello.agent = "machine tests"
        hello.maxFrameSize = maxFrameSize
        hello.maxDecompressedSize = maxDecompressedSize
        return Frame(type: .hello, body: try! hello.serializedBytes())
    }

    // MARK: Events

    mutating func sendPreface(_ preface: [UInt8] = [0x57, 0x4B, 0x52, 0x50, 1, 1, 0, 0]) {
        send(bytes: preface)
    }

    mutating func send(bytes: [UInt8]) {
        let result = bytes.withUnsafeBytes { machine.received($0, now: now) }
        record(result)
    }

    mutating func send(_ frame: Frame) {
        var bytes: [UInt8] = []
        frame.encode(into: &bytes)
        send(bytes: bytes)
    }

    /// Sends a REQUEST for `method` and returns its call id.
    @discardableResult
    mutating func request(_ method: MethodDescriptor, body: [UInt8] = [], deadline: UInt32? = nil, callID: UInt32? = nil) -> UInt32 {
        request(number: method.number, body: body, deadline: deadline, callID: callID)
    }

    /// Sends a REQUEST for method `number` (served or not) and returns its call id.
    @discardableResult
    mutating func request(number: UInt32, body: [UInt8] = [], deadline: UInt32? = nil, callID: UInt32? = nil) -> UInt32 {
        let id = callID ?? nextCallID
        nextCallID = id + 1
        send(Frame(type: .request, callID: id, code: number, deadline: deadline, body: body))
        return id
    }

    mutating func cancel(_ callID: UInt32) {
        send(Frame(type: .cancel, callID: callID))
    }

    /// Moves the clock to `milliseconds` after zero and ticks.
    mutating func tick(at milliseconds: Int64) {
        now = .zero + .milliseconds(milliseconds)
        record(machine.tick(now: now))
    }

    /// Moves the clock without ticking.
    mutating func advance(to milliseconds: Int64) {
        now = .zero + .milliseconds(milliseconds)
    }

    mutating func finish(_ callID: UInt32, _ outcome: CallOutcome = .success([]), session: SessionChange? = nil) {
        record(machine.callFinished(callID, outcome, session: session, now: now))
    }

    mutating func streamMessage(_ callID: UInt32, _ body: [UInt8]) {
        record(machine.streamMessage(callID, body, now: now))
    }

    mutating func shutdown() {
        record(machine.beginShutdown(message: "server shutting down", now: now))
    }

    /// What the server sent since the last read, as frames; the output counts as written.
    mutating func readFrames() -> [Frame] {
        let bytes = machine.output.withUnreadBytes { Array($0) }
        guard !bytes.isEmpty else { return [] }
        record(machine.wrote(bytes.count, now: now), replacing: false)
        return decode(bytes)
    }

    /// The transport took all of the output but holds `backlog` bytes of it (TLS ciphertext
    /// the socket has not taken); the frames, as the peer will read them once it gets them.
    mutating func readFrames(transportBacklog backlog: Int) -> [Frame] {
        let bytes = machine.output.withUnreadBytes { Array($0) }
        record(machine.wrote(bytes.count, transportBacklog: backlog, now: now), replacing: false)
        return decode(bytes)
    }

    /// The transport's backlog changed to `backlog` bytes (reading made some, or the socket took some).
    mutating func transportBacklog(_ backlog: Int) {
        record(machine.wrote(0, transportBacklog: backlog, now: now))
    }

    /// The transport (TLS) read what arrived: whether a record came whole, and whether it now
    /// holds part of one.
    mutating func transportRead(completedRecord: Bool, holdsIncompleteRecord: Bool) {
        record(machine.transportRead(completedRecord: completedRecord, holdsIncompleteRecord: holdsIncompleteRecord, now: now))
    }

    /// What the server sent, without writing it (the socket takes nothing).
    func pendingFrames() -> [Frame] {
        var copy = self
        return copy.decode(machine.output.withUnreadBytes { Array($0) })
    }

    private mutating func decode(_ bytes: [UInt8]) -> [Frame] {
        peer.append(bytes)
        var frames: [Frame] = []
        if peer.peerPreface == nil { _ = try? peer.readPreface() }
        while let frame = try? peer.nextFrame() { frames.append(frame) }
        return frames
    }

    mutating func record(_ result: [ServerConnectionAction], replacing: Bool = true) {
        if replacing { actions = result } else { actions += result }
        history += result
    }

    // MARK: Reading the actions

    /// The calls the last event told the driver to run.
    var ran: [UInt32] {
        actions.compactMap { if case .run(let call) = $0 { call.callID } else { nil } }
    }

    /// The calls whose work the last event stopped.
    var stopped: [UInt32] {
        actions.compactMap { if case .stopWork(let id) = $0 { id } else { nil } }
    }

    /// Whether the machine has told the driver to close, ever.
    var closed: Bool {
        history.contains { if case .close = $0 { true } else { false } }
    }

    /// The latest timer setting, ever.
    var armedAt: ConnectionInstant? {
        history.reversed().lazy.compactMap { if case .armTimer(let at) = $0 { at } else { nil } }.first
    }

    /// The status of a final frame among `frames` for `callID`.
    static func status(of callID: UInt32, in frames: [Frame]) -> StatusCode? {
        frames.last { $0.callID == callID && ($0.type == .response || $0.type == .streamEnd) }.map { StatusCode(rawValue: $0.code) }
    }

    /// The message of a frame carrying an RpcStatus.
    static func message(_ frame: Frame) -> String {
        (try? Workout_V1_RpcStatus(serializedBytes: frame.body))?.message ?? ""
    }
}

extension ConnectionInstant {
    /// Milliseconds after zero, for expectations.
    static func ms(_ milliseconds: Int64) -> ConnectionInstant { .zero + .milliseconds(milliseconds) }
}
