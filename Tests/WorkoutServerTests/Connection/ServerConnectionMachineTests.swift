import Testing
import WorkoutProtocol
@testable import WorkoutServer

/// The server connection's rules, event by event on a manual clock: no sockets, no sleeps.
@Suite struct ServerConnectionMachineTests {
    static let health = MethodCatalog.health.descriptor
    static let profile = MethodCatalog.getProfile.descriptor
    static let watch = MethodCatalog.watch.descriptor
    static let export = MethodCatalog.export.descriptor

    static func limits(_ change: (inout ServerConnectionMachine.Limits) -> Void = { _ in }) -> ServerConnectionMachine.Limits {
        var limits = ServerConnectionMachine.Limits()
        limits.handshakeTimeout = .seconds(10)
        limits.pingInterval = .seconds(30)
        limits.idleTimeout = .seconds(300)
        change(&limits)
        return limits
    }

    /// A connection with a session bound by a (fake) Resume call.
    static func signedIn(_ limits: ServerConnectionMachine.Limits = limits()) -> ServerMachineHarness {
        var harness = ServerMachineHarness(limits: limits)
        let resume = harness.request(MethodCatalog.resume.descriptor)
        harness.finish(resume, .success([]), session: .bound)
        _ = harness.readFrames()
        return harness
    }

    // MARK: Handshake

    @Test func theServerAnswersThePrefaceWithItsPrefaceAndHelloBeforeTheClientsHello() {
        var harness = ServerMachineHarness(limits: Self.limits(), handshake: false)
        harness.sendPreface()
        let frames = harness.readFrames()
        #expect(frames.map(\.type) == [.hello])
        #expect(harness.machine.phase == .awaitingHello)
        harness.send(ServerMachineHarness.clientHello())
        #expect(harness.machine.phase == .open)
        #expect(harness.readFrames().isEmpty, "no second HELLO")
    }

    @Test(arguments: [
        ([0x57, 0x4B, 0x52, 0x51, 1, 1, 0, 0] as [UInt8], StatusCode.invalidArgument),
        ([0x57, 0x4B, 0x52, 0x50, 1, 1, 0, 1], .invalidArgument),
        ([0x57, 0x4B, 0x52, 0x50, 2, 1, 0, 0], .invalidArgument),
        ([0x57, 0x4B, 0x52, 0x50, 2, 3, 0, 0], .failedPrecondition),
    ])
    func aBadPrefaceIsRefusedWithTheZeroPrefaceAndAGoAway(preface: [UInt8], status: StatusCode) {
        var harness = ServerMachineHarness(limits: Self.limits(), handshake: false)
        harness.sendPreface(preface)
        let frames = harness.readFrames()
        #expect(frames.map(\.type) == [.goAway])
        #expect(frames.first.map { StatusCode(rawValue: $0.code) } == status)
        #expect(harness.closed)
    }

    @Test(arguments: [
        (UInt32(0), UInt32(0), true),
        (65_536, 67_108_864, true),
        (1_000, 0, false),
        (0, 100_000_000, false),
        (67_108_865, 0, false),
    ])
    func clientHelloSizesOutsideTheirBoundsAreAConnectionError(maxFrame: UInt32, maxInflate: UInt32, accepted: Bool) {
        var harness = ServerMachineHarness(limits: Self.limits(), handshake: false)
        harness.sendPreface()
        _ = harness.readFrames()
        harness.send(ServerMachineHarness.clientHello(maxFrameSize: maxFrame, maxDecompressedSize: maxInflate))
        let frames = harness.readFrames()
        #expect(harness.machine.phase == (accepted ? .open : .closed))
        if !accepted {
            #expect(frames.map(\.type) == [.goAway])
            #expect(frames.first.map { StatusCode(rawValue: $0.code) } == .invalidArgument)
        }
    }

