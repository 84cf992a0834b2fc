import Dispatch
import Foundation
import Logging
import WorkoutCore
import WorkoutProtocol
#if canImport(Glibc)
import Glibc
#endif

/// One client's connection: its socket, its serial queue, and the protocol state.
///
/// Rules:
/// 1. Every mutable property is touched only on ``queue``; the Dispatch sources run their
///    handlers there, and work done elsewhere (writes in tasks) comes back with `queue.async`.
/// 2. Reads: the read source wakes the queue; it reads what is there into a pooled buffer,
///    cuts complete frames off the decoder and handles each. Reads (queries) run inline on the
///    queue; writes run in tasks and complete back on the queue.
/// 3. Writes: responses are appended to one outgoing buffer and written with one `send` when
///    the batch is handled; what the socket does not take waits for the write source. Past
///    ``ServerConfiguration/maxBufferedOutput`` the connection stops reading until the peer
///    drains, and is dropped if it does not within the slow-reader timeout.
/// 4. The descriptor is closed only in the last source's cancel handler.
final class Connection: @unchecked Sendable {
    // Safe because: see rule 1.
    let id: UInt64
    let peer: SocketAddress
    let queue: DispatchQueue
    let context: ServerContext
    /// This connection's call counters.
    private let descriptor: Int32

    enum Phase {
        case awaitingPreface, awaitingHello, open, draining, closed
    }

    var phase = Phase.awaitingPreface
    var decoder = FrameDecoder(role: .server)
    var encoder = FrameEncoder()
    var callIDs = CallIDSequence()
    var calls: [UInt32: CallState] = [:]
    var caller: Caller?
    var watches: [UInt32: WatchState] = [:]
    var clientAgent = ""
    var logger: Logger

    private var readSource: (any DispatchSourceRead)?
    private var writeSource: (any DispatchSourceWrite)?
    private var timer: (any DispatchSourceTimer)?
    private var readSuspended = false
    private var writeSuspended = true
    private var liveSources = 0
    private var outbound: [UInt8] = []
    private var outboundOffset = 0
    private var pausedSince: UInt64?
    /// When the server sent the PING that is not answered yet (nothing arrived since).
    private var pingSentAt: UInt64?
    var lastReceived = DispatchTime.now().uptimeNanoseconds
    var lastCallActivity = DispatchTime.now().uptimeNanoseconds
    let openedAt = DispatchTime.now().uptimeNanoseconds

    /// The queue every connection's queue runs on: Dispatch's global one, about as wide as the cores.
    private static let sharedTarget = DispatchQueue.global(qos: .userInitiated)

    init(descriptor: Int32, peer: SocketAddress, context: ServerContext) {
        self.id = context.makeConnectionID()
        self.descriptor = descriptor
        self.peer = peer
        self.context = context
        // A serial queue of its own is "overcommit": it may get a thread of its own whenever it
        // has work, and 64 busy connections ran on 257 threads switching on 2 cores. Targeting
        // Dispatch's global queue keeps the threads near the number of cores, and unlike a fixed
        // set of serial event loops, a handler that blocks (an export, a map resize) does not
        // hold up the connections that happen to share its loop: Dispatch adds a thread.
        self.queue = DispatchQueue(label: "workout.connection.\(id)", target: Self.sharedTarget)
        var logger = context.logger
        logger[metadataKey: "connection"] = "\(id)"
        logger[metadataKey: "peer"] = "\(peer)"
        self.logger = logger
    }

    /// Starts reading and the timers. Called once, after the connection was admitted.
    func start() {
        queue.async { [self] in
            let read = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            read.setEventHandler { [self] in readAvailable() }
            read.setCancelHandler { [self] in sourceCancelled() }
            let write = DispatchSource.makeWriteSource(fileDescriptor: descriptor, queue: queue)
            write.setEventHandler { [self] in writable() }
            write.setCancelHandler { [self] in sourceCancelled() }
            readSource = read
            writeSource = write
            liveSources = 2
            read.resume()
            startTimer()
            logger.info("connection opened")
        }
    }

