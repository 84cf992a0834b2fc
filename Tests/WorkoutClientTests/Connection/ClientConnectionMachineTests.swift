import Testing
import WorkoutProtocol
@testable import WorkoutClient

/// A ``ClientConnectionMachine`` driven by hand: a manual clock, the server's bytes made here,
/// the client's output read back as frames.
private struct ClientMachineHarness {
    var machine: ClientConnectionMachine
    private(set) var now = ConnectionInstant.zero
    private(set) var actions: [ClientConnectionAction] = []
    private(set) var history: [ClientConnectionAction] = []
    private var peer = FrameDecoder(role: .server, maxFrameSize: 64 << 20)

    init(handshakeTimeout: Duration = .seconds(5)) {
        var options = ClientConnectionMachine.Options()
        options.connectTimeout = handshakeTimeout
        machine = ClientConnectionMachine(options: options, now: .zero)
        record(machine.start(now: .zero))
    }

    /// The server's preface and HELLO with these limits.
    mutating func serverHandshake(maxCallsInFlight: UInt32 = 64, pingIntervalMs: UInt32 = 30_000) {
        let opening = sentFrames()  // our preface and HELLO, unless a test read them already
        precondition(opening.allSatisfy { $0.type == .hello })
        var bytes: [UInt8] = []
        Preface.accepting(1).encode(into: &bytes)
        var hello = Workout_V1_ServerHello()
        hello.version = 1
        hello.maxCallsInFlight = maxCallsInFlight
        hello.pingIntervalMs = pingIntervalMs
        hello.maxFrameSize = 4 << 20
        Frame(type: .hello, body: try! hello.serializedBytes()).encode(into: &bytes)
        receive(bytes)
    }

    mutating func receive(_ bytes: [UInt8]) {
        record(bytes.withUnsafeBytes { machine.received($0, now: now) })
    }

    mutating func receive(_ frame: Frame) {
        var bytes: [UInt8] = []
        frame.encode(into: &bytes)
        receive(bytes)
    }

    mutating func respond(_ callID: UInt32, _ body: [UInt8] = [], status: StatusCode = .ok, type: FrameType = .response) {
        var payload = body
        if status != .ok {
            var details = Workout_V1_RpcStatus()
            details.message = "refused"
            payload = try! details.serializedBytes()
        }
        receive(Frame(type: type, callID: callID, code: status.rawValue, body: payload))
    }

    @discardableResult
    mutating func call(_ method: UInt32 = 101, stream: Bool = false, deadlineMs: Int64? = nil) -> ClientCallHandle {
        let deadline = deadlineMs.map { ConnectionInstant.zero + .milliseconds($0) }
        let (handle, result) = machine.startCall(method: method, body: [1, 2], isStream: stream, deadline: deadline, now: now)
        record(result)
        return handle
    }

    mutating func abandon(_ handle: ClientCallHandle) {
        record(machine.abandon(handle, WorkoutError(code: .cancelled, message: "cancelled"), now: now))
    }

    mutating func tick(at milliseconds: Int64) {
        now = .zero + .milliseconds(milliseconds)
        record(machine.tick(now: now))
    }

    mutating func advance(to milliseconds: Int64) {
        now = .zero + .milliseconds(milliseconds)
    }

    /// The frames the client wrote since the last read (the socket takes all of it).
    mutating func sentFrames() -> [Frame] {
        let bytes = machine.output.withUnreadBytes { Array($0) }
        machine.wrote(bytes.count)
        peer.append(bytes)
        if peer.peerPreface == nil { _ = try? peer.readPreface() }
        var frames: [Frame] = []
        while let frame = try? peer.nextFrame() { frames.append(frame) }
        return frames
    }

    private mutating func record(_ result: [ClientConnectionAction]) {
        actions = result
        history += result
    }

    func failure(of handle: ClientCallHandle) -> CallFailure? {
        history.lazy.compactMap { if case .fail(handle, let failure) = $0 { failure } else { nil } }.first
    }

    func delivered(to handle: ClientCallHandle) -> [[UInt8]] {
        history.compactMap { if case .deliver(handle, let body) = $0 { body } else { nil } }
    }

    func finished(_ handle: ClientCallHandle) -> Bool {
        history.contains { if case .finish(handle) = $0 { true } else { false } }
    }

    var closedWith: WorkoutError? {
        history.lazy.compactMap { if case .close(let error, _) = $0 { error } else { nil } }.first
    }
}