    @Test func aHandshakeThatDoesNotFinishInTimeIsClosed() {
        // Nothing at all: a plain close.
        var silent = ServerMachineHarness(limits: Self.limits(), handshake: false)
        #expect(silent.armedAt == .ms(10_000))
        silent.tick(at: 9_999)
        #expect(!silent.closed)
        silent.tick(at: 10_000)
        #expect(silent.closed)
        #expect(silent.readFrames().isEmpty)
        // Preface but no HELLO: GOAWAY DEADLINE_EXCEEDED after our preface.
        var halfway = ServerMachineHarness(limits: Self.limits(), handshake: false)
        halfway.sendPreface()
        _ = halfway.readFrames()
        halfway.tick(at: 10_000)
        let frames = halfway.readFrames()
        #expect(frames.map(\.type) == [.goAway])
        #expect(frames.first.map { StatusCode(rawValue: $0.code) } == .deadlineExceeded)
    }

    @Test func aSecondHelloIsAConnectionError() {
        var harness = ServerMachineHarness(limits: Self.limits())
        harness.send(ServerMachineHarness.clientHello())
        #expect(harness.readFrames().map(\.type) == [.goAway])
        #expect(harness.closed)
    }

    // MARK: Calls

    @Test func requestsAreCheckedInTheSpecsOrderBeforeTheyRun() {
        var harness = ServerMachineHarness(limits: Self.limits { $0.maxCallsInFlight = 2 })
        let open = harness.request(Self.health)
        #expect(harness.ran == [open])
        let unknown = harness.request(number: 65_000)
        let expired = harness.request(Self.health, deadline: 0)
        let needsSession = harness.request(Self.profile)
        let second = harness.request(Self.health)
        #expect(harness.ran == [second])
        let third = harness.request(number: 65_000)
        let frames = harness.readFrames()
        #expect(ServerMachineHarness.status(of: unknown, in: frames) == .unimplemented)
        #expect(ServerMachineHarness.status(of: expired, in: frames) == .deadlineExceeded)
        #expect(ServerMachineHarness.status(of: needsSession, in: frames) == .unauthenticated)
        // The limit comes before "method known".
        #expect(ServerMachineHarness.status(of: third, in: frames) == .resourceExhausted)
        #expect(frames.first { $0.callID == third }.map(ServerMachineHarness.message) == "too many calls in flight: at most 2 on this connection")
        #expect(harness.machine.callsInFlight == 2)
    }

    @Test func aCallIDThatDoesNotIncreaseIsAConnectionError() {
        var harness = ServerMachineHarness(limits: Self.limits())
        harness.request(Self.health, callID: 5)
        harness.request(Self.health, callID: 5)
        let frames = harness.readFrames()
        #expect(frames.last?.type == .goAway)
        #expect(frames.last?.callID == 5, "GOAWAY names the last call accepted")
        #expect(harness.closed)
    }

    @Test func everyCallGetsExactlyOneFinalFrameWhateverTheRace() {
        // Finished, then cancelled: the CANCEL crossed the answer and is ignored.
        var harness = ServerMachineHarness(limits: Self.limits())
        let first = harness.request(Self.health)
        harness.finish(first, .success([1, 2, 3]))
        harness.cancel(first)
        // Cancelled, then finished: CANCELLED, the late outcome dropped, the work stopped.
        let second = harness.request(Self.health)
        harness.cancel(second)
        #expect(harness.stopped == [second])
        harness.finish(second, .success([9]))
        // Timed out, then finished.
        let third = harness.request(Self.health, deadline: 50)
        harness.tick(at: 50)
        #expect(harness.stopped == [third])
        harness.finish(third, .success([9]))
        // A CANCEL for an id never used is ignored.
        harness.cancel(99)
        let frames = harness.readFrames()
        for (callID, status) in [(first, StatusCode.ok), (second, .cancelled), (third, .deadlineExceeded)] {
            let finals = frames.filter { $0.callID == callID && $0.type == .response }
            #expect(finals.count == 1)
            #expect(finals.first.map { StatusCode(rawValue: $0.code) } == status)
        }
        #expect(frames.first { $0.callID == first }?.body == [1, 2, 3])
        #expect(!harness.closed)
    }

