import Dispatch
import Foundation
import SwiftProtobuf
import Synchronization
import WorkoutProtocol

/// One socket to a Workout server: the handshake, many calls in flight matched by call
/// id, deadlines, cancellation, streams, pings and GOAWAY.
///
/// All state lives on one serial Dispatch queue; reads are driven by a read source and
/// writes are batched (calls started in the same turn of the queue go out in one
/// `send`). A connection is used until it closes or the server sends GOAWAY, then
/// ``WorkoutClient`` opens another; it never reconnects itself.
///
/// Safe to send between threads because: every mutable property is touched only on
/// `queue`, except ``isUsable``, which is atomic.
final class ClientConnection: @unchecked Sendable {
    /// What the client announces and accepts.
    struct Options: Sendable {
        /// The client software, sent in the HELLO (at most 128 bytes).
        var agent = "WorkoutClient/1"
        /// The largest frame payload we accept, and our inflate cap.
        var maxFrameSize = HandshakeLimits.defaultMaxFrameSize
        /// How long connecting plus the handshake may take.
        var connectTimeout: Duration = .seconds(5)
    }

    /// The server's HELLO: its software and limits.
    private(set) var serverHello = Workout_V1_ServerHello()

    private let queue: DispatchQueue
    private let descriptor: Int32
    private let options: Options
    private let usable = Atomic<Bool>(true)

    private var phase = Phase.handshaking
    private var handshakeWaiter: CheckedContinuation<Void, any Error>?
    private var decoder = FrameDecoder(role: .client)
    private var encoder = FrameEncoder()
    private var callIDs = CallIDSequence()
    /// Calls whose REQUEST is sent and whose final frame has not arrived, including
    /// abandoned ones (they still count against the server's limit).
    private var inFlight: [UInt32: PendingCall] = [:]
    /// Calls waiting for a free slot under the server's `max_calls_in_flight`.
    private var waiting: [PendingCall] = []
    private var maxCallsInFlight = HandshakeLimits.defaultMaxCallsInFlight

    private var outbound: [UInt8] = []
    private var outboundOffset = 0
    private var flushScheduled = false
    private var readSource: (any DispatchSourceRead)?
    private var writeSource: (any DispatchSourceWrite)?
    private var writeSourceRunning = false
    private var descriptorCloser: DescriptorCloser?
    private var descriptorClosed = false
    private let readBuffer: UnsafeMutableRawBufferPointer
    /// Whether anything arrived since the last keepalive check.
    private var receivedSinceCheck = false
    /// Whether our PING is unanswered (nothing has arrived since it went out).
    private var pingOutstanding = false
    private var keepaliveTimer: (any DispatchSourceTimer)?
    /// Keeps a draining connection alive until its last answers arrive, even after the client
    /// has moved on to a new connection; cleared when it closes.
    private var selfWhileDraining: ClientConnection?

    private enum Phase {
        case handshaking
        case ready
        /// GOAWAY arrived: no new calls; calls up to `lastCallID` still get answers.
        case draining
        case closed(WorkoutError)
    }

    private static let readChunk = 64 * 1_024

    // MARK: - Opening