/// The client connection's rules, event by event on a manual clock: no sockets, no sleeps.
@Suite struct ClientConnectionMachineTests {
    @Test func theClientSendsItsPrefaceAndHelloAtOnceAndCallsWaitForTheServersHello() {
        var harness = ClientMachineHarness()
        let early = harness.call()
        #expect(harness.sentFrames().map(\.type) == [.hello])
        harness.serverHandshake()
        #expect(harness.history.contains { if case .handshakeCompleted = $0 { true } else { false } })
        let sent = harness.sentFrames()
        #expect(sent.map(\.type) == [.request])
        harness.respond(sent[0].callID, [7])
        #expect(harness.delivered(to: early) == [[7]])
    }

    @Test func aHandshakeThatDoesNotFinishInTimeFailsWaitingCallsAsNotProcessed() {
        var harness = ClientMachineHarness(handshakeTimeout: .seconds(5))
        let call = harness.call()
        harness.tick(at: 4_999)
        #expect(harness.closedWith == nil)
        harness.tick(at: 5_000)
        #expect(harness.closedWith?.code == .unavailable)
        #expect(harness.failure(of: call)?.disposition == .notProcessed)
    }

    @Test func aGoAwayInsteadOfAHelloIsARefusalWithTheServersWords() {
        var harness = ClientMachineHarness()
        var bytes: [UInt8] = []
        Preface.refusal.encode(into: &bytes)
        GoAwayNotice(lastCallID: 0, status: .failedPrecondition, message: "this server speaks protocol versions 1...1").frame.encode(into: &bytes)
        harness.receive(bytes)
        #expect(harness.closedWith?.code == .failedPrecondition)
        #expect(harness.closedWith?.message.contains("versions 1...1") == true)
    }

    @Test func callsBeyondTheServersLimitWaitInOrderForAFreeSlot() {
        var harness = ClientMachineHarness()
        harness.serverHandshake(maxCallsInFlight: 2)
        let calls = (0..<4).map { harness.call(UInt32(100 + $0)) }
        var sent = harness.sentFrames()
        #expect(sent.map(\.code) == [100, 101])
        harness.respond(sent[1].callID)
        sent = harness.sentFrames()
        #expect(sent.map(\.code) == [102], "the oldest waiting call goes first")
        harness.respond(1)
        #expect(harness.sentFrames().map(\.code) == [103])
        #expect(harness.delivered(to: calls[0]) == [[]])
    }

    @Test func aDeadlineIsSentAsTheRemainingBudgetAndKeptLocally() {
        var harness = ClientMachineHarness()
        harness.serverHandshake()
        harness.advance(to: 1_000)
        let call = harness.call(deadlineMs: 1_250)
        let request = harness.sentFrames()[0]
        #expect(request.deadline == 250)
        harness.tick(at: 1_249)
        #expect(harness.failure(of: call) == nil)
        harness.tick(at: 1_250)
        #expect(harness.failure(of: call)?.error.code == .deadlineExceeded)
        #expect(harness.sentFrames().map(\.type) == [.cancel])
        // The late answer is ignored; its slot is freed only by it.
        harness.respond(request.callID, [1])
        #expect(harness.delivered(to: call).isEmpty)
    }

    @Test func aDeadlineRunsWhileTheCallWaitsForASlot() {
        var harness = ClientMachineHarness()
        harness.serverHandshake(maxCallsInFlight: 1)
        harness.call()
        let waiting = harness.call(deadlineMs: 100)
        _ = harness.sentFrames()
        harness.tick(at: 100)
        #expect(harness.failure(of: waiting)?.error.code == .deadlineExceeded)
        #expect(harness.sentFrames().isEmpty, "never sent, so no CANCEL")
        harness.respond(1)
        #expect(harness.sentFrames().isEmpty)
    }

    @Test func abandoningASentCallSendsCancelAndKeepsItsSlotUntilTheFinalFrame() {
        var harness = ClientMachineHarness()
        harness.serverHandshake(maxCallsInFlight: 1)
        let first = harness.call()
        let second = harness.call()
        _ = harness.sentFrames()
        harness.abandon(first)
        #expect(harness.failure(of: first)?.error.code == .cancelled)
        #expect(harness.sentFrames().map(\.type) == [.cancel])
        harness.respond(1, status: .cancelled)
        #expect(harness.sentFrames().map(\.type) == [.request])
        harness.respond(2, [3])
        #expect(harness.delivered(to: second) == [[3]])
    }