    @Test(arguments: [(answerAt: Int64(99), status: StatusCode.ok), (answerAt: 100, status: .deadlineExceeded)])
    func aDeadlineEndsTheCallOnlyIfTheAnswerIsLater(answerAt: Int64, status: StatusCode) {
        var harness = ServerMachineHarness(limits: Self.limits())
        let call = harness.request(Self.health, deadline: 100)
        #expect(harness.armedAt == .ms(100))
        harness.tick(at: answerAt)
        harness.finish(call, .success([]))
        harness.tick(at: 200)
        let frames = harness.readFrames()
        #expect(frames.filter { $0.callID == call }.count == 1)
        #expect(ServerMachineHarness.status(of: call, in: frames) == status)
    }

    @Test func aResponseTooLargeForTheClientBecomesResourceExhausted() {
        var harness = ServerMachineHarness(limits: Self.limits(), handshake: false)
        harness.sendPreface()
        harness.send(ServerMachineHarness.clientHello(maxFrameSize: 65_536))
        _ = harness.readFrames()
        let call = harness.request(Self.health)
        harness.finish(call, .success([UInt8](repeating: 7, count: 70_000).map { $0 &+ UInt8.random(in: 0...200) }))
        let frames = harness.readFrames()
        #expect(ServerMachineHarness.status(of: call, in: frames) == .resourceExhausted)
        #expect(frames.first.map(ServerMachineHarness.message)?.contains("max frame size 65536") == true)
    }

    @Test func aPingIsAnsweredWithThePongOfTheSamePayload() {
        var harness = ServerMachineHarness(limits: Self.limits())
        harness.send(Frame(type: .ping, body: [1, 2, 3, 4, 5, 6, 7, 8]))
        let frames = harness.readFrames()
        #expect(frames.map(\.type) == [.pong])
        #expect(frames.first?.body == [1, 2, 3, 4, 5, 6, 7, 8])
    }

    // MARK: Keepalive and idle

    @Test func aSilentClientIsPingedThenDroppedWhenNothingAnswers() {
        var harness = Self.signedIn()
        let watch = harness.request(Self.watch)  // a call in flight: never idle
        harness.tick(at: 29_999)
        #expect(harness.readFrames().isEmpty)
        harness.tick(at: 30_000)
        #expect(harness.readFrames().map(\.type) == [.ping])
        harness.tick(at: 329_999)
        #expect(!harness.closed)
        harness.tick(at: 330_000)
        let frames = harness.readFrames()
        #expect(frames.last?.type == .goAway)
        #expect(frames.last.map { StatusCode(rawValue: $0.code) } == .unavailable)
        #expect(harness.history.contains(.stopWork(callID: watch)))
        #expect(harness.closed)
    }

    @Test func anyByteFromTheClientCountsAsAnAnswerToThePing() {
        var harness = Self.signedIn()
        harness.request(Self.watch)
        harness.tick(at: 30_000)
        _ = harness.readFrames()
        harness.advance(to: 100_000)
        harness.send(Frame(type: .pong, body: [0, 0, 0, 0, 0, 0, 0, 0]))
        harness.tick(at: 330_000)
        #expect(!harness.closed)
        #expect(harness.readFrames().map(\.type) == [.ping], "the next PING, 30 s after the PONG")
    }

    @Test func aConnectionWithoutCallsIsClosedAfterTheIdleTimeout() {
        var harness = Self.signedIn(Self.limits { $0.pingInterval = .zero })
        let call = harness.request(Self.health)
        harness.advance(to: 1_000)
        harness.finish(call)
        // The handshake's timer is still set: the machine re-arms lazily when it fires.
        #expect(harness.armedAt == .ms(10_000))
        harness.tick(at: 10_000)
        #expect(harness.armedAt == .ms(301_000))
        harness.tick(at: 300_999)
        #expect(!harness.closed)
        harness.tick(at: 301_000)
        let frames = harness.readFrames()
        #expect(frames.last?.type == .goAway)
        #expect(frames.last.map { StatusCode(rawValue: $0.code) } == .ok)
        #expect(harness.closed)
    }