    // MARK: Reading

    private func readAvailable() {
        guard phase != .closed else { return }
        var reads = 0
        while phase != .closed && !readSuspended && reads < 8 {
            reads += 1
            let count: Int?
            do {
                count = try context.readBuffers.withBuffer { buffer -> Int? in
                    guard let count = try Socket.read(descriptor, into: buffer) else { return nil }
                    if count > 0 { decoder.append(UnsafeRawBufferPointer(rebasing: buffer[..<count])) }
                    return count
                }
            } catch {
                logger.debug("read failed: \(error)")
                close()
                return
            }
            guard let count else { break }
            if count == 0 {
                logger.debug("peer closed the connection")
                close()
                return
            }
            lastReceived = DispatchTime.now().uptimeNanoseconds
            processInput()
            if count < context.configuration.readChunkSize { break }
        }
        flush()
    }

    /// Stops reading requests until the peer drains its responses.
    private func pauseReading() {
        guard !readSuspended, let readSource else { return }
        readSource.suspend()
        readSuspended = true
        pausedSince = DispatchTime.now().uptimeNanoseconds
        logger.debug("reading paused: \(outbound.count - outboundOffset) bytes wait for the peer")
    }

    private func resumeReading() {
        guard readSuspended, let readSource else { return }
        readSuspended = false
        pausedSince = nil
        readSource.resume()
    }

    // MARK: Writing

    /// Appends one frame to the outgoing batch. A response larger than the client accepts is
    /// replaced by a RESOURCE_EXHAUSTED answer for that call.
    func send(_ type: FrameType, callID: UInt32 = 0, code: UInt32 = 0, body: [UInt8] = []) {
        guard phase != .closed else { return }
        do {
            try encoder.append(type, callID: callID, code: code, body: body, to: &outbound)
        } catch {
            guard type == .response || type == .streamMessage || type == .streamEnd else { return }
            let failure = CallFailure(.resourceExhausted, "the response (\(body.count) bytes) is larger than this client's max frame size \(encoder.maxFrameSize)")
            let endType: FrameType = type == .response ? .response : .streamEnd
            try? encoder.append(endType, callID: callID, code: failure.status.rawValue, body: (try? failure.details.serializedBytes()) ?? [], to: &outbound)
        }
    }

    /// Appends bytes that are not a frame (a preface) to the outgoing batch.
    func appendRaw(_ bytes: [UInt8]) {
        outbound.append(contentsOf: bytes)
    }

    /// Writes what the socket takes; the rest waits for the write source.
    func flush() {
        guard phase != .closed, outboundOffset < outbound.count else { return }
        do {
            while outboundOffset < outbound.count {
                let written = try outbound.withUnsafeBytes { raw in
                    try Socket.write(descriptor, UnsafeRawBufferPointer(rebasing: raw[outboundOffset...]))
                }
                if written == 0 { break }
                outboundOffset += written
            }
        } catch {
            logger.debug("write failed: \(error)")
            close()
            return
        }
        let pending = outbound.count - outboundOffset
        if pending == 0 {
            outboundOffset = 0
            if outbound.capacity > 1 << 20 { outbound = [] } else { outbound.removeAll(keepingCapacity: true) }
            if writeSuspended == false {
                writeSource?.suspend()
                writeSuspended = true
            }
            if readSuspended { resumeReading() }
            if phase == .draining && calls.isEmpty { close() }
            return
        }
        if writeSuspended {
            writeSource?.resume()
            writeSuspended = false
        }
        if pending > context.configuration.maxBufferedOutput { pauseReading() }
    }

    private func writable() {
        flush()
        if readSuspended, outbound.count - outboundOffset < context.configuration.maxBufferedOutput / 2 {
            resumeReading()
        }
    }

    // MARK: Timers