    @Test func whileCallsWaitASilentServerIsPingedThenGivenUp() {
        var harness = ClientMachineHarness()
        harness.serverHandshake(pingIntervalMs: 1_000)
        harness.tick(at: 5_000)
        #expect(harness.sentFrames().isEmpty, "no calls: no pings")
        let call = harness.call()
        _ = harness.sentFrames()
        harness.tick(at: 6_000)
        #expect(harness.sentFrames().map(\.type) == [.ping])
        harness.tick(at: 6_999)
        #expect(harness.closedWith == nil)
        harness.tick(at: 7_000)
        #expect(harness.closedWith?.message == "the server stopped answering")
        #expect(harness.failure(of: call)?.disposition == .outcomeUnknown)
    }

    @Test func aGoAwayFailsCallsAboveItsLastIDAsNotProcessedAndAnswersTheRest() {
        var harness = ClientMachineHarness()
        harness.serverHandshake()
        let calls = (0..<3).map { _ in harness.call() }
        _ = harness.sentFrames()
        harness.receive(GoAwayNotice(lastCallID: 1, status: .ok, message: "server shutting down").frame)
        #expect(harness.history.contains { if case .stopNewCalls = $0 { true } else { false } })
        #expect(harness.failure(of: calls[1])?.disposition == .notProcessed)
        #expect(harness.failure(of: calls[2])?.disposition == .notProcessed)
        let late = harness.call()
        #expect(harness.failure(of: late)?.disposition == .notProcessed)
        #expect(harness.closedWith == nil)
        harness.respond(1, [9])
        #expect(harness.delivered(to: calls[0]) == [[9]])
        #expect(harness.closedWith != nil, "closed once the last answer arrived")
    }

    @Test func streamsDeliverMessagesThenEndOKOrWithTheServersStatus() {
        var harness = ClientMachineHarness()
        harness.serverHandshake()
        let good = harness.call(701, stream: true)
        let bad = harness.call(701, stream: true)
        _ = harness.sentFrames()
        harness.receive(Frame(type: .streamMessage, callID: 1, body: [1]))
        harness.receive(Frame(type: .streamMessage, callID: 1, body: [2]))
        harness.respond(1, type: .streamEnd)
        harness.respond(2, status: .unauthenticated, type: .streamEnd)
        #expect(harness.delivered(to: good) == [[1], [2]])
        #expect(harness.finished(good))
        #expect(harness.failure(of: bad)?.error.code == .unauthenticated)
        #expect(harness.failure(of: bad)?.disposition == .final)
    }

    @Test func aServerPingIsAnsweredWithItsBytes() {
        var harness = ClientMachineHarness()
        harness.serverHandshake()
        _ = harness.sentFrames()
        harness.receive(Frame(type: .ping, body: [8, 7, 6, 5, 4, 3, 2, 1]))
        let sent = harness.sentFrames()
        #expect(sent.map(\.type) == [.pong])
        #expect(sent.first?.body == [8, 7, 6, 5, 4, 3, 2, 1])
    }

    @Test(arguments: [
        ([0x57, 0x4B, 0x52, 0x50, 9, 9, 0, 0] as [UInt8], "does not speak"),
        ([0x00, 0x4B, 0x52, 0x50, 1, 1, 0, 0], "broke the protocol"),
    ])
    func aServerThatBreaksTheProtocolIsLeftAndItsCallsFail(preface: [UInt8], message: String) {
        var harness = ClientMachineHarness()
        let call = harness.call()
        harness.receive(preface)
        #expect(harness.closedWith?.message.contains(message) == true)
        #expect(harness.failure(of: call) != nil)
    }

    @Test func aLostConnectionFailsSentCallsAsUnknownAndWaitingOnesAsNotProcessed() {
        var harness = ClientMachineHarness()
        harness.serverHandshake(maxCallsInFlight: 1)
        let sent = harness.call()
        let waiting = harness.call()
        _ = harness.sentFrames()
        harness.actionsAfterLoss()
        #expect(harness.failure(of: sent)?.disposition == .outcomeUnknown)
        #expect(harness.failure(of: waiting)?.disposition == .notProcessed)
        let later = harness.call()
        #expect(harness.failure(of: later)?.disposition == .notProcessed)
    }
}

extension ClientMachineHarness {
    fileprivate mutating func actionsAfterLoss() {
        record(machine.connectionLost(.unavailable("lost")))
    }
}
