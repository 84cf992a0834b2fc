import Testing
import WorkoutProtocol
@testable import WorkoutServer

/// The rules that keep a device which connects and then holds (memory, a slot, a frame that
/// never ends) from costing the household more than a little, event by event on a manual clock.
@Suite struct ServerMachineHostileDeviceTests {
    static let health = MethodCatalog.health.descriptor
    static let profile = MethodCatalog.getProfile.descriptor

    static func limits(_ change: (inout ServerConnectionMachine.Limits) -> Void = { _ in }) -> ServerConnectionMachine.Limits {
        var limits = ServerConnectionMachine.Limits()
        limits.maxFrameSize = 4 << 20
        limits.maxFrameSizeWithoutSession = 65_536
        limits.frameTimeout = .seconds(30)
        limits.sessionlessIdleTimeout = .seconds(15)
        limits.pingInterval = .seconds(30)
        limits.idleTimeout = .seconds(300)
        change(&limits)
        return limits
    }

    static func signedIn(_ limits: ServerConnectionMachine.Limits = limits()) -> ServerMachineHarness {
        var harness = ServerMachineHarness(limits: limits)
        let resume = harness.request(MethodCatalog.resume.descriptor)
        harness.finish(resume, .success([]), session: .bound)
        _ = harness.readFrames()
        return harness
    }

    /// The header of a REQUEST announcing `length` payload bytes, and `sent` of them.
    static func partialRequest(callID: UInt32, announcing length: Int, sending sent: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        Frame(type: .request, callID: callID, code: profile.number, body: [UInt8](repeating: 0x41, count: length)).encode(into: &bytes)
        return Array(bytes[..<(FrameHeader.size + sent)])
    }

    @Test func beforeASessionAFrameLargerThanTheSessionlessLimitIsRefusedAtItsHeader() {
        var harness = ServerMachineHarness(limits: Self.limits())
        harness.send(bytes: Self.partialRequest(callID: 1, announcing: 4 << 20, sending: 0))
        #expect(harness.closed)
        let goAway = harness.readFrames().last
        #expect(goAway?.type == .goAway)
        #expect(goAway.map { StatusCode(rawValue: $0.code) } == .resourceExhausted)
        #expect(goAway.map(ServerMachineHarness.message)?.contains("until a session is bound") == true)
        #expect(goAway.map(ServerMachineHarness.message)?.contains("65536") == true)
    }

    @Test func aSessionRaisesTheFrameLimitAndItsEndLowersItAgain() {
        var harness = Self.signedIn()
        let large = [UInt8](repeating: 7, count: 1 << 20)
        let call = harness.request(Self.profile, body: large)
        #expect(harness.ran == [call])
        harness.finish(call)
        let logout = harness.request(MethodCatalog.logout.descriptor)
        harness.finish(logout, .success([]), session: .ended)
        _ = harness.readFrames()
        harness.request(Self.health, body: large)
        #expect(harness.closed)
    }

    @Test func theBufferHoldsWhatArrivedNotWhatTheHeaderAnnounced() {
        var harness = Self.signedIn()
        harness.send(bytes: Self.partialRequest(callID: 2, announcing: 4 << 20, sending: 1_024))
        #expect(!harness.closed)
        #expect(harness.machine.heldFrameBytes < 16 << 10)
    }

    @Test func aFrameThatDoesNotArriveWholeWithinTheFrameTimeoutClosesTheConnection() {
        var harness = Self.signedIn()
        let bytes = Self.partialRequest(callID: 2, announcing: 100, sending: 100)
        // A byte a second: the connection is never silent, but the frame never ends in time.
        harness.advance(to: 1_000)
        harness.send(bytes: Array(bytes[..<20]))
        for second in 2...30 {
            harness.advance(to: Int64(second) * 1_000)
            harness.send(bytes: [bytes[18 + second]])
        }
        harness.tick(at: 30_999)
        #expect(!harness.closed)
        harness.tick(at: 31_000)
        #expect(harness.closed)
        let goAway = harness.readFrames().last
        #expect(goAway.map { StatusCode(rawValue: $0.code) } == .deadlineExceeded)
    }

    @Test func eachFrameGetsItsOwnTimeLimit() {
        var harness = Self.signedIn()
        let first = Self.partialRequest(callID: 2, announcing: 50, sending: 50)
        let second = Self.partialRequest(callID: 3, announcing: 50, sending: 50)
        harness.advance(to: 1_000)
        harness.send(bytes: Array(first[..<30]))
        // The first frame ends 29 s later; the second starts in the same read.
        harness.advance(to: 30_000)
        harness.send(bytes: Array(first[30...]) + Array(second[..<30]))
        harness.finish(2)
        harness.tick(at: 59_999)
        #expect(!harness.closed)
        harness.tick(at: 60_000)
        #expect(harness.closed)
    }

