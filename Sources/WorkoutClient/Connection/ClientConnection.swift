import Dispatch
import Foundation
import SwiftProtobuf
import Synchronization
import WorkoutProtocol

/// One socket to a Workout server: the wiring between the socket and its
/// ``ClientConnectionMachine``, which holds every rule (handshake, call ids, the in-flight
/// FIFO, deadlines, cancellation, keepalive, GOAWAY).
///
/// All state lives on one serial Dispatch queue: callers' requests, the read source, the
/// write source and the one timer hand their events to the machine with the time and carry
/// out its actions; writes are batched (calls started in the same turn of the queue go out in
/// one `send`). A connection is used until it closes or the server sends GOAWAY, then
/// ``WorkoutClient`` opens another; it never reconnects itself.
///
/// Safe to send between threads because: every mutable property is touched only on
/// `queue`, except ``isUsable``, which is atomic.
final class ClientConnection: @unchecked Sendable {
    /// What the client announces and how long opening may take.
    typealias Options = ClientConnectionMachine.Options

    /// The server's HELLO: its software and limits.
    private(set) var serverHello = Workout_V1_ServerHello()

    private let queue: DispatchQueue
    private let descriptor: Int32
    private let usable = Atomic<Bool>(true)
    private var machine: ClientConnectionMachine
    private var pending: [ClientCallHandle: PendingCall] = [:]
    private var handshakeWaiter: CheckedContinuation<Void, any Error>?

    private var flushScheduled = false
    private var readSource: (any DispatchSourceRead)?
    private var writeSource: (any DispatchSourceWrite)?
    private var timer: (any DispatchSourceTimer)?
    private var writeSourceRunning = false
    private var sourcesStarted = false
    private var descriptorClosed = false
    private let readBuffer: UnsafeMutableRawBufferPointer
    /// Keeps a draining connection alive until its last answers arrive, even after the client
    /// has moved on to a new connection; cleared when it closes.
    private var selfWhileDraining: ClientConnection?

    private static let readChunk = 64 * 1_024

    // MARK: - Opening

    /// Connects to `address`, secures the connection (TLS, the server's key checked against
    /// `trust` before anything is sent), and completes the protocol's handshake.
    ///
    /// - Throws: ``CallFailure`` (`notProcessed`) with `UNAVAILABLE` when the server
    ///   cannot be reached, refuses the connection, or does not finish the handshake in time;
    ///   (`final`) with `FAILED_PRECONDITION` when its key is not trusted or it does not
    ///   speak TLS.
    static func open(
        to address: ServerAddress, options: Options, security: TransportSecurity = .tls, trust: ServerTrust = ServerTrust(),
        transport makeTransport: (@Sendable () -> any WorkoutTransport)? = nil
    ) async throws -> ClientConnection {
        if let makeTransport {
            return try await open(over: makeTransport(), to: address, options: options, security: security, trust: trust)
        }
        let engine: (any TLSClientEngine)?
        do {
            engine = security == .tls ? try makeTLSClientEngine() : nil
        } catch {
            throw CallFailure.final(error)
        }
        // connect(2)'s own time limit, before any protocol (the machine times the handshake).
        let milliseconds = Int32(clamping: options.connectTimeout.wholeNanoseconds / 1_000_000)
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
        let connection = ClientConnection(descriptor: descriptor, options: options, address: address, engine: engine)
        if engine != nil {
            do {
                // Read on the connection's queue when the handshake completed: the queue goes
                // on using the engine (reading) while the key is checked here.
                let presented = try await connection.secure()
                guard let key = presented.publicKey else {
                    throw CallFailure.final(WorkoutError(code: .failedPrecondition, message: "the server at \(address) presented no certificate"))
                }
                do {
                    try await trust.check(publicKey: key, endorsements: presented.endorsements, address: address)
                } catch {
                    connection.keyChecked(refusal: error)
                    throw CallFailure.final(error)
                }
                connection.verifiedServerFingerprint = ServerFingerprint(publicKey: key)
            } catch {
                connection.close(reason: (error as? CallFailure)?.error ?? .unavailable("\(error)"))
                throw error
            }
        }
        try await connection.handshake()
        return connection
    }

