/// Cuts the bytes one side of a connection receives into its peer's preface and frames.
///
/// Feed it bytes as they arrive with ``append(_:)-(UnsafeRawBufferPointer)``, then call
/// ``readPreface()`` until it returns the peer's preface, then ``nextFrame()`` until it
/// returns `nil` ("need more bytes"). Its rules, in order (also in README.md):
///
/// 1. The first 8 bytes are the peer's ``Preface``: bad magic, a nonzero reserved field
///    or a version range the peer may not send throws. The decoder does not negotiate;
///    the connection does, with ``Handshake/negotiateVersion(offered:supported:)``.
/// 2. Each header is validated as soon as its 16 bytes are there, before a single
///    payload byte is waited for: ``FrameHeader/validate(receivedBy:maxPayloadSize:)``.
///    A length over ``maxFrameSize`` throws (RESOURCE_EXHAUSTED).
/// 3. The first frame is HELLO (or GOAWAY, a refusal); a later HELLO throws. After a
///    refusal preface (version 0/0) only GOAWAY is accepted.
/// 4. A DEADLINE frame's first 4 payload bytes become ``Frame/deadline``; bodies are
///    returned as on the wire (compressed ones still compressed).
/// 5. After a throw the decoder is failed: every later call throws the same error.
/// 6. The buffer is compacted as frames are consumed: it holds at most one partial
///    frame plus what the last append brought, never more than the limit allows. It grows
///    with the bytes that actually arrived, never with the length a header announces, and
///    gives back a large allocation once it is empty (see ``retainedCapacity``).
package struct FrameDecoder: Sendable {
    /// Which side of the connection the decoder reads for.
    package enum Role: Sendable, Hashable {
        /// The server, reading what a client sends.
        case server
        /// The client, reading what a server sends.
        case client
    }

    private enum State: Sendable {
        case awaitingPreface
        case awaitingHello
        case awaitingRefusal
        case frames
        case failed(ProtocolError)
    }

    /// The side the decoder reads for.
    package let role: Role
    /// The payload limit applied to each header. Starts at the pre-hello limit; the
    /// connection raises it once the hello exchange completes.
    package var maxFrameSize: Int {
        didSet { precondition(maxFrameSize >= 0 && maxFrameSize <= Int(UInt32.max), "invalid max frame size") }
    }
    /// The peer's preface, once read.
    package private(set) var peerPreface: Preface?

    private var state: State
    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var pendingHeader: FrameHeader?

    /// Compacting moves the unread bytes to the front once at least this many were consumed
    /// and they are at least half the buffer (amortized O(1) per byte).
    private static let compactionThreshold = 4_096

    /// The most capacity an empty buffer keeps for the next frames; a larger allocation (left
    /// by a large frame) is released, so an idle connection holds little.
    package static let retainedCapacity = 16 * 1_024

    /// Makes a decoder.
    ///
    /// - Parameters:
    ///   - role: The side it reads for.
    ///   - maxFrameSize: The initial payload limit.
    ///   - expectingPreface: `false` to start directly with frames after a HELLO
    ///     (tests, vectors, benchmarks).
    package init(role: Role, maxFrameSize: Int = Handshake.preHelloMaxFrameSize, expectingPreface: Bool = true) {
        precondition(maxFrameSize >= 0 && maxFrameSize <= Int(UInt32.max), "invalid max frame size")
        self.role = role
        self.maxFrameSize = maxFrameSize
        self.state = expectingPreface ? .awaitingPreface : .frames
    }

    /// The number of received bytes not yet returned as a preface or frame.
    package var bufferedByteCount: Int {
        buffer.count - readIndex
    }

    /// The capacity of the internal buffer: the memory the decoder holds.
    package var bufferCapacity: Int {
        buffer.capacity
    }

    /// Whether part of a frame (or of the preface) has arrived and waits for the rest.
    package var holdsIncompleteFrame: Bool {
        readIndex < buffer.count
    }

    /// Adds received bytes.
    ///
    /// - Parameter bytes: What the socket delivered.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Adds received bytes.
    ///
    /// - Parameter bytes: What the socket delivered.
    package mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Reads the peer's 8-byte preface.
    ///
    /// - Returns: The preface (also kept in ``peerPreface``), or `nil` until 8 bytes are there.
    /// - Throws: ``ProtocolError`` for bad magic or an invalid preface.
    package mutating func readPreface() throws(ProtocolError) -> Preface? {
        switch state {
        case .failed(let error):
            throw error
        case .awaitingPreface:
            break
        default:
            preconditionFailure("readPreface() called after the preface was read")
        }
        let sender: Preface.Sender = role == .server ? .client : .server
        let result = buffer.withUnsafeBytes { bytes in
            Result { () throws(ProtocolError) -> Preface? in
                try Preface.decode(from: UnsafeRawBufferPointer(rebasing: bytes[readIndex...]), sentBy: sender)
            }
        }
        let preface: Preface?
        switch result {
        case .success(let decoded):
            preface = decoded
        case .failure(let error):
            state = .failed(error)
            throw error
        }
        guard let preface else { return nil }
        readIndex += Preface.size
        peerPreface = preface
        state = preface.isRefusal ? .awaitingRefusal : .awaitingHello
        return preface
    }

    /// Returns the next complete frame.
    ///
    /// - Returns: The frame, or `nil` until more bytes arrive.
    /// - Throws: ``ProtocolError`` for the first rule the stream breaks; the decoder
    ///   stays failed.
    package mutating func nextFrame() throws(ProtocolError) -> Frame? {
        switch state {
        case .failed(let error):
            throw error
        case .awaitingPreface:
            preconditionFailure("nextFrame() called before readPreface() returned the preface")
        default:
            break
        }
        do {
            return try decodeFrame()
        } catch {
            state = .failed(error)
            throw error
        }
    }

    private mutating func decodeFrame() throws(ProtocolError) -> Frame? {
        let header: FrameHeader
        if let pendingHeader {
            header = pendingHeader
        } else {
            let decoded = buffer.withUnsafeBytes { bytes in
                FrameHeader.decode(from: UnsafeRawBufferPointer(rebasing: bytes[readIndex...]))
            }
            guard let decoded else { return nil }
            try decoded.validate(receivedBy: role, maxPayloadSize: maxFrameSize)
            try checkOrder(decoded.type)
            header = decoded
        }
        let length = Int(header.length)
        guard buffer.count - readIndex >= FrameHeader.size + length else {
            if pendingHeader == nil {
                pendingHeader = header
                // Move the partial frame to the front; the buffer grows as its bytes arrive
                // (the announced length is a claim, not memory to set aside).
                if readIndex > 0 {
                    buffer.removeSubrange(0..<readIndex)
                    readIndex = 0
                }
            }
            return nil
        }
        pendingHeader = nil
        var payloadStart = readIndex + FrameHeader.size
        let payloadEnd = payloadStart + length
        var deadline: UInt32?
        if header.flags.contains(.deadline) {
            deadline = buffer.withUnsafeBytes { bytes in
                UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: payloadStart, as: UInt32.self))
            }
            payloadStart += 4
        }
        let body = payloadStart == payloadEnd ? [] : Array(buffer[payloadStart..<payloadEnd])
        readIndex = payloadEnd
        if readIndex == buffer.count { empty() }
        return Frame(
            type: header.type,
            callID: header.callID,
            code: header.code,
            deadline: deadline,
            isCompressed: header.flags.contains(.compressed),
            body: body
        )
    }

    /// Rule 3: HELLO first and only once; only GOAWAY after a refusal.
    private mutating func checkOrder(_ type: FrameType) throws(ProtocolError) {
        switch state {
        case .awaitingHello:
            guard type == .hello || type == .goAway else {
                throw ProtocolError(.unexpectedHello, "the first frame must be HELLO, got \(type)")
            }
            state = .frames
        case .awaitingRefusal:
            guard type == .goAway else {
                throw ProtocolError(
                    .unexpectedFrameType, "after a refusal preface only GOAWAY may follow, got \(type)")
            }
            state = .frames
        default:
            if type == .hello {
                throw ProtocolError(.unexpectedHello, "a second HELLO frame")
            }
        }
    }

    /// Drops every consumed byte, keeping at most ``retainedCapacity`` of allocation.
    private mutating func empty() {
        buffer.removeAll(keepingCapacity: buffer.capacity <= Self.retainedCapacity)
        readIndex = 0
    }

    private mutating func compact() {
        if readIndex == buffer.count {
            if readIndex > 0 { empty() }
        } else if readIndex >= Self.compactionThreshold && readIndex * 2 >= buffer.count {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }
}
