import SystemCalls
import WorkoutServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SwiftProtobuf
import WorkoutProtocol
import WorkoutTLS

/// One TCP connection of the load generator: a non-blocking socket, its handshake, the calls
/// in flight, one receive buffer and one send batch, both reused for the life of the object.
///
/// The handshake (prefaces and HELLOs) goes through WorkoutProtocol's ``FrameDecoder``, which
/// also reports a refusal (a 0/0 preface then GOAWAY). After it, frames are cut straight from
/// the receive buffer with ``FrameHeader`` (decoded and validated in place): a response's body
/// is only looked at when its call wants it, so answering a load call allocates nothing.
/// Requests are appended with ``FrameEncoder``; call ids come from ``CallIDSequence``.
///
/// Used by one thread (the driver's); the driver owns the poller registration.
final class LoadConnection {
    /// What the connection is for.
    enum Role: Sendable {
        /// Carries the scenario's calls.
        case load
        /// Held open and idle during the run (`--idle-connections`).
        case idle
        /// Asks Admin.Stats before and after the measured window (and each minute of a soak).
        case admin
        /// Holds one Streams.Watch open for the whole run and counts its events (`--soak`).
        case watch
    }

    /// Where the connection is in its life.
    enum Stage: Sendable {
        /// No socket.
        case closed
        /// A non-blocking connect is under way.
        case connecting
        /// Preface and HELLO sent; waiting for the server's.
        case handshaking
        /// HELLOs exchanged: calls may be made.
        case open
    }

    /// A frame or event the connection could not accept: the connection is unusable.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The index the poller reports it by.
    let token: Int
    /// What it is for.
    let role: Role
    /// The member whose account it uses (`-1`: the owner).
    let member: Int
    /// Its socket, or -1.
    private(set) var descriptor: Int32 = -1
    /// Where it is in its life.
    private(set) var stage = Stage.closed
    /// Whether a session is bound to it.
    var authenticated = false
    /// When the current connect began (``MonotonicClock``).
    private(set) var connectStartedAt: UInt64 = 0
    /// The server's HELLO, once read.
    private(set) var serverHello: Workout_V1_ServerHello?
    /// Whether the poller watches it for writability.
    var watchesWritable = false
    /// STREAM_MESSAGE frames received over the connection's life (a Watch's events).
    private(set) var streamMessages: UInt64 = 0

    /// Calls in flight.
    private(set) var inFlight = 0
    /// When the next call is due, in rate mode (``MonotonicClock``).
    var nextDue: UInt64 = 0
    /// The step of the scenario's script this connection is at (`household`, `connect`).
    var step = 0
    /// Calls of the current step still unanswered.
    var stepRemaining = 0
    /// Rounds of the script this connection has begun (`household`).
    var roundsBegun: UInt64 = 0
    /// Whether the current round began with a full login, so it ends with Auth.Logout.
    var roundSignsOut = false
    /// Whether the script's round is over: the driver closes the socket (and starts the next
    /// round) once the frames being handled are done, never in the middle of them.
    var roundFinished = false

    private var slots: [CallSlot]
    private var handshakeDecoder: FrameDecoder?
    private var callIDs = CallIDSequence()
    private var encoder = FrameEncoder()
    private var receive: ReceiveBuffer
    private var outbound: [UInt8] = []
    private var outboundOffset = 0
    private var acceptsCompression: Bool
    /// The largest payload this client accepts (announced as ClientHello.max_frame_size).
    static let maxReceivedFrameSize = 4 << 20

    /// The TLS settings and the server key every handshake must show (both shared by the run's
    /// connections), or `nil` for plain TCP.
    private let tlsSettings: (context: TLSContext, serverKey: ServerKeyPin)?
    /// This socket's TLS session (made in ``finishConnect()``).
    private var tls: TLSSession?
    /// Ciphertext read from the socket, before OpenSSL takes it.
    private var ciphertext: [UInt8] = []

