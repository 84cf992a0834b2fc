import ServerTestSupport
import TestSupport
import Foundation
import SwiftProtobuf
import Testing
import WorkoutCore
import WorkoutProtocol
import WorkoutServer

/// The server's limits and timeouts, each met by a misbehaving client on a real socket while
/// well-behaved clients keep being served. Timeouts are short here, so the suite stays fast.
///
/// These touch the wall clock: they show the driver's timer and sockets carry out the
/// machine's rules (a slow reader dropped while others are served, a Watch's duration, the
/// handshake's limit). The rules themselves, each idle and keepalive case included, are the
/// machine's tests on a manual clock (`Connection/`), not repeated here.
@Suite("Limits and timeouts over real connections")
struct LimitsTests {
    /// The frames after a refusal preface, until the server closes.
    static func readRefusal(_ connection: TestConnection) throws -> (Preface, [Frame]) {
        let preface = try connection.readPreface()
        return (preface, try connection.readUntilClosed())
    }

    /// The `RpcStatus` of a GOAWAY or failed final frame.
    static func details(_ frame: Frame?) -> Workout_V1_RpcStatus {
        guard let frame else { return Workout_V1_RpcStatus() }
        return (try? Workout_V1_RpcStatus(serializedBytes: frame.body)) ?? Workout_V1_RpcStatus()
    }