    /// Connects over an app's transport, which runs the key check during its TLS handshake;
    /// then completes the protocol's handshake.
    ///
    /// - Throws: ``CallFailure``: `final` when the key check refused the server (or the
    ///   transport did not run it over TLS), `notProcessed` when the transport could not connect.
    private static func open(
        over app: any WorkoutTransport, to address: ServerAddress, options: Options, security: TransportSecurity, trust: ServerTrust
    ) async throws -> ClientConnection {
        let keyCheck = ServerKeyCheck(trust: trust, address: address)
        do {
            try await withTaskCancellationHandler {
                try await app.connect(to: address, security: security, timeout: options.connectTimeout, keyCheck: keyCheck)
            } onCancel: {
                app.close()
            }
        } catch {
            app.close()
            if case .failure(let refusal) = keyCheck.result { throw CallFailure.final(refusal) }
            if Task.isCancelled { throw CallFailure(disposition: .notProcessed, error: WorkoutError(code: .cancelled, message: "cancelled while connecting")) }
            let failure = error as? WorkoutError ?? .unavailable("cannot connect to \(address): \(error)")
            throw CallFailure(disposition: failure.code == .failedPrecondition ? .final : .notProcessed, error: failure)
        }
        var verified: ServerFingerprint?
        if security == .tls {
            switch keyCheck.result {
            case .success(let fingerprint):
                verified = fingerprint
            case .failure(let refusal):
                app.close()
                throw CallFailure.final(refusal)
            case nil:
                app.close()
                throw CallFailure.final(WorkoutError(
                    code: .failedPrecondition,
                    message: "the transport connected to \(address) over TLS without checking the server's key (ServerKeyCheck); nothing was sent"))
            }
        }
        let connection = ClientConnection(descriptor: -1, options: options, address: address, engine: nil, app: app)
        connection.verifiedServerFingerprint = verified
        try await connection.handshake()
        return connection
    }

    private init(descriptor: Int32, options: Options, address: ServerAddress, engine: (any TLSClientEngine)?, app: (any WorkoutTransport)? = nil) {
        self.app = app
        self.transport = ClientTransport(engine: engine, server: address)
        self.descriptor = descriptor
        self.queue = DispatchQueue(label: "workout.client.connection")
        self.readBuffer = .allocate(byteCount: Self.readChunk, alignment: 16)
        self.machine = ClientConnectionMachine(options: options, now: Self.now())
        self.serverAddress = address
        self.peerIsLoopback = app?.peerIsLoopback ?? LoopbackAddress.isPeerLoopback(descriptor)
        self.gate = KeyCheckGate(tls: engine != nil)
    }

    private let serverAddress: ServerAddress
    /// The fingerprint of the key the server proved it holds and ``ServerTrust`` accepted;
    /// `nil` over plain TCP. Set once in ``open(to:options:security:trust:)``, before the
    /// connection is handed to anyone.
    private(set) var verifiedServerFingerprint: ServerFingerprint?
    /// Whether the address the socket is connected to is this machine's loopback.
    let peerIsLoopback: Bool
    /// Plain TCP or TLS, between the socket and the machine.
    private let transport: ClientTransport
    /// Waits for the TLS handshake.
    private var securingWaiter: CheckedContinuation<ClientTransport.PresentedKey, any Error>?
    /// Holds what the server sends until its key was checked.
    private var gate: KeyCheckGate
    /// The app's transport, instead of the socket (and the TLS engine), if it gave one.
    private let app: (any WorkoutTransport)?
    /// Reads from the app's transport, handing what arrives to the queue.
    private var appReader: Task<Void, Never>?
    /// Whether a send to the app's transport is under way (one at a time).
    private var appSending = false
    /// Whether the app's transport was closed.
    private var appClosed = false