    @Test func pingsAndHalfAFrameDoNotKeepAConnectionFromBeingIdle() {
        // Pings of the client's own, answered, are not calls.
        var pinging = Self.signedIn(Self.limits { $0.idleTimeout = .seconds(3); $0.frameTimeout = .seconds(30) })
        for second in 1...3 {
            pinging.advance(to: Int64(second) * 1_000 - 1)
            pinging.send(Frame(type: .ping, body: [0, 0, 0, 0, 0, 0, 0, UInt8(second)]))
            #expect(pinging.readFrames().map(\.type) == [.pong])
        }
        pinging.tick(at: 3_000)
        let frames = pinging.readFrames()
        #expect(frames.map(\.type) == [.goAway])
        #expect(frames.first.map { StatusCode(rawValue: $0.code) } == .ok)
        #expect(frames.first.map(ServerMachineHarness.message)?.contains("idle") == true)
        #expect(pinging.closed)

        // Half a REQUEST, then nothing: the idle timeout (shorter than the frame timeout) ends it.
        var quiet = Self.signedIn(Self.limits { $0.idleTimeout = .seconds(3); $0.frameTimeout = .seconds(30) })
        var bytes: [UInt8] = []
        Frame(type: .request, callID: 100, code: MethodCatalog.logWeight.number, body: [UInt8](repeating: 0, count: 100)).encode(into: &bytes)
        quiet.send(bytes: Array(bytes.prefix(26)))
        quiet.tick(at: 2_999)
        #expect(!quiet.closed)
        quiet.tick(at: 3_000)
        #expect(quiet.readFrames().last.map { StatusCode(rawValue: $0.code) } == .ok)
        #expect(quiet.closed)
    }

    // MARK: Streams

    @Test func aWatchEndsWithTheSessionAndAtTheStreamDurationLimit() {
        var harness = Self.signedIn(Self.limits { $0.maxStreamDuration = .seconds(60) })
        let first = harness.request(Self.watch)
        #expect(harness.ran == [first])
        harness.tick(at: 60_000)
        #expect(harness.stopped == [first])
        #expect(ServerMachineHarness.status(of: first, in: harness.readFrames()) == .ok)
        let second = harness.request(Self.watch)
        let logout = harness.request(MethodCatalog.logout.descriptor)
        harness.finish(logout, .success([]), session: .ended)
        #expect(harness.stopped == [second])
        let frames = harness.readFrames()
        #expect(ServerMachineHarness.status(of: second, in: frames) == .unauthenticated)
        #expect(!harness.machine.hasSession)
    }

    @Test func streamsProduceOnlyWhileTheOutputHasRoomAndResumeWhenItDrains() {
        var harness = Self.signedIn(Self.limits { $0.maxBufferedOutput = 10_000 })
        let export = harness.request(Self.export)
        var sent = 0
        while harness.machine.canProduce(export) && sent < 100 {
            harness.streamMessage(export, [UInt8](repeating: 1, count: 3_000))
            sent += 1
        }
        #expect(sent == 4, "stops once 10,000 bytes wait")
        #expect(harness.actions.contains(.pauseReading))
        // Half drained is not enough, all of it is.
        let resumed = harness.readFrames()
        #expect(resumed.filter { $0.type == .streamMessage }.count == 4)
        #expect(harness.actions.contains(.resumeReading))
        #expect(harness.actions.contains(.resumeProducing))
        #expect(harness.machine.canProduce(export))
    }

