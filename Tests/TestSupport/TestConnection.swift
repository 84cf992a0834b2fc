import Foundation
package import SwiftProtobuf
package import WorkoutProtocol
import WorkoutTLS
#if canImport(Glibc)
import Glibc
#endif

/// A blocking test client speaking the wire protocol directly: connect, handshake, send
/// frames, read frames. Every read is bounded by a receive timeout, so a test never hangs.
///
/// Safe to send between threads because: a test uses one connection from one thread at a time.
package final class TestConnection: @unchecked Sendable {
    package let descriptor: Int32
    private var decoder = FrameDecoder(role: .client)
    private var nextCallID: UInt32 = 1
    /// The server's HELLO, after ``handshake()``.
    package private(set) var serverHello: Workout_V1_ServerHello?
    /// Frames read while looking for another one, handed out first by ``readFrame()``.
    private var backlog: [Frame] = []
    /// The TLS session, when the port is one of ``TLSPorts``.
    var tls: TLSSession?

    package struct Failure: Error, CustomStringConvertible {
        package let status: StatusCode
        package let details: Workout_V1_RpcStatus
        package var description: String { "\(status.name): \(details.message)" }
    }

    /// The server closed the connection (end of stream or reset).
    package struct Closed: Error {
        /// The `errno` of a failed read or write, 0 at end of stream.
        package var code: Int32 = 0
    }

    /// Nothing arrived within the receive timeout.
    package struct TimedOut: Error {}

    /// Connects to `port` on 127.0.0.1, with reads timing out after `timeout` seconds.
    ///
    /// - Parameters:
    ///   - source: the local address to connect from (any 127.x.y.z), or `nil`.
    ///   - receiveBuffer: a `SO_RCVBUF` size to set before connecting (a slow reader), or `nil`.
    package init(port: Int, timeout: Double = 5, source: String? = nil, receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        if let receiveBuffer {
            var size = receiveBuffer
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let rc = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard rc == 0 else {
                Glibc.close(descriptor)
                throw POSIXError(.EADDRNOTAVAIL)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            Glibc.close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
        setTimeout(timeout)
        var yes: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        if TLSPorts.contains(port) {
            tls = try Self.handshakeTLS(on: descriptor)
        }
    }

    deinit { Glibc.close(descriptor) }

    /// Bounds every later read by `seconds`.
    package func setTimeout(_ seconds: Double) {
        var tv = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends raw bytes.
    package func write(_ bytes: [UInt8]) throws {
        if let tls {
            var offset = 0
            while offset < bytes.count {
                offset += try bytes[offset...].withUnsafeBytes { try tls.writePlaintext($0) }
                try Self.sendCiphertext(tls, descriptor)
            }
            return
        }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw Closed(code: errno) }
            offset += written
        }
    }

    /// Sends frames as they are (no compression decision, no checks).
    package func write(_ frames: [Frame]) throws {
        var bytes: [UInt8] = []
        for frame in frames { frame.encode(into: &bytes) }
        try write(bytes)
    }

    /// Reads more bytes into the decoder; throws ``Closed`` at end of stream or on a reset,
    /// ``TimedOut`` when nothing arrives within the timeout.
    private func fill() throws {
        if let bytes = try receive() { decoder.append(bytes) }
    }

    /// Reads what arrived, or `nil` when a read was interrupted or TLS made no plaintext yet.
    private func receive() throws -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        if let tls {
            while true {
                let count: Int
                do {
                    count = try buffer.withUnsafeMutableBytes { try tls.readPlaintext(into: $0) }
                } catch {
                    throw Closed()  // a TLS failure ends the connection as a reset would
                }
                if count > 0 { return Array(buffer[..<count]) }
                if tls.peerClosed { throw Closed() }
                try Self.receiveCiphertext(tls, descriptor)
                try Self.sendCiphertext(tls, descriptor)
            }
        }
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 { return Array(buffer[..<count]) }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { throw TimedOut() }
        if count < 0 && errno == EINTR { return nil }
        throw Closed(code: count < 0 ? errno : 0)
    }

    /// The next bytes the server sent, as they come (for a test speaking HTTP on the
    /// connection instead of frames); throws ``Closed`` at end of stream, ``TimedOut`` when
    /// nothing arrives within the timeout.
    package func readBytes() throws -> [UInt8] {
        while true {
            if let bytes = try receive() { return bytes }
        }
    }

    /// The server's preface.
    package func readPreface() throws -> Preface {
        while true {
            if let preface = try decoder.readPreface() { return preface }
            try fill()
        }
    }

    /// The next frame from the server.
    package func readFrame() throws -> Frame {
        if !backlog.isEmpty { return backlog.removeFirst() }
        while true {
            if let frame = try decoder.nextFrame() { return frame }
            try fill()
        }
    }

    /// Reads until a frame matches; the frames before it stay for later reads.
    package func readFrame(where matches: (Frame) -> Bool) throws -> Frame {
        if let index = backlog.firstIndex(where: matches) { return backlog.remove(at: index) }
        var skipped: [Frame] = []
        defer { backlog.append(contentsOf: skipped) }
        while true {
            guard let frame = try decoder.nextFrame() else {
                try fill()
                continue
            }
            if matches(frame) { return frame }
            skipped.append(frame)
        }
    }

    /// The final frame (RESPONSE or STREAM_END) of call `id`.
    package func finalFrame(of id: UInt32) throws -> Frame {
        try readFrame { $0.callID == id && ($0.type == .response || $0.type == .streamEnd) }
    }

    /// Every frame until the server closes the connection (bounded by the timeout per read).
    ///
    /// - Throws: ``TimedOut`` when the server keeps the connection open.
    package func readUntilClosed() throws -> [Frame] {
        var frames = backlog
        backlog = []
        while true {
            do {
                guard let frame = try decoder.nextFrame() else {
                    try fill()
                    continue
                }
                frames.append(frame)
            } catch is Closed {
                return frames
            }
        }
    }

    /// Whether the server closed the connection (reads end) within the timeout; frames
    /// still in flight are skipped.
    package func isClosedByServer() -> Bool {
        do {
            _ = try readUntilClosed()
            return true
        } catch {
            return false
        }
    }

    /// Preface and HELLO both ways.
    package func handshake(agent: String = "tests", acceptsCompressed: Bool = true, maxFrameSize: UInt32 = 0) throws {
        var bytes: [UInt8] = []
        Preface(offering: 1...1).encode(into: &bytes)
        var hello = Workout_V1_ClientHello()
        hello.agent = agent
        hello.maxFrameSize = maxFrameSize
        hello.acceptsCompressed = acceptsCompressed
        Frame(type: .hello, body: try hello.serializedBytes()).encode(into: &bytes)
        try write(bytes)
        _ = try readPreface()
        let frame = try readFrame()
        guard frame.type == .hello else { throw Closed() }
        serverHello = try Workout_V1_ServerHello(serializedBytes: frame.body)
        decoder.maxFrameSize = 64 << 20
    }

    /// The call id the next ``sendRequest(_:_:deadline:callID:)`` uses by default.
    package var upcomingCallID: UInt32 { nextCallID }

    /// Sends a REQUEST and returns its call id.
    @discardableResult
    package func sendRequest<Request, Response>(_ method: RPCMethod<Request, Response>, _ request: Request, deadline: UInt32? = nil, callID: UInt32? = nil) throws -> UInt32 {
        try sendRequest(method: method.number, body: try request.serializedBytes(), deadline: deadline, callID: callID)
    }

    /// Sends a REQUEST with any method number and body, and returns its call id.
    @discardableResult
    package func sendRequest(method: UInt32, body: [UInt8], deadline: UInt32? = nil, callID: UInt32? = nil, compressed: Bool = false) throws -> UInt32 {
        let id = callID ?? nextCallID
        nextCallID = max(nextCallID, id) + 1
        try write([Frame(type: .request, callID: id, code: method, deadline: deadline, isCompressed: compressed, body: body)])
        return id
    }

    /// Calls a unary method and waits for its answer (other frames stay for later reads).
    package func call<Request, Response>(_ method: RPCMethod<Request, Response>, _ request: Request, deadline: UInt32? = nil) throws -> Response {
        let id = try sendRequest(method, request, deadline: deadline)
        return try Self.decode(try finalFrame(of: id), as: Response.self)
    }

    /// Calls a method and returns the status of its final frame (OK or the failure's).
    package func status<Request, Response>(_ method: RPCMethod<Request, Response>, _ request: Request) throws -> (StatusCode, Workout_V1_RpcStatus) {
        let id = try sendRequest(method, request)
        return try Self.status(of: try finalFrame(of: id))
    }

    /// A final frame's status and, when it failed, its details.
    package static func status(of frame: Frame) throws -> (StatusCode, Workout_V1_RpcStatus) {
        guard frame.code != 0 else { return (.ok, Workout_V1_RpcStatus()) }
        return (frame.status, (try? Workout_V1_RpcStatus(serializedBytes: frame.body)) ?? Workout_V1_RpcStatus())
    }

    /// A RESPONSE's message, or its failure.
    package static func decode<Response: SwiftProtobuf.Message>(_ frame: Frame, as type: Response.Type) throws -> Response {
        let body = try frame.decodedBody(maxDecompressedSize: 64 << 20)
        guard frame.code == 0 else {
            throw Failure(status: StatusCode(rawValue: frame.code), details: (try? Workout_V1_RpcStatus(serializedBytes: body)) ?? Workout_V1_RpcStatus())
        }
        return try Response(serializedBytes: body)
    }

    /// Sends a CANCEL.
    package func cancel(_ callID: UInt32) throws {
        try write([Frame(type: .cancel, callID: callID)])
    }
}
