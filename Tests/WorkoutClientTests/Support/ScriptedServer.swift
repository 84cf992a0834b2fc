import Foundation
import SwiftProtobuf
import WorkoutClient
import WorkoutProtocol
#if canImport(Glibc)
import Glibc
#endif

/// A server played by the test: it listens on loopback, does the handshake, and then lets
/// the test read the client's frames and answer them (or not) exactly as it likes — to see
/// CANCEL frames, deadlines, GOAWAY handling and retries from the wire's side.
///
/// Every blocking wait is bounded, so a test never hangs. Call its methods inside
/// `blocking { }`.
///
/// Safe to send between threads because: a test drives it from one thread at a time.
final class ScriptedServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32

    struct TimedOut: Error {}
    struct Closed: Error {}

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw Closed() }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { Glibc.close(listener) }

    /// The address a client connects to.
    var address: ServerAddress { ServerAddress(host: "127.0.0.1", port: port) }

    /// Accepts the next connection and completes the handshake, announcing `maxCallsInFlight`
    /// and `pingIntervalMilliseconds`.
    func accept(maxCallsInFlight: UInt32 = 64, pingIntervalMilliseconds: UInt32 = 0, timeout: Double = 20) throws -> ScriptedPeer {
        let peer = ScriptedPeer(descriptor: try acceptDescriptor(timeout: timeout))
        try peer.handshake(maxCallsInFlight: maxCallsInFlight, pingInterval: pingIntervalMilliseconds)
        return peer
    }

    /// What arrives on `descriptor` before `deadline` (at most 64 KiB); empty at the end of
    /// the stream.
    ///
    /// - Throws: ``TimedOut`` when nothing arrives by then.
    static func receive(from descriptor: Int32, until deadline: Date) throws -> [UInt8] {
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { throw TimedOut() }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, Int32(remaining * 1_000) + 1) == 1 else { throw TimedOut() }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = recv(descriptor, &chunk, chunk.count, 0)
        return count > 0 ? Array(chunk[..<count]) : []
    }

    /// Accepts the next connection's socket, nothing said on it yet (the caller closes it).
    func acceptDescriptor(timeout: Double = 20) throws -> Int32 {
        var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, Int32(timeout * 1_000)) == 1 else { throw TimedOut() }
        let descriptor = Glibc.accept(listener, nil, nil)
        guard descriptor >= 0 else { throw Closed() }
        return descriptor
    }
}

/// The server's end of one scripted connection.
final class ScriptedPeer: @unchecked Sendable {
    private let descriptor: Int32
    private var decoder = FrameDecoder(role: .server)
    private let encoder = FrameEncoder(maxFrameSize: 4 << 20)
    private(set) var clientHello = Workout_V1_ClientHello()

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { Glibc.close(descriptor) }

    /// The server's preface (version 1 accepted) and HELLO, as bytes.
    static func prefaceAndHello(maxCallsInFlight: UInt32 = 64, pingInterval: UInt32 = 0) throws -> [UInt8] {
        var out: [UInt8] = []
        Preface.accepting(1).encode(into: &out)
        var hello = Workout_V1_ServerHello()
        hello.version = 1
        hello.serverAgent = "scripted"
        hello.maxFrameSize = 4 << 20
        hello.maxCallsInFlight = maxCallsInFlight
        hello.pingIntervalMs = pingInterval
        hello.acceptsCompressed = true
        try FrameEncoder(maxFrameSize: 4 << 20).append(.hello, callID: 0, body: hello.serializedBytes(), to: &out)
        return out
    }

    fileprivate func handshake(maxCallsInFlight: UInt32, pingInterval: UInt32) throws {
        write(try Self.prefaceAndHello(maxCallsInFlight: maxCallsInFlight, pingInterval: pingInterval))
        let first = try readFrame()
        guard first.type == .hello else { throw ScriptedServer.Closed() }
        clientHello = try Workout_V1_ClientHello(serializedBytes: first.body)
        decoder.maxFrameSize = 4 << 20
    }

    /// The next frame from the client, within `timeout` seconds.
    func readFrame(timeout: Double = 20) throws -> Frame {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if decoder.peerPreface == nil { _ = try decoder.readPreface() }
            if decoder.peerPreface != nil, let frame = try decoder.nextFrame() { return frame }
            let chunk = try ScriptedServer.receive(from: descriptor, until: deadline)
            guard !chunk.isEmpty else { throw ScriptedServer.Closed() }
            decoder.append(chunk)
        }
    }

    /// Reads frames until a REQUEST arrives (answering nothing), within `timeout`.
    func readRequest(timeout: Double = 20) throws -> Frame {
        while true {
            let frame = try readFrame(timeout: timeout)
            if frame.type == .request { return frame }
        }
    }

    /// Whether the client closed the connection within `timeout` seconds (frames meanwhile are dropped).
    func awaitClose(timeout: Double = 20) -> Bool {
        do {
            while true { _ = try readFrame(timeout: timeout) }
        } catch is ScriptedServer.Closed {
            return true
        } catch {
            return false
        }
    }

    /// Answers a unary call with OK and `message`.
    func respond(to callID: UInt32, with message: some SwiftProtobuf.Message) throws {
        var out: [UInt8] = []
        try encoder.append(.response, callID: callID, body: message.serializedBytes(), to: &out)
        write(out)
    }

    /// Answers a call with an error status.
    func fail(_ callID: UInt32, _ code: StatusCode, _ message: String, field: String = "", type: FrameType = .response) throws {
        var status = Workout_V1_RpcStatus()
        status.message = message
        status.field = field
        var out: [UInt8] = []
        try encoder.append(type, callID: callID, code: code.rawValue, body: status.serializedBytes(), to: &out)
        write(out)
    }

    /// Sends one stream message.
    func streamMessage(_ callID: UInt32, _ message: some SwiftProtobuf.Message) throws {
        var out: [UInt8] = []
        try encoder.append(.streamMessage, callID: callID, body: message.serializedBytes(), to: &out)
        write(out)
    }

    /// Sends a PING with `payload`.
    func ping(_ payload: [UInt8]) throws {
        var out: [UInt8] = []
        try encoder.append(.ping, callID: 0, body: payload, to: &out)
        write(out)
    }

    /// Sends GOAWAY naming `lastCallID` as the last call the server will finish.
    func goAway(lastCallID: UInt32, code: StatusCode = .ok, message: String = "server shutting down") throws {
        var status = Workout_V1_RpcStatus()
        status.message = message
        var out: [UInt8] = []
        try encoder.append(.goAway, callID: lastCallID, code: code.rawValue, body: status.serializedBytes(), to: &out)
        write(out)
    }

    /// Sends a frame exactly as given (no compression decision, no checks): for answers a
    /// faulty server might send.
    func sendRaw(_ frame: Frame) {
        var out: [UInt8] = []
        frame.encode(into: &out)
        write(out)
    }

    /// Closes the server's end.
    func close() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    private func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            offset += count
        }
    }
}