    /// A closed connection.
    ///
    /// - Parameters:
    ///   - token: Its index for the poller.
    ///   - role: What it is for.
    ///   - member: The member whose account it uses, or -1 for the owner.
    ///   - maxCallsInFlight: The most calls it will have in flight.
    ///   - receiveCapacity: The receive buffer's starting size (it grows for larger frames).
    ///   - acceptsCompression: Whether its HELLO lets the server compress responses.
    ///   - tls: The TLS settings and the server key its handshakes must show, or `nil` for plain TCP.
    init(
        token: Int, role: Role, member: Int, maxCallsInFlight: Int, receiveCapacity: Int, acceptsCompression: Bool,
        tls: (context: TLSContext, serverKey: ServerKeyPin)? = nil
    ) {
        self.tlsSettings = tls
        self.token = token
        self.role = role
        self.member = member
        self.slots = Array(repeating: CallSlot(), count: max(1, maxCallsInFlight))
        self.receive = ReceiveBuffer(capacity: receiveCapacity)
        self.acceptsCompression = acceptsCompression
    }

    deinit {
        receive.deallocate()
    }

    // MARK: Connecting

    /// Opens a non-blocking socket and starts connecting to `address`.
    ///
    /// - Parameter now: The time the connect starts.
    /// - Throws: ``SystemCallError`` from `socket` or `connect` (other than EINPROGRESS).
    func connect(to address: sockaddr_in, now: UInt64) throws {
        precondition(stage == .closed, "connect on a connection in use")
        #if os(Linux)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        let type = SOCK_STREAM
        #endif
        let socketDescriptor = try SystemCall.retrying("socket") { socket(AF_INET, type, 0) }
        var yes: Int32 = 1
        setsockopt(socketDescriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        #if !os(Linux)
        _ = fcntl(socketDescriptor, F_SETFL, fcntl(socketDescriptor, F_GETFL) | O_NONBLOCK)
        setsockopt(socketDescriptor, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        if posixConnect(socketDescriptor, address) != 0 && errno != EINPROGRESS {
            let code = errno
            posixClose(socketDescriptor)
            throw SystemCallError(call: "connect", errno: code)
        }
        descriptor = socketDescriptor
        stage = .connecting
        connectStartedAt = now
        reset()
    }

    /// Forgets everything of the previous socket's life.
    private func reset() {
        authenticated = false
        roundFinished = false
        serverHello = nil
        watchesWritable = false
        inFlight = 0
        for index in slots.indices { slots[index] = CallSlot() }
        callIDs = CallIDSequence()
        encoder = FrameEncoder()
        outbound.removeAll(keepingCapacity: true)
        outboundOffset = 0
        receive.consume(receive.unreadCount)
        handshakeDecoder = FrameDecoder(role: .client)
        tls = nil
    }

    /// Finishes a connect the poller reported writable, and queues the preface and HELLO.
    ///
    /// - Throws: ``SystemCallError`` `connect` with the socket's error (ECONNREFUSED, ...).
    func finishConnect() throws {
        precondition(stage == .connecting, "finishConnect while not connecting")
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = try SystemCall.retrying("getsockopt(SO_ERROR)") { getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length) }
        if code != 0 { throw SystemCallError(call: "connect", errno: code) }
        Preface(offering: Handshake.supportedVersions).encode(into: &outbound)
        var hello = Workout_V1_ClientHello()
        hello.agent = RequestBodies.agent
        hello.maxFrameSize = UInt32(Self.maxReceivedFrameSize)
        hello.acceptsCompressed = acceptsCompression
        let body: [UInt8] = try hello.serializedBytes()
        try encoder.append(.hello, callID: 0, body: body, to: &outbound)
        if let tlsSettings {
            let session = try TLSSession(context: tlsSettings.context)
            try session.advanceHandshake()  // the ClientHello; the preface and HELLO wait for the handshake
            tls = session
        }
        stage = .handshaking
    }

    // MARK: Sending

    /// Whether bytes wait to be written.
    var hasPendingOutput: Bool { outboundOffset < outbound.count || tls?.hasPendingCiphertext == true }

    /// Starts a call: appends its REQUEST to the send batch and takes a slot.
    ///
    /// - Parameters:
    ///   - method: The method number.
    ///   - body: The request message's bytes.
    ///   - purpose: Why the call is made.
    ///   - sentAt: Its send time (rate mode: the time it was meant to be sent).
    ///   - tag: A number the answer carries back (a soak's minute for its Stats), or 0.
    /// - Throws: ``Failure`` when no slot or call id is left; ``ProtocolError`` for a body over
    ///   the server's frame limit.
    @inline(__always)
    func startCall(method: UInt32, body: UnsafeRawBufferPointer, purpose: CallPurpose, sentAt: UInt64, tag: UInt32 = 0) throws {
        guard inFlight < slots.count, let id = callIDs.next() else {
            throw Failure(description: "no call slot free (\(inFlight) calls in flight)")
        }
        try encoder.append(.request, callID: id, code: method, body: body, to: &outbound)
        var index = 0
        while slots[index].callID != 0 { index += 1 }
        slots[index] = CallSlot(callID: id, sentAt: sentAt, purpose: purpose, tag: tag)
        inFlight += 1
    }

    /// Starts a call with a body held in an array.
    func startCall(method: UInt32, body: [UInt8], purpose: CallPurpose, sentAt: UInt64, tag: UInt32 = 0) throws {
        try body.withUnsafeBytes { try startCall(method: method, body: $0, purpose: purpose, sentAt: sentAt, tag: tag) }
    }

    /// Writes what the send batch holds, as far as the socket takes it.
    ///
    /// Wraps `send(2)` with `MSG_NOSIGNAL` (a closed peer gives EPIPE, not SIGPIPE).
    ///
    /// - Returns: `true` when everything was written; `false` when the socket is full.
    /// - Throws: ``SystemCallError`` `send` (EPIPE, ECONNRESET, ...).
    @discardableResult
    func flush() throws -> Bool {
        if let tls { return try flushTLS(tls) }
        while outboundOffset < outbound.count {
            let written = outbound.withUnsafeBytes { bytes in
                posixSend(descriptor, bytes.baseAddress! + outboundOffset, bytes.count - outboundOffset)
            }
            if written >= 0 {
                outboundOffset += written
                continue
            }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return false }
            throw SystemCallError(call: "send", errno: code)
        }
        outbound.removeAll(keepingCapacity: true)
        outboundOffset = 0
        return true
    }