    @Test("A slow reader is dropped after the slow-reader timeout while another client keeps being served")
    func slowReaderIsDropped() async throws {
        try await withServer(configure: {
            $0.maxBufferedOutput = 256 << 10
            $0.slowReaderTimeout = .milliseconds(300)
        }) { server, _, port in
            try await blocking {
                // 100 workouts with 1,000-byte notes: about 110 KB per history page, cheap to make.
                let setup = try TestConnection.owner(port: port)
                let time = nowMilliseconds() - 3_600_000
                for batch in 0..<4 {
                    var ids: [UInt32] = []
                    for index in 0..<25 {
                        var request = Workout_V1_LogWorkoutRequest()
                        request.workout = workout(at: time - Int64(batch * 25 + index) * 1_000)
                        request.workout.notes = String(repeating: "n", count: 1_000)
                        ids.append(try setup.sendRequest(MethodCatalog.logWorkout, request))
                    }
                    for id in ids { #expect(try setup.finalFrame(of: id).status == .ok) }
                }
                var history = Workout_V1_WorkoutHistoryRequest()
                history.pageSize = 100

                let good = try TestConnection.owner(port: port)
                let slow = try TestConnection(port: port, receiveBuffer: 4_096)
                try slow.handshake(acceptsCompressed: false)
                var login = Workout_V1_LoginRequest()
                login.email = ownerEmail
                login.password = ownerPassword
                _ = try slow.call(MethodCatalog.login, login)
                #expect(server.openConnections == 3)

                // About 8 MB of answers that the slow reader never reads: more than the kernel's
                // socket buffers (at most 4 MB on the sending side) and the server's limit.
                for _ in 0..<60 {
                    try slow.sendRequest(MethodCatalog.workoutHistory, history)
                }
                let started = Date()
                var served = 0
                while server.openConnections == 3 && Date().timeIntervalSince(started) < 15 {
                    #expect(try good.call(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).profile.email == ownerEmail)
                    served += 1
                    usleep(20_000)
                }
                #expect(server.openConnections == 2, "the slow reader was not dropped")
                // How many fit in the 300 ms depends on the machine's load; that one did is the point.
                #expect(served >= 1)
                // The well-behaved clients are still served, big answers included.
                let big = try good.call(MethodCatalog.workoutHistory, history)
                #expect(big.workouts.count == 100)
                #expect(try setup.call(MethodCatalog.health, Workout_V1_HealthRequest()).serving)
            }
        }
    }

    @Test("A Watch open longer than the maximum stream duration is ended with STREAM_END OK, and the connection stays usable")
    func watchDurationIsBounded() async throws {
        try await withServer(configure: { $0.maxStreamDuration = .milliseconds(400) }) { _, _, port in
            try await blocking {
                let watching = try TestConnection.owner(port: port)
                let started = Date()
                let watch = try watching.sendRequest(MethodCatalog.watch, Workout_V1_WatchRequest())
                #expect(try watching.readFrame { $0.callID == watch }.type == .streamMessage)
                let end = try watching.finalFrame(of: watch)
                #expect(end.type == .streamEnd && end.status == .ok)
                #expect(Date().timeIntervalSince(started) >= 0.35)
                #expect(try watching.call(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).profile.email == ownerEmail)
            }
        }
    }

    @Test("A client that never finishes the handshake is closed after the handshake timeout")
    func handshakeTimeout() async throws {
        // Long enough that the good client's own handshake and each step below finish inside it
        // on a loaded machine; the silent client shows that the limit, not something else, ends it.
        try await withServer(configure: { $0.handshakeTimeout = .seconds(1) }) { server, _, port in
            try await blocking {
                let good = try TestConnection.owner(port: port)
                // Nothing at all: a plain close.
                let silent = try TestConnection(port: port)
                let started = Date()
                #expect(throws: TestConnection.Closed.self) { _ = try silent.readPreface() }
                let elapsed = Date().timeIntervalSince(started)
                #expect(elapsed >= 0.9 && elapsed < 10)

                // Half a preface: a plain close.
                let partial = try TestConnection(port: port)
                try partial.write(Array(Preface.magic))
                #expect(throws: TestConnection.Closed.self) { _ = try partial.readPreface() }

                // A preface but no HELLO: the server's preface and HELLO (sent without waiting
                // for the client's, PROTOCOL.md 4.2), then GOAWAY DEADLINE_EXCEEDED.
                let noHello = try TestConnection(port: port)
                var preface: [UInt8] = []
                Preface(offering: 1...1).encode(into: &preface)
                try noHello.write(preface)
                #expect(try noHello.readPreface() == Preface.accepting(1))
                let frames = try noHello.readUntilClosed()
                #expect(frames.map(\.type) == [.hello, .goAway])
                #expect(frames.last?.status == .deadlineExceeded)
                #expect(Self.details(frames.last).message.contains("handshake"))

                #expect(try good.call(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).profile.email == ownerEmail)
                #expect(eventually { server.openConnections == 1 })
            }
        }
    }

    @Test("A bad magic gets the refusal preface and GOAWAY INVALID_ARGUMENT; versions 2...3 get FAILED_PRECONDITION naming 1...1")
    func refusedPrefaces() async throws {
        try await withServer { _, _, port in
            try await blocking {
                let stranger = try TestConnection(port: port)
                try stranger.write(Array("ssh-2.0-hello\r\n".utf8))
                let (refusal, frames) = try Self.readRefusal(stranger)
                #expect(refusal == Preface.refusal)
                #expect(frames.map(\.type) == [.goAway])
                #expect(frames.first?.status == .invalidArgument && frames.first?.callID == 0)
                #expect(Self.details(frames.first).message.contains("magic"))

                let future = try TestConnection(port: port)
                try future.write([0x57, 0x4B, 0x52, 0x50, 0x02, 0x03, 0x00, 0x00])
                let (futureRefusal, futureFrames) = try Self.readRefusal(future)
                #expect(futureRefusal == Preface.refusal)
                #expect(futureFrames.map(\.type) == [.goAway])
                #expect(futureFrames.first?.status == .failedPrecondition)
                let message = Self.details(futureFrames.first).message
                #expect(message.contains("1...1") && message.contains("2...3"), "\(message)")

                let reserved = try TestConnection(port: port)
                try reserved.write([0x57, 0x4B, 0x52, 0x50, 0x01, 0x01, 0x00, 0x01])
                let (_, reservedFrames) = try Self.readRefusal(reserved)
                #expect(reservedFrames.first?.status == .invalidArgument)
            }
        }
    }

    @Test("A frame over the max frame size gets GOAWAY RESOURCE_EXHAUSTED before its payload is read")
    func oversizedFrame() async throws {
        try await withServer(configure: { $0.maxFrameSize = 65_536 }) { server, _, port in
            try await blocking {
                let good = try TestConnection.owner(port: port)
                let connection = try TestConnection.owner(port: port)
                #expect(connection.serverHello?.maxFrameSize == 65_536)
                let accepted = try connection.sendRequest(MethodCatalog.health, Workout_V1_HealthRequest())
                _ = try connection.finalFrame(of: accepted)
                // Only the header: the server must judge it by its length alone.
                var header: [UInt8] = []
                FrameHeader(length: 65_537, type: .request, flags: [], callID: accepted + 1, code: MethodCatalog.logMeal.number).encode(into: &header)
                try connection.write(header)
                let frames = try connection.readUntilClosed()
                #expect(frames.map(\.type) == [.goAway])
                #expect(frames.first?.status == .resourceExhausted)
                #expect(frames.first?.callID == accepted)
                #expect(Self.details(frames.first).message.contains("65537"))

                // Before the HELLO exchange the limit is 64 KiB whatever the configuration.
                let early = try TestConnection(port: port)
                var bytes: [UInt8] = []
                Preface(offering: 1...1).encode(into: &bytes)
                FrameHeader(length: 70_000, type: .hello, flags: [], callID: 0, code: 0).encode(into: &bytes)
                try early.write(bytes)
                _ = try early.readPreface()
                let earlyFrames = try early.readUntilClosed()
                #expect(earlyFrames.last?.type == .goAway && earlyFrames.last?.status == .resourceExhausted)

                #expect(try good.call(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).profile.email == ownerEmail)
                #expect(eventually { server.openConnections == 1 })
            }
        }
    }

    @Test("Calls of made-up method numbers are counted under one entry of Admin.Stats, not one per number")
    func unknownMethodsShareOneStatsEntry() async throws {
        try await withServer { server, _, port in
            try await blocking {
                let connection = try TestConnection(port: port)
                try connection.handshake()
                for number in UInt32(60_000)..<60_200 {
                    let id = try connection.sendRequest(method: number, body: [])
                    #expect(try connection.finalFrame(of: id).status == .unimplemented)
                }
                let methods = server.statistics.snapshot().methods
                #expect(methods.map(\.method) == [0])
                #expect(methods.first?.name == "unknown")
                #expect(methods.first?.calls == 200)
            }
        }
    }

    @Test("A flood of connections over the limits (total and per source) is refused with GOAWAY RESOURCE_EXHAUSTED while admitted clients are served")
    func connectionFlood() async throws {
        try await withServer(configure: {
            $0.maxConnections = 6
            $0.maxConnectionsPerSource = 4
        }) { server, _, port in
            try await blocking {
                /// Connects like a real client (preface and HELLO at once) and expects a refusal.
                func expectRefused(source: String, _ comment: Comment) throws {
                    let connection = try TestConnection(port: port, source: source)
                    var bytes: [UInt8] = []
                    Preface(offering: 1...1).encode(into: &bytes)
                    Frame(type: .hello, body: try Workout_V1_ClientHello().serializedBytes()).encode(into: &bytes)
                    try? connection.write(bytes)
                    let preface = try connection.readPreface()
                    #expect(preface == Preface.refusal, comment)
                    let frames = try connection.readUntilClosed()
                    #expect(frames.map(\.type) == [.goAway], comment)
                    #expect(frames.first?.status == .resourceExhausted, comment)
                    #expect(Self.details(frames.first).message.contains("connections"), comment)
                }

                var admitted: [TestConnection] = []
                for _ in 0..<4 { admitted.append(try TestConnection.owner(port: port, source: "127.0.0.1")) }
                try expectRefused(source: "127.0.0.1", "the fifth from one address")
                for _ in 0..<2 { admitted.append(try TestConnection.owner(port: port, source: "127.0.0.2")) }
                try expectRefused(source: "127.0.0.2", "the seventh in all")
                for index in 0..<30 {
                    try expectRefused(source: "127.0.0.\(3 + index % 5)", "flood \(index)")
                    // The admitted ones are served throughout.
                    let connection = admitted[index % admitted.count]
                    #expect(try connection.call(MethodCatalog.getProfile, Workout_V1_GetProfileRequest()).profile.email == ownerEmail)
                }
                #expect(server.openConnections == 6)
                #expect(server.statistics.snapshot().rejectedConnections == 32)

                // A slot that frees up can be taken again.
                admitted.removeFirst()
                #expect(eventually { server.openConnections == 5 })
                admitted.append(try TestConnection.owner(port: port, source: "127.0.0.9"))
                for connection in admitted {
                    #expect(try connection.call(MethodCatalog.health, Workout_V1_HealthRequest()).serving)
                }
            }
        }
    }

    @Test("A PING is answered with a PONG echoing its bytes; a malformed PING is a connection error")
    func pingPong() async throws {
        try await withServer { _, _, port in
            try await blocking {
                let connection = try TestConnection(port: port)
                try connection.handshake()
                let stamp: [UInt8] = [0x00, 0x00, 0x01, 0x8F, 0xA3, 0xC2, 0xD4, 0xE5]
                try connection.write([Frame(type: .ping, body: stamp)])
                let pong = try connection.readFrame()
                #expect(pong.type == .pong && pong.body == stamp && pong.callID == 0)
                // With calls pipelined around it.
                let before = try connection.sendRequest(MethodCatalog.health, Workout_V1_HealthRequest())
                try connection.write([Frame(type: .ping, body: Array(stamp.reversed()))])
                let after = try connection.sendRequest(MethodCatalog.health, Workout_V1_HealthRequest())
                let second = try connection.readFrame { $0.type == .pong }
                #expect(second.body == Array(stamp.reversed()))
                #expect(try connection.finalFrame(of: before).status == .ok)
                #expect(try connection.finalFrame(of: after).status == .ok)
                // An unsolicited PONG is ignored.
                try connection.write([Frame(type: .pong, body: stamp)])
                #expect(try connection.call(MethodCatalog.health, Workout_V1_HealthRequest()).serving)
                // A PING of 7 bytes is a connection error.
                try connection.write([Frame(type: .ping, body: Array(stamp.prefix(7)))])
                let frames = try connection.readUntilClosed()
                #expect(frames.last?.type == .goAway && frames.last?.status == .invalidArgument)
            }
        }
    }
}