    /// What the transport reported at a moment: a record completed, part of one is held.
    struct RecordRead: Sendable, CustomStringConvertible {
        var at: Int64
        var completed: Bool
        var holds: Bool
        var description: String { "at \(at) ms \(completed ? "a record came whole" : "no record came"), \(holds ? "part of one held" : "nothing held")" }
    }

    /// A case of the TLS record arrival limit: the reports, and when the connection must close
    /// (`nil`: not within a minute and a half of the last report).
    struct RecordCase: Sendable, CustomStringConvertible {
        var name: String
        var reads: [RecordRead]
        var closesAt: Int64?
        var description: String { name }
    }

    static let recordCases = [
        RecordCase(name: "half a record held from 1 s closes the connection at 31 s",
                   reads: [RecordRead(at: 1_000, completed: false, holds: true)], closesAt: 31_000),
        RecordCase(name: "more bytes of the same record do not restart the clock",
                   reads: [RecordRead(at: 1_000, completed: false, holds: true), RecordRead(at: 20_000, completed: false, holds: true)],
                   closesAt: 31_000),
        RecordCase(name: "a record that came whole while the next is held restarts the clock",
                   reads: [RecordRead(at: 1_000, completed: false, holds: true), RecordRead(at: 20_000, completed: true, holds: true)],
                   closesAt: 50_000),
        RecordCase(name: "a record that came whole with nothing held after it ends the clock",
                   reads: [RecordRead(at: 1_000, completed: false, holds: true), RecordRead(at: 20_000, completed: true, holds: false)],
                   closesAt: nil),
        RecordCase(name: "a record held again later gets its own time",
                   reads: [RecordRead(at: 1_000, completed: false, holds: true), RecordRead(at: 20_000, completed: true, holds: false),
                           RecordRead(at: 40_000, completed: false, holds: true)],
                   closesAt: 70_000),
    ]

    @Test("A TLS record must arrive whole within the frame timeout of when the transport began holding it", arguments: recordCases)
    func recordArrivalLimit(_ recordCase: RecordCase) {
        var harness = Self.signedIn()
        for read in recordCase.reads {
            harness.advance(to: read.at)
            harness.transportRead(completedRecord: read.completed, holdsIncompleteRecord: read.holds)
        }
        let last = recordCase.reads.last!.at
        if let closesAt = recordCase.closesAt {
            harness.tick(at: closesAt - 1)
            #expect(!harness.closed)
            harness.tick(at: closesAt)
            #expect(harness.closed)
            let goAway = harness.readFrames().last
            #expect(goAway?.type == .goAway)
            #expect(goAway.map { StatusCode(rawValue: $0.code) } == .deadlineExceeded)
            #expect(goAway.map(ServerMachineHarness.message)?.hasPrefix("a TLS record did not arrive whole within") == true)
        } else {
            harness.tick(at: last + 90_000)
            #expect(!harness.closed)
            #expect(!harness.machine.transportHoldsIncompleteRecord)
        }
    }

    @Test func aConnectionWithoutASessionIsClosedAfterAShortIdleTime() {
        var harness = ServerMachineHarness(limits: Self.limits())
        let health = harness.request(Self.health)
        harness.advance(to: 2_000)
        harness.finish(health)
        _ = harness.readFrames()
        #expect(harness.machine.idleWithoutSessionSince == .ms(2_000))
        harness.tick(at: 16_999)
        #expect(!harness.closed)
        harness.tick(at: 17_000)
        #expect(harness.closed)
        let goAway = harness.readFrames().last
        #expect(goAway?.type == .goAway)
        #expect(goAway.map { StatusCode(rawValue: $0.code) } == .ok)
    }

    @Test func aSessionOrACallInFlightIsNotIdleWithoutASession() {
        var signedIn = Self.signedIn()
        #expect(signedIn.machine.idleWithoutSessionSince == nil)
        signedIn.tick(at: 60_000)
        #expect(!signedIn.closed)

        var calling = ServerMachineHarness(limits: Self.limits())
        calling.request(Self.health)
        #expect(calling.machine.idleWithoutSessionSince == nil)
        calling.tick(at: 20_000)
        #expect(!calling.closed)
    }

    @Test func aShedConnectionIsToldWhyAndClosed() {
        var harness = ServerMachineHarness(limits: Self.limits())
        harness.record(harness.machine.shed("the server is full", now: .ms(5)))
        #expect(harness.closed)
        let goAway = harness.readFrames().last
        #expect(goAway.map { StatusCode(rawValue: $0.code) } == .resourceExhausted)
        #expect(goAway.map(ServerMachineHarness.message) == "the server is full")
    }
}