    /// Connects to `address` and completes the handshake.
    ///
    /// - Throws: ``CallFailure`` (`notProcessed`) with `UNAVAILABLE` when the server
    ///   cannot be reached, refuses the connection, or does not finish the handshake in time.
    static func open(to address: ServerAddress, options: Options) async throws -> ClientConnection {
        let timeout = options.connectTimeout
        let milliseconds = Int32(clamping: max(timeout.nanoseconds, 0) / 1_000_000)
        // Resolving and connecting block: a thread of their own, so that neither Swift's
        // cooperative pool nor Dispatch's shared pool waits on a slow name server or network.
        let descriptor: Int32 = try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                do {
                    continuation.resume(returning: try ClientSocket.connect(to: address, timeoutMilliseconds: milliseconds))
                } catch {
                    continuation.resume(throwing: CallFailure(disposition: .notProcessed, error: .unavailable("\(error)")))
                }
            }
            thread.name = "workout.client.connect"
            thread.start()
        }
        let connection = ClientConnection(descriptor: descriptor, options: options)
        try await connection.handshake(address: address)
        return connection
    }

    private init(descriptor: Int32, options: Options) {
        self.descriptor = descriptor
        self.options = options
        self.queue = DispatchQueue(label: "workout.client.connection")
        self.readBuffer = .allocate(byteCount: Self.readChunk, alignment: 16)
    }

    deinit {
        // Normally closed already; this covers a connection dropped while open (a draining
        // one replaced by a new connection): no caller may be left waiting.
        let released = WorkoutError.unavailable("the connection was released")
        for call in inFlight.values { call.fail(CallFailure(disposition: .outcomeUnknown, error: released)) }
        for call in waiting { call.fail(CallFailure(disposition: .notProcessed, error: released)) }
        keepaliveTimer?.cancel()
        cancelSources()
        readBuffer.deallocate()
    }

    private func handshake(address: ServerAddress) async throws {
        let timeout = options.connectTimeout
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                queue.async { [self] in
                    if case .closed(let error) = phase {
                        // Cancelled before the handshake began: the descriptor is already closed.
                        continuation.resume(throwing: CallFailure(disposition: .notProcessed, error: error))
                        return
                    }
                    handshakeWaiter = continuation
                    Preface(offering: Handshake.supportedVersions).encode(into: &outbound)
                    var hello = Workout_V1_ClientHello()
                    hello.agent = String(options.agent.utf8.prefix(128)) ?? "WorkoutClient"
                    hello.maxFrameSize = UInt32(options.maxFrameSize)
                    hello.acceptsCompressed = true
                    hello.maxDecompressedSize = UInt32(options.maxFrameSize)
                    // Within the pre-hello limit by construction.
                    try? encoder.append(.hello, callID: 0, body: (try? hello.serializedBytes()) ?? [], to: &outbound)
                    startSources()
                    flush()
                    queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: timeout.nanoseconds))) { [weak self] in
                        guard let self, case .handshaking = phase else { return }
                        close(with: .unavailable("the server at \(address) did not complete the handshake within \(timeout)"))
                    }
                }
            }
        } onCancel: {
            queue.async { [self] in
                if case .handshaking = phase {
                    close(with: WorkoutError(code: .cancelled, message: "cancelled while connecting"))
                }
            }
        }
    }

    // MARK: - Calls

    /// Whether new calls may start on this connection (not closed, no GOAWAY).
    var isUsable: Bool {
        usable.load(ordering: .acquiring)
    }

    /// Runs a unary call and returns the response body.
    ///
    /// - Parameters:
    ///   - method: The method number.
    ///   - body: The serialized request.
    ///   - deadline: When to give up (the server is told the remaining time).
    /// - Throws: ``CallFailure``.
    func unary(method: UInt32, body: [UInt8], deadline: ContinuousClock.Instant?) async throws -> [UInt8] {
        let call = PendingCall(method: method, body: body, deadline: deadline)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8], any Error>) in
                queue.async { [self] in
                    call.receiver = .unary(continuation)
                    start(call)
                }
            }
        } onCancel: {
            queue.async { [self] in
                abandon(call, .final(WorkoutError(code: .cancelled, message: "the call was cancelled")))
            }
        }
    }

    /// Starts a server-streaming call; the stream yields message bodies and ends with the
    /// call. Stopping the iteration (or cancelling its task) cancels the call.
    ///
    /// - Parameters:
    ///   - method: The method number.
    ///   - body: The serialized request.
    ///   - deadline: When the whole stream must be over.
    func stream(method: UInt32, body: [UInt8], deadline: ContinuousClock.Instant?) -> AsyncThrowingStream<[UInt8], any Error> {
        let call = PendingCall(method: method, body: body, deadline: deadline)
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self, throwing: (any Error).self)
        continuation.onTermination = { [weak self] termination in
            guard case .cancelled = termination, let self else { return }
            queue.async {
                self.abandon(call, .final(WorkoutError(code: .cancelled, message: "the stream was cancelled")))
            }
        }
        queue.async { [self] in
            call.receiver = .stream(continuation)
            start(call)
        }
        return stream
    }

    /// Closes the connection; calls still waiting fail with `error` (outcome unknown).
    func close(reason error: WorkoutError) {
        queue.async { [self] in close(with: error) }
    }

    // MARK: - Sending

    private func start(_ call: PendingCall) {
        guard !call.abandonedBeforeStart else {
            call.fail(.final(WorkoutError(code: .cancelled, message: "the call was cancelled")))
            return
        }
        // The deadline runs from now, also while the call waits for a free slot.
        if let deadline = call.deadline {
            let timer = DispatchWorkItem { [weak self, weak call] in
                guard let self, let call else { return }
                abandon(call, .final(WorkoutError(code: .deadlineExceeded, message: "deadline exceeded")))
            }
            call.deadlineTimer = timer
            let remaining = max(deadline - .now, .zero)
            queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: remaining.nanoseconds)), execute: timer)
        }
        switch phase {
        case .closed(let error):
            call.fail(CallFailure(disposition: .notProcessed, error: error))
        case .draining:
            call.fail(CallFailure(disposition: .notProcessed, error: .unavailable("the connection is closing")))
        case .handshaking:
            waiting.append(call)
        case .ready:
            if inFlight.count >= maxCallsInFlight {
                waiting.append(call)
            } else {
                send(call)
            }
        }
    }

    private func send(_ call: PendingCall) {
        guard let callID = callIDs.next() else {
            call.fail(CallFailure(disposition: .notProcessed, error: .unavailable("call ids are used up on this connection")))
            goQuiet()
            return
        }
        var timeout: UInt32?
        if let deadline = call.deadline {
            let remaining = deadline - .now
            guard remaining > .zero else {
                call.fail(.final(WorkoutError(code: .deadlineExceeded, message: "the deadline passed before the call was sent")))
                return
            }
            let milliseconds = (remaining.nanoseconds + 999_999) / 1_000_000
            timeout = UInt32(clamping: milliseconds)
        }
        do {
            try encoder.append(.request, callID: callID, code: call.method, deadline: timeout, body: call.body, to: &outbound)
        } catch {
            call.fail(.final(WorkoutError(code: error.status, message: error.message)))
            return
        }
        call.callID = callID
        call.body = []
        inFlight[callID] = call
        scheduleFlush()
    }

    /// Gives up a call for its caller: a started call gets a CANCEL and stays counted until
    /// its final frame; a waiting one is dropped.
    private func abandon(_ call: PendingCall, _ failure: CallFailure) {
        guard call.isActive else {
            if call.callID == 0 { call.abandonedBeforeStart = true }
            return
        }
        if call.callID != 0, inFlight[call.callID] === call, case .ready = phase {
            try? encoder.append(.cancel, callID: call.callID, body: [], to: &outbound)
            scheduleFlush()
        } else if call.callID == 0 {
            waiting.removeAll { $0 === call }
        }
        call.fail(failure)
    }

    /// Starts waiting calls while there is room.
    private func startWaiting() {
        guard case .ready = phase else { return }
        while !waiting.isEmpty && inFlight.count < maxCallsInFlight {
            let call = waiting.removeFirst()
            if call.isActive { send(call) }
        }
    }

    private func scheduleFlush() {
        guard !flushScheduled else { return }
        flushScheduled = true
        queue.async { [self] in
            flushScheduled = false
            flush()
        }
    }

    private func flush() {
        while outboundOffset < outbound.count {
            let result = outbound.withUnsafeBytes { bytes in
                ClientSocket.write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[outboundOffset...]))
            }
            switch result {
            case .bytes(let count):
                outboundOffset += count
            case .wouldBlock:
                if !writeSourceRunning, let writeSource {
                    writeSourceRunning = true
                    writeSource.resume()
                }
                return
            case .endOfStream, .failed:
                if case .failed(let code) = result {
                    close(with: .unavailable("lost the connection to the server: \(ClientSocket.errorText(code))"))
                } else {
                    close(with: .unavailable("lost the connection to the server"))
                }
                return
            }
        }
        outbound.removeAll(keepingCapacity: outbound.capacity <= 256 * 1_024)
        outboundOffset = 0
        if writeSourceRunning, let writeSource {
            writeSourceRunning = false
            writeSource.suspend()
        }
    }

    // MARK: - Receiving

    private func startSources() {
        let read = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        read.setEventHandler { [weak self] in self?.readAvailable() }
        let write = DispatchSource.makeWriteSource(fileDescriptor: descriptor, queue: queue)
        write.setEventHandler { [weak self] in self?.flush() }
        let closer = DescriptorCloser(descriptor: descriptor, users: 2)
        descriptorCloser = closer
        read.setCancelHandler { closer.release() }
        write.setCancelHandler { closer.release() }
        readSource = read
        writeSource = write
        read.resume()
    }

    private func readAvailable() {
        while true {
            guard readSource != nil else { return }
            switch ClientSocket.read(descriptor, into: readBuffer) {
            case .bytes(let count):
                receivedSinceCheck = true
                pingOutstanding = false
                decoder.append(UnsafeRawBufferPointer(rebasing: readBuffer[..<count]))
                processFrames()
                if count < readBuffer.count { return }
            case .wouldBlock:
                return
            case .endOfStream:
                close(with: .unavailable("the server closed the connection"))
                return
            case .failed(let code):
                close(with: .unavailable("lost the connection to the server: \(ClientSocket.errorText(code))"))
                return
            }
        }
    }

    private func processFrames() {
        do {
            if decoder.peerPreface == nil {
                guard try decoder.readPreface() != nil else { return }
            }
            while let frame = try decoder.nextFrame() {
                handle(frame)
                if case .closed = phase { return }
            }
        } catch {
            close(with: WorkoutError(code: error.status, message: "the server broke the protocol: \(error.message)"))
        }
    }

    private func handle(_ frame: Frame) {
        switch frame.type {
        case .hello:
            handleHello(frame)
        case .response, .streamEnd:
            finish(frame)
        case .streamMessage:
            guard let call = inFlight[frame.callID], call.isActive else { return }
            do {
                call.deliver(try frame.decodedBody(maxDecompressedSize: options.maxFrameSize))
            } catch {
                abandon(call, .final(WorkoutError(code: error.status, message: "bad stream message: \(error.message)")))
            }
        case .ping:
            try? encoder.append(.pong, callID: 0, body: frame.body, to: &outbound)
            scheduleFlush()
        case .goAway:
            handleGoAway(frame)
        default:
            break  // PONG, or a type the decoder lets through for another role
        }
    }

    private func handleHello(_ frame: Frame) {
        guard case .handshaking = phase else { return }
        guard let hello = try? Workout_V1_ServerHello(serializedBytes: frame.body) else {
            close(with: .unavailable("the server sent a HELLO that does not decode"))
            return
        }
        serverHello = hello
        let peerLimit = hello.maxFrameSize == 0 ? HandshakeLimits.defaultMaxFrameSize : Int(hello.maxFrameSize)
        encoder = FrameEncoder(
            maxFrameSize: peerLimit, compressionEnabled: hello.acceptsCompressed,
            maxDecompressedSize: hello.maxDecompressedSize == 0 ? peerLimit : Int(hello.maxDecompressedSize))
        decoder.maxFrameSize = options.maxFrameSize
        maxCallsInFlight = max(1, Int(hello.maxCallsInFlight == 0 ? UInt32(HandshakeLimits.defaultMaxCallsInFlight) : hello.maxCallsInFlight))
        phase = .ready
        startKeepalive(interval: hello.pingIntervalMs)
        handshakeWaiter?.resume()
        handshakeWaiter = nil
        startWaiting()
    }

    /// Detects a server that vanished without closing the connection (a dropped network,
    /// a machine that lost power): while calls wait, a silent interval gets a PING, and a
    /// second silent interval closes the connection, so waiting calls fail (or are retried)
    /// and a Watch resumes elsewhere instead of waiting forever.
    private func startKeepalive(interval milliseconds: UInt32) {
        guard milliseconds > 0 else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let period = DispatchTimeInterval.milliseconds(Int(milliseconds))
        timer.schedule(deadline: .now() + period, repeating: period, leeway: .milliseconds(Int(milliseconds / 10) + 1))
        timer.setEventHandler { [weak self] in self?.checkKeepalive() }
        keepaliveTimer = timer
        timer.resume()
    }

    private func checkKeepalive() {
        defer { receivedSinceCheck = false }
        switch phase {
        case .ready, .draining: break
        case .handshaking, .closed: return
        }
        guard !inFlight.isEmpty, !receivedSinceCheck else { return }
        if pingOutstanding {
            close(with: .unavailable("the server stopped answering"))
            return
        }
        pingOutstanding = true
        try? encoder.append(.ping, callID: 0, body: [0x57, 0x4B, 0x43, 0x4C, 0, 0, 0, 0], to: &outbound)
        scheduleFlush()
    }

    private func finish(_ frame: Frame) {
        guard let call = inFlight.removeValue(forKey: frame.callID) else { return }
        defer {
            startWaiting()
            closeIfDrained()
        }
        guard call.isActive else { return }
        let status = StatusCode(rawValue: frame.code)
        let body: [UInt8]
        do {
            body = try frame.decodedBody(maxDecompressedSize: options.maxFrameSize)
        } catch {
            call.fail(.final(WorkoutError(code: error.status, message: "bad answer from the server: \(error.message)")))
            return
        }
        if status == .ok {
            if frame.type == .response, case .unary = call.receiver {
                call.deliver(body)
            } else {
                call.complete()
            }
        } else {
            call.fail(.final(WorkoutError(code: status, statusBody: body)))
        }
    }

    private func handleGoAway(_ frame: Frame) {
        let reason = WorkoutError(code: StatusCode(rawValue: frame.code), statusBody: frame.body)
        if case .handshaking = phase {
            let message = reason.message.isEmpty ? "the server refused the connection" : "the server refused the connection: \(reason.message)"
            close(with: WorkoutError(code: reason.code == .ok ? .unavailable : reason.code, message: message))
            return
        }
        goQuiet()
        let explanation = reason.message.isEmpty ? "the server is closing the connection" : "the server is closing the connection (\(reason.message))"
        for (callID, call) in inFlight where callID > frame.callID {
            inFlight[callID] = nil
            call.fail(CallFailure(disposition: .notProcessed, error: .unavailable(explanation)))
        }
        let queued = waiting
        waiting = []
        for call in queued {
            call.fail(CallFailure(disposition: .notProcessed, error: .unavailable(explanation)))
        }
        phase = .draining
        selfWhileDraining = self
        closeIfDrained()
    }

    /// Stops new calls from choosing this connection.
    private func goQuiet() {
        usable.store(false, ordering: .releasing)
    }

    private func closeIfDrained() {
        if case .draining = phase, inFlight.isEmpty {
            close(with: .unavailable("the server closed the connection"))
        }
    }

    private func close(with error: WorkoutError) {
        if case .closed = phase { return }
        phase = .closed(error)
        goQuiet()
        if let handshakeWaiter {
            self.handshakeWaiter = nil
            handshakeWaiter.resume(throwing: CallFailure(disposition: .notProcessed, error: error))
        }
        let started = inFlight.values
        inFlight = [:]
        for call in started {
            call.fail(CallFailure(disposition: .outcomeUnknown, error: error))
        }
        let queued = waiting
        waiting = []
        for call in queued {
            call.fail(CallFailure(disposition: .notProcessed, error: error))
        }
        keepaliveTimer?.cancel()
        keepaliveTimer = nil
        cancelSources()
        outbound = []
        outboundOffset = 0
        selfWhileDraining = nil
    }

    /// Cancels both sources (the descriptor closes when both are done), or closes the
    /// descriptor directly when the sources never started.
    private func cancelSources() {
        guard let readSource, let writeSource else {
            if descriptorCloser == nil, !descriptorClosed {
                descriptorClosed = true
                ClientSocket.close(descriptor)
            }
            return
        }
        // A suspended source must be resumed before it is cancelled or released.
        if !writeSourceRunning { writeSource.resume() }
        writeSourceRunning = true
        writeSource.cancel()
        readSource.cancel()
        self.writeSource = nil
        self.readSource = nil
    }
}

extension Duration {
    /// The whole duration in nanoseconds, saturating.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        return scaled.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}

/// Closes a descriptor once every Dispatch source using it has been cancelled.
///
/// Safe to send between threads because: the sources' cancel handlers run on the
/// connection's serial queue, one at a time.
private final class DescriptorCloser: @unchecked Sendable {
    private let descriptor: Int32
    private var users: Int

    init(descriptor: Int32, users: Int) {
        self.descriptor = descriptor
        self.users = users
    }

    func release() {
        users -= 1
        if users == 0 { ClientSocket.close(descriptor) }
    }
}