    private func startTimer() {
        let configuration = context.configuration
        let tick = min(configuration.pingInterval, configuration.idleTimeout, configuration.handshakeTimeout,
                       configuration.slowReaderTimeout, configuration.maxStreamDuration) / 2
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(Int(tick.milliseconds)), repeating: .milliseconds(Int(max(tick.milliseconds, 1))))
        timer.setEventHandler { [self] in timerFired() }
        timer.resume()
        self.timer = timer
    }

    private func timerFired() {
        guard phase != .closed else { return }
        let configuration = context.configuration
        let now = DispatchTime.now().uptimeNanoseconds
        func elapsed(_ since: UInt64) -> Int64 { Int64((now - min(since, now)) / 1_000_000) }
        if phase == .awaitingPreface || phase == .awaitingHello {
            if elapsed(openedAt) >= configuration.handshakeTimeout.milliseconds {
                logger.info("handshake timed out")
                if phase == .awaitingHello {
                    goAway(.deadlineExceeded, "the handshake did not finish within \(configuration.handshakeTimeout)")
                }
                close()
            }
            return
        }
        if let pausedSince, elapsed(pausedSince) >= configuration.slowReaderTimeout.milliseconds {
            logger.info("dropping a slow reader: \(outbound.count - outboundOffset) bytes unread for \(configuration.slowReaderTimeout)")
            close()
            return
        }
        if calls.isEmpty && elapsed(lastCallActivity) >= configuration.idleTimeout.milliseconds {
            logger.debug("idle timeout")
            goAway(.ok, "idle for \(configuration.idleTimeout); reconnect when needed")
            close()
            return
        }
        if let pingSentAt, lastReceived < pingSentAt {
            // PROTOCOL.md 12: nothing at all within the idle timeout after a PING.
            if elapsed(pingSentAt) >= configuration.idleTimeout.milliseconds {
                logger.info("peer stopped answering pings")
                goAway(.unavailable, "keepalive timeout: no answer to a PING within \(configuration.idleTimeout)")
                close()
                return
            }
        } else if elapsed(lastReceived) >= configuration.pingInterval.milliseconds {
            let stamp = UInt64(now / 1_000_000).bigEndian
            send(.ping, body: withUnsafeBytes(of: stamp) { Array($0) })
            pingSentAt = now
            flush()
        }
        expireStreams(now: now)
    }

    // MARK: Closing

    /// Sends GOAWAY naming the last call the server will finish.
    func goAway(_ status: StatusCode, _ message: String) {
        var details = Workout_V1_RpcStatus()
        details.message = message
        send(.goAway, callID: callIDs.last, code: status.rawValue, body: (try? details.serializedBytes()) ?? [])
        flush()
    }

    /// Closes the connection at once: abandons calls in flight and cancels the sources (the
    /// descriptor is closed when the last one has stopped).
    func close() {
        guard phase != .closed else { return }
        phase = .closed
        for call in calls.values { call.abandon() }
        calls.removeAll()
        endWatch()
        timer?.cancel()
        timer = nil
        if readSuspended { readSource?.resume(); readSuspended = false }
        if writeSuspended { writeSource?.resume(); writeSuspended = false }
        readSource?.cancel()
        writeSource?.cancel()
        context.remove(self)
        context.statistics.connectionClosed(wasAuthenticated: caller != nil)
        logger.info("connection closed")
    }

    private func sourceCancelled() {
        liveSources -= 1
        if liveSources == 0 {
            Glibc.close(descriptor)
            readSource = nil
            writeSource = nil
        }
    }

    /// Closes from any thread (shutdown).
    func closeNow() {
        queue.async { [self] in close() }
    }

    /// Starts a graceful end from any thread: GOAWAY, no new calls, close when calls finish.
    func drain(message: String) {
        queue.async { [self] in
            guard phase != .closed else { return }
            if phase != .open {
                close()
                return
            }
            phase = .draining
            endWatch(status: .unavailable, message: message)
            goAway(.ok, message)
            if calls.isEmpty && outboundOffset >= outbound.count { close() }
        }
    }
}