    /// ``flush()`` through TLS: encrypts the send batch (once the handshake is done), then
    /// sends the ciphertext.
    private func flushTLS(_ tls: TLSSession) throws -> Bool {
        if tls.isHandshakeComplete {
            while outboundOffset < outbound.count {
                outboundOffset += try outbound.withUnsafeBytes { bytes in
                    try tls.writePlaintext(UnsafeRawBufferPointer(rebasing: bytes[outboundOffset...]))
                }
            }
            outbound.removeAll(keepingCapacity: true)
            outboundOffset = 0
        }
        while tls.hasPendingCiphertext {
            let written = tls.pendingCiphertext { posixSend(descriptor, $0.baseAddress!, $0.count) }
            if written >= 0 {
                tls.ciphertextSent(written)
                continue
            }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return false }
            throw SystemCallError(call: "send", errno: code)
        }
        return true
    }

    /// Reads ciphertext from the socket into the TLS session and its plaintext into the
    /// receive buffer.
    ///
    /// - Returns: The ciphertext bytes read (0 at end of stream), `nil` when none were there.
    private func readTLS(_ tls: TLSSession) throws -> Int? {
        if ciphertext.isEmpty { ciphertext = [UInt8](repeating: 0, count: 64 << 10) }
        let count: Int = try ciphertext.withUnsafeMutableBytes { buffer in
            while true {
                let count = posixRead(descriptor, buffer.baseAddress, buffer.count)
                if count >= 0 { return count }
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK { return -1 }
                throw SystemCallError(call: "read", errno: code)
            }
        }
        if count < 0 { return nil }
        if count == 0 { return 0 }
        try ciphertext[..<count].withUnsafeBytes { try tls.receive($0) }
        if !tls.isHandshakeComplete {
            guard try tls.advanceHandshake() else { return count }
            try tlsSettings?.serverKey.check(tls.peerPublicKey)  // as a device checks its pin
        }
        while true {
            receive.makeRoom(for: 16 << 10)
            let decrypted = try receive.fill { try tls.readPlaintext(into: $0) }
            if decrypted == 0 { break }
        }
        return count
    }

    // MARK: Receiving

    /// A call's final frame.
    struct Answer {
        /// The call as it was started.
        var call: CallSlot
        /// The status (0 = OK).
        var status: UInt32
        /// The payload as on the wire (a zlib stream when `compressed`); valid only during the
        /// handler.
        var payload: UnsafeRawBufferPointer
        /// Whether the payload is compressed.
        var compressed: Bool
    }

    /// Reads what the socket has and hands every call's final frame to `handler`; answers
    /// PINGs; completes the handshake.
    ///
    /// - Returns: `false` when the server closed the connection (end of stream).
    /// - Throws: ``Failure`` for a GOAWAY, a refusal or a frame this client cannot accept;
    ///   ``SystemCallError`` for a failed read; ``ProtocolError`` for a malformed frame; and
    ///   what `handler` throws.
    func receive(_ handler: (Answer) throws -> Void) throws -> Bool {
        while true {
            receive.makeRoom(for: 16 << 10)
            let wanted = tls == nil ? receive.freeCount : ciphertext.count
            let read = if let tls { try readTLS(tls) } else { try receive.read(from: descriptor) }
            guard let count = read else { return true }
            if count == 0 { return false }
            if stage == .handshaking {
                try continueHandshake(handler)
            } else {
                try cutFrames(handler)
            }
            if count < wanted { return true }
        }
    }

    /// Feeds received bytes to the handshake decoder until the server's HELLO is read; frames
    /// that came with it are handled like any other.
    private func continueHandshake(_ handler: (Answer) throws -> Void) throws {
        guard var decoder = handshakeDecoder else { return }
        decoder.append(receive.unread)
        receive.consume(receive.unreadCount)
        handshakeDecoder = decoder
        if decoder.peerPreface == nil {
            let preface = try decoder.readPreface()
            handshakeDecoder = decoder
            guard preface != nil else { return }
        }
        while let frame = try decoder.nextFrame() {
            if serverHello == nil {
                if frame.type == .goAway { throw Failure(description: "the server refused the connection: \(Self.statusText(frame.status, frame.body))") }
                guard frame.type == .hello else { throw Failure(description: "the server's first frame is \(frame.type), not HELLO") }
                let hello = try Workout_V1_ServerHello(serializedBytes: frame.body)
                serverHello = hello
                encoder.maxFrameSize = hello.maxFrameSize == 0 ? 4 << 20 : Int(hello.maxFrameSize)
                decoder.maxFrameSize = Self.maxReceivedFrameSize
                stage = .open
                handshakeDecoder = nil
                continue
            }
            try frame.body.withUnsafeBytes { payload in
                try handleFrame(frame.header, payload: payload, handler)
            }
        }
        if stage != .open { handshakeDecoder = decoder }
    }

    /// Cuts every complete frame off the receive buffer.
    @inline(__always)
    private func cutFrames(_ handler: (Answer) throws -> Void) throws {
        while true {
            let unread = receive.unread
            guard let header = FrameHeader.decode(from: unread) else { return }
            try header.validate(receivedBy: .client, maxPayloadSize: Self.maxReceivedFrameSize)
            let size = FrameHeader.size + Int(header.length)
            guard unread.count >= size else {
                receive.makeRoom(for: size - unread.count)
                return
            }
            try handleFrame(header, payload: UnsafeRawBufferPointer(rebasing: unread[FrameHeader.size..<size]), handler)
            receive.consume(size)
        }
    }

    @inline(__always)
    private func handleFrame(_ header: FrameHeader, payload: UnsafeRawBufferPointer, _ handler: (Answer) throws -> Void) throws {
        switch header.type {
        case .response, .streamEnd:
            guard let call = finishCall(header.callID) else {
                throw Failure(description: "an answer for call \(header.callID), which is not in flight")
            }
            try handler(Answer(call: call, status: header.code, payload: payload, compressed: header.flags.contains(.compressed)))
        case .ping:
            try encoder.append(.pong, callID: 0, body: payload, to: &outbound)
        case .streamMessage:
            streamMessages &+= 1
        case .pong:
            break
        case .goAway:
            throw Failure(description: "the server sent GOAWAY: \(Self.statusText(StatusCode(rawValue: header.code), Array(payload)))")
        default:
            throw Failure(description: "unexpected \(header.type) frame from the server")
        }
    }

    /// Frees the slot of call `id`.
    @inline(__always)
    private func finishCall(_ id: UInt32) -> CallSlot? {
        for index in slots.indices where slots[index].callID == id {
            let call = slots[index]
            slots[index].callID = 0
            inFlight -= 1
            return call
        }
        return nil
    }

    /// "STATUS: message" for a status and an `RpcStatus` payload.
    static func statusText(_ status: StatusCode, _ payload: [UInt8]) -> String {
        let message = (try? Workout_V1_RpcStatus(serializedBytes: payload))?.message ?? ""
        return message.isEmpty ? status.description : "\(status.description): \(message)"
    }

    // MARK: Closing

    /// Closes the socket (the caller unregisters it first); the object can connect again.
    func close() {
        if descriptor >= 0 { posixClose(descriptor) }
        descriptor = -1
        stage = .closed
        authenticated = false
    }
}