    @Test func aSlowReaderIsDroppedOnlyAfterTheOutputStayedFullForTheTimeout() {
        var harness = Self.signedIn(Self.limits { $0.maxBufferedOutput = 10_000; $0.slowReaderTimeout = .seconds(30); $0.pingInterval = .zero })
        let watch = harness.request(Self.watch)
        harness.advance(to: 1_000)
        while harness.machine.canProduce(watch) { harness.streamMessage(watch, [UInt8](repeating: 2, count: 3_000)) }
        harness.tick(at: 10_000)
        #expect(harness.armedAt == .ms(31_000))
        harness.tick(at: 30_999)
        #expect(!harness.closed)
        harness.tick(at: 31_000)
        #expect(harness.closed)
        #expect(ServerMachineHarness.status(of: watch, in: harness.pendingFrames()) == .resourceExhausted)
    }

    @Test func aLargeTransportBacklogPausesReadingAndCountsTowardTheSlowReaderLimit() {
        var harness = Self.signedIn(Self.limits { $0.maxTransportBacklog = 10_000; $0.slowReaderTimeout = .seconds(30); $0.pingInterval = .zero })
        harness.advance(to: 1_000)
        // TLS answers made while reading (KeyUpdate replies): the machine's output is empty.
        harness.transportBacklog(10_000)
        #expect(!harness.actions.contains(.pauseReading), "at the limit is allowed")
        harness.transportBacklog(10_001)
        #expect(harness.actions.contains(.pauseReading))
        harness.transportBacklog(6_000)
        #expect(!harness.actions.contains(.resumeReading), "not before half of it is sent")
        harness.transportBacklog(5_000)
        #expect(harness.actions.contains(.resumeReading))
        // Backed up again, and left so: dropped at the slow reader limit.
        harness.advance(to: 2_000)
        harness.transportBacklog(20_000)
        harness.tick(at: 31_999)
        #expect(!harness.closed)
        harness.tick(at: 32_000)
        #expect(harness.closed)
    }

    @Test func drainingClosesOnlyOnceTheTransportSentTheLastAnswer() {
        var harness = Self.signedIn()
        let write = harness.request(Self.profile)
        harness.shutdown()
        harness.finish(write, .success([5]))
        // The transport took every byte of the answer, but its ciphertext still waits.
        let frames = harness.readFrames(transportBacklog: 300)
        #expect(ServerMachineHarness.status(of: write, in: frames) == .ok)
        #expect(!harness.closed, "the answer is not on the wire yet")
        harness.transportBacklog(100)
        #expect(!harness.closed)
        harness.transportBacklog(0)
        #expect(harness.closed)
    }

    // MARK: Shutdown

    @Test func shutdownSendsGoAwayEndsWatchesFinishesCallsAndThenCloses() {
        var harness = Self.signedIn()
        let watch = harness.request(Self.watch)
        let write = harness.request(Self.profile)
        harness.shutdown()
        #expect(harness.stopped == [watch])
        let atGoAway = harness.readFrames()
        #expect(ServerMachineHarness.status(of: watch, in: atGoAway) == .unavailable)
        let goAway = atGoAway.first { $0.type == .goAway }
        #expect(goAway?.callID == write)
        #expect(goAway.map { StatusCode(rawValue: $0.code) } == .ok)
        let late = harness.request(Self.health)
        #expect(harness.ran.isEmpty)
        harness.finish(write, .success([5]))
        #expect(!harness.closed, "not before the output is written")
        let frames = harness.readFrames()
        #expect(ServerMachineHarness.status(of: late, in: frames) == .unavailable)
        #expect(ServerMachineHarness.status(of: write, in: frames) == .ok)
        #expect(harness.closed)
    }

    @Test func shutdownDuringTheHandshakeClosesAtOnce() {
        var harness = ServerMachineHarness(limits: Self.limits(), handshake: false)
        harness.sendPreface()
        harness.shutdown()
        #expect(harness.closed)
    }

    @Test func eventsAfterCloseAreIgnored() {
        var harness = ServerMachineHarness(limits: Self.limits())
        harness.send(ServerMachineHarness.clientHello())
        #expect(harness.closed)
        harness.request(Self.health)
        harness.tick(at: 1_000_000)
        harness.finish(1)
        #expect(harness.actions.isEmpty)
    }
}
