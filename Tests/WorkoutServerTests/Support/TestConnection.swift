import Foundation
import SwiftProtobuf
import WorkoutProtocol
#if canImport(Glibc)
import Glibc
#endif

/// A blocking test client speaking the wire protocol directly: connect, handshake, send
/// frames, read frames. Every read is bounded by a receive timeout, so a test never hangs.
final class TestConnection {
    let descriptor: Int32
    private var decoder = FrameDecoder(role: .client)
    private var nextCallID: UInt32 = 1
    /// The server's HELLO, after ``handshake()``.
    private(set) var serverHello: Workout_V1_ServerHello?

    struct Failure: Error, CustomStringConvertible {
        let status: StatusCode
        let details: Workout_V1_RpcStatus
        var description: String { "\(status.name): \(details.message)" }
    }

    struct Closed: Error {}

    /// Connects to `port` on 127.0.0.1, with reads timing out after `timeout` seconds.
    init(port: Int, timeout: Double = 5) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
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
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var yes: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { Glibc.close(descriptor) }

    /// Sends raw bytes.
    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw Closed() }
            offset += written
        }
    }

    /// Reads more bytes into the decoder; throws ``Closed`` at end of stream or timeout.
    private func fill() throws {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { throw Closed() }
        decoder.append(Array(buffer[..<count]))
    }

    /// The server's preface.
    func readPreface() throws -> Preface {
        while true {
            if let preface = try decoder.readPreface() { return preface }
            try fill()
        }
    }

    /// The next frame from the server.
    func readFrame() throws -> Frame {
        while true {
            if let frame = try decoder.nextFrame() { return frame }
            try fill()
        }
    }

    /// Whether the server closed the connection (reads end) within the timeout.
    func isClosedByServer() -> Bool {
        do {
            while true { _ = try readFrame() }
        } catch is Closed {
            return true
        } catch {
            return true
        }
    }

    /// Preface and HELLO both ways.
    func handshake(agent: String = "tests", acceptsCompressed: Bool = true) throws {
        var bytes: [UInt8] = []
        Preface(offering: 1...1).encode(into: &bytes)
        var hello = Workout_V1_ClientHello()
        hello.agent = agent
        hello.acceptsCompressed = acceptsCompressed
        Frame(type: .hello, body: try hello.serializedBytes()).encode(into: &bytes)
        try write(bytes)
        _ = try readPreface()
        let frame = try readFrame()
        guard frame.type == .hello else { throw Closed() }
        serverHello = try Workout_V1_ServerHello(serializedBytes: frame.body)
        decoder.maxFrameSize = 64 << 20
    }

    /// Sends a REQUEST and returns its call id.
    @discardableResult
    func sendRequest<Request, Response>(_ method: RPCMethod<Request, Response>, _ request: Request, deadline: UInt32? = nil, callID: UInt32? = nil) throws -> UInt32 {
        let id = callID ?? nextCallID
        nextCallID = max(nextCallID, id) + 1
        var bytes: [UInt8] = []
        Frame(type: .request, callID: id, code: method.number, deadline: deadline, body: try request.serializedBytes()).encode(into: &bytes)
        try write(bytes)
        return id
    }

    /// Calls a unary method and waits for its answer (other frames in between are skipped).
    func call<Request, Response>(_ method: RPCMethod<Request, Response>, _ request: Request, deadline: UInt32? = nil) throws -> Response {
        let id = try sendRequest(method, request, deadline: deadline)
        while true {
            let frame = try readFrame()
            guard frame.callID == id, frame.type == .response else { continue }
            return try Self.decode(frame, as: Response.self)
        }
    }

    /// A RESPONSE's message, or its failure.
    static func decode<Response: SwiftProtobuf.Message>(_ frame: Frame, as type: Response.Type) throws -> Response {
        let body = try frame.decodedBody(maxDecompressedSize: 64 << 20)
        guard frame.code == 0 else {
            throw Failure(status: StatusCode(rawValue: frame.code), details: (try? Workout_V1_RpcStatus(serializedBytes: body)) ?? Workout_V1_RpcStatus())
        }
        return try Response(serializedBytes: body)
    }

    /// Sends a CANCEL.
    func cancel(_ callID: UInt32) throws {
        var bytes: [UInt8] = []
        Frame(type: .cancel, callID: callID).encode(into: &bytes)
        try write(bytes)
    }
}