    /// Starts the machine (whose handshake time limit covers TLS, the key check and the HELLO
    /// exchange) and runs the TLS handshake. The machine's HELLO waits until ``handshake()``.
    ///
    /// - Throws: ``CallFailure``: `notProcessed` when it times out or fails on the way,
    ///   `final` when the server does not speak TLS.
    /// - Returns: The key the server presented, read on the connection's queue.
    private func secure() async throws -> ClientTransport.PresentedKey {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ClientTransport.PresentedKey, any Error>) in
                queue.async { [self] in
                    if case .closed(let error) = machine.phase {
                        continuation.resume(throwing: CallFailure(disposition: .notProcessed, error: error))
                        return
                    }
                    securingWaiter = continuation
                    startSources()
                    perform(machine.start(now: Self.now()))
                    do throws(WorkoutError) {
                        try transport.startHandshake()
                    } catch {
                        lose(error)
                        return
                    }
                    flush()
                }
            }
        } onCancel: {
            queue.async { [self] in carryOut(gate.cancelled()) }
        }
    }

    /// The key check refused the server's key with `error`: the connection ends, and what the
    /// server sent meanwhile is dropped.
    func keyChecked(refusal error: WorkoutError) {
        queue.async { [self] in carryOut(gate.keyRefused(error)) }
    }

    /// Carries out what the key check's gate decided.
    private func carryOut(_ actions: [KeyCheckGate.Action]) {
        for action in actions {
            switch action {
            case .checkKey:
                guard let waiter = securingWaiter else { continue }
                securingWaiter = nil
                waiter.resume(returning: transport.presentedKey())
            case .release(let held):
                held.withUnsafeBytes { perform(machine.received($0, now: Self.now())) }
            case .failSecuring(let error):
                if let waiter = securingWaiter {
                    securingWaiter = nil
                    let disposition: CallFailure.Disposition = error.code == .failedPrecondition ? .final : .notProcessed
                    waiter.resume(throwing: CallFailure(disposition: disposition, error: error))
                }
                perform(machine.connectionLost(error))
            case .loseConnection(let error):
                perform(machine.connectionLost(error))
            }
        }
    }

    deinit {
        // Normally closed already; this covers a connection dropped while open (a draining
        // one replaced by a new connection): no caller may be left waiting.
        let released = WorkoutError.unavailable("the connection was released")
        for call in pending.values { call.fail(CallFailure(disposition: .outcomeUnknown, error: released)) }
        timer?.cancel()
        cancelSources()
        readBuffer.deallocate()
    }

    /// The uptime clock the machine is told.
    private static func now() -> ConnectionInstant {
        ConnectionInstant(nanoseconds: DispatchTime.now().uptimeNanoseconds)
    }

    private func handshake() async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                queue.async { [self] in
                    if case .closed(let error) = machine.phase {
                        // Cancelled before the handshake began: the descriptor is already closed.
                        continuation.resume(throwing: CallFailure(disposition: .notProcessed, error: error))
                        return
                    }
                    handshakeWaiter = continuation
                    if !sourcesStarted {
                        startSources()
                        perform(machine.start(now: Self.now()))
                    }
                    // The server's key was checked (or there is no TLS): the protocol may begin.
                    // What the server sent meanwhile reaches the machine only now, with the
                    // waiter in place for its HELLO or its refusal.
                    carryOut(gate.keyAccepted())
                    flush()
                }
            }
        } onCancel: {
            queue.async { [self] in
                guard case .handshaking = machine.phase else { return }
                perform(machine.connectionLost(WorkoutError(code: .cancelled, message: "cancelled while connecting")))
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
        let instant = deadline.map(Self.instant(of:))
        // Made before the cancellation handler: a task cancelled already runs `onCancel` first.
        let call = PendingCall()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8], any Error>) in
                queue.async { [self] in
                    call.attach(.unary(continuation))
                    start(call, method: method, body: body, isStream: false, deadline: instant)
                }
            }
        } onCancel: {
            queue.async { [self] in
                abandon(call, WorkoutError(code: .cancelled, message: "the call was cancelled"))
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
        let instant = deadline.map(Self.instant(of:))
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self, throwing: (any Error).self)
        let call = PendingCall(.stream(continuation))
        continuation.onTermination = { [weak self] termination in
            guard case .cancelled = termination, let self else { return }
            queue.async {
                self.abandon(call, WorkoutError(code: .cancelled, message: "the stream was cancelled"))
            }
        }
        queue.async { [self] in
            start(call, method: method, body: body, isStream: true, deadline: instant)
        }
        return stream
    }

    /// Closes the connection; calls still waiting fail with `error` (outcome unknown).
    func close(reason error: WorkoutError) {
        queue.async { [self] in perform(machine.connectionLost(error)) }
    }

    /// The uptime instant of a `ContinuousClock` deadline.
    private static func instant(of deadline: ContinuousClock.Instant) -> ConnectionInstant {
        let remaining = deadline - .now
        return remaining > .zero ? now() + remaining : now()
    }

    private func start(_ call: PendingCall, method: UInt32, body: [UInt8], isStream: Bool, deadline: ConnectionInstant?) {
        guard !call.abandonedBeforeStart else {
            call.fail(.final(WorkoutError(code: .cancelled, message: "the call was cancelled")))
            return
        }
        let (handle, actions) = machine.startCall(method: method, body: body, isStream: isStream, deadline: deadline, now: Self.now())
        call.handle = handle
        pending[handle] = call
        perform(actions)
        scheduleFlush()
    }

    private func abandon(_ call: PendingCall, _ error: WorkoutError) {
        guard let handle = call.handle else {
            call.abandonedBeforeStart = true
            return
        }
        perform(machine.abandon(handle, error, now: Self.now()))
        scheduleFlush()
    }

    // MARK: - Actions

    private func perform(_ actions: [ClientConnectionAction]) {
        for action in actions {
            switch action {
            case .deliver(let handle, let body):
                guard let call = pending[handle] else { continue }
                if !call.isStream { pending[handle] = nil }
                call.deliver(body)
            case .finish(let handle):
                pending.removeValue(forKey: handle)?.finish()
            case .fail(let handle, let failure):
                pending.removeValue(forKey: handle)?.fail(failure)
            case .handshakeCompleted(let hello):
                serverHello = hello
                handshakeWaiter?.resume()
                handshakeWaiter = nil
            case .stopNewCalls:
                usable.store(false, ordering: .releasing)
                if !machine.isClosed { selfWhileDraining = self }
            case .armTimer(let instant):
                timer?.schedule(deadline: DispatchTime(uptimeNanoseconds: instant.nanoseconds), leeway: .milliseconds(1))
            case .close(let error, _):
                if let securingWaiter {
                    self.securingWaiter = nil
                    securingWaiter.resume(throwing: CallFailure(disposition: .notProcessed, error: error))
                }
                if let handshakeWaiter {
                    self.handshakeWaiter = nil
                    handshakeWaiter.resume(throwing: CallFailure(disposition: .notProcessed, error: error))
                }
                timer?.cancel()
                timer = nil
                cancelSources()
                selfWhileDraining = nil
            }
        }
    }

    // MARK: - Sending

    private func scheduleFlush() {
        guard !flushScheduled else { return }
        flushScheduled = true
        queue.async { [self] in
            flushScheduled = false
            flush()
        }
    }

    private func flush() {
        if let app {
            flush(to: app)
            return
        }
        while readSource != nil, !machine.output.isEmpty || transport.hasPendingOutput {
            let allowed = gate.allowsApplicationData
            switch machine.output.withUnreadBytes({ transport.write(to: descriptor, $0, plaintextAllowed: allowed) }) {
            case .moved(let count):
                guard count > 0 else { break }
                machine.wrote(count)
                continue
            case .blocked(let count):
                if count > 0 { machine.wrote(count) }
                if !writeSourceRunning, let writeSource {
                    writeSourceRunning = true
                    writeSource.resume()
                }
                return
            case .failed(let error):
                lose(error)
                return
            }
            break
        }
        if writeSourceRunning, let writeSource {
            writeSourceRunning = false
            writeSource.suspend()
        }
    }

    // MARK: - Receiving

    private func startSources() {
        if let app {
            startTimer()
            sourcesStarted = true
            startReading(app)
            return
        }
        let read = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        read.setEventHandler { [weak self] in self?.readAvailable() }
        let write = DispatchSource.makeWriteSource(fileDescriptor: descriptor, queue: queue)
        write.setEventHandler { [weak self] in self?.flush() }
        let closer = DescriptorCloser(descriptor: descriptor, users: 2)
        read.setCancelHandler { closer.release() }
        write.setCancelHandler { closer.release() }
        readSource = read
        writeSource = write
        startTimer()
        sourcesStarted = true
        read.resume()
    }

    /// Starts the one timer, which tells the machine the time when it asked.
    private func startTimer() {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            perform(machine.tick(now: Self.now()))
            flush()
        }
        self.timer = timer
        timer.resume()
    }

    // MARK: - An app's transport

    /// Reads from the app's transport until it ends, each piece handed to the queue.
    private func startReading(_ app: any WorkoutTransport) {
        appReader = Task { [weak self] in
            while !Task.isCancelled {
                let received: Result<[UInt8], any Error>
                do {
                    received = .success(try await app.receive())
                } catch {
                    received = .failure(error)
                }
                guard let connection = self else { return }
                connection.queue.async { connection.appReceived(received) }
                guard case .success(let bytes) = received, !bytes.isEmpty else { return }
            }
        }
    }

    /// What the app's transport received: bytes for the machine, its end, or its failure.
    private func appReceived(_ received: Result<[UInt8], any Error>) {
        guard !appClosed else { return }
        switch received {
        case .success(let bytes) where bytes.isEmpty:
            lose(.unavailable("the server closed the connection"))
        case .success(let bytes):
            bytes.withUnsafeBytes { perform(machine.received($0, now: Self.now())) }
            flush()
        case .failure(let error):
            lose(.unavailable("lost the connection to the server: \(error)"))
        }
    }

    /// Hands what the machine produced to the app's transport, one send at a time: the bytes
    /// are the send's from then on, and the next go once the transport took them.
    private func flush(to app: any WorkoutTransport) {
        guard sourcesStarted, !appClosed, !appSending, !machine.output.isEmpty else { return }
        let bytes = machine.output.withUnreadBytes { Array($0) }
        machine.wrote(bytes.count)
        appSending = true
        Task { [self] in
            do {
                try await app.send(bytes)
                queue.async { [self] in
                    appSending = false
                    flush()
                }
            } catch {
                queue.async { [self] in
                    appSending = false
                    lose(.unavailable("lost the connection to the server: \(error)"))
                }
            }
        }
    }

    private func readAvailable() {
        while readSource != nil {
            switch ClientSocket.read(descriptor, into: readBuffer) {
            case .bytes(let count):
                var heldTooMuch = false
                do {
                    try transport.received(UnsafeRawBufferPointer(rebasing: readBuffer[..<count]), scratch: readBuffer) { plaintext in
                        switch gate.received(plaintext) {
                        case .deliver: perform(machine.received(plaintext, now: Self.now()))
                        case .held: break
                        case .tooMuch: heldTooMuch = true
                        }
                    }
                } catch {
                    lose(error)
                    return
                }
                if heldTooMuch {
                    lose(.unavailable("the server at \(serverAddress) sent more than \(KeyCheckGate.maxHeld) bytes before its key was checked"))
                    return
                }
                if transport.isReady { carryOut(gate.handshakeCompleted()) }
                flush()
                if count < readBuffer.count { return }
            case .wouldBlock:
                return
            case .endOfStream:
                lose(.unavailable("the server closed the connection"))
                return
            case .failed(let code):
                lose(.unavailable("lost the connection to the server: \(ClientSocket.errorText(code))"))
                return
            }
        }
    }

    /// The connection failed: the gate decides who learns why (the TLS handshake's waiter, or
    /// the machine), and whether the key is checked first (``KeyCheckGate``).
    private func lose(_ error: WorkoutError) {
        carryOut(gate.failed(error, handshakeComplete: transport.isReady))
    }

    /// Cancels both sources (the descriptor closes when both are done), or closes the
    /// descriptor directly when the sources never started.
    private func cancelSources() {
        if let app {
            guard !appClosed else { return }
            appClosed = true
            appReader?.cancel()
            app.close()
            return
        }
        guard let readSource, let writeSource else {
            if !sourcesStarted, !descriptorClosed {
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
