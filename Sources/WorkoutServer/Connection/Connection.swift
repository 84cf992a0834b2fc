import Foundation
import SystemCalls
import Dispatch
import Synchronization
import Logging
import WorkoutCore
import WorkoutProtocol

/// One client's connection: the wiring between its socket and its ``ServerConnectionMachine``.
///
/// Rules of the wiring (the protocol's rules are the machine's, none are here):
/// 1. Every mutable property is touched only on ``queue``; the Dispatch sources run their
///    handlers there, and work done elsewhere (writes in tasks) comes back with `queue.async`.
/// 2. Each source hands its event to the machine with the time, then carries out the actions
///    it returns, then writes what the machine's output holds (one `send` per turn of the
///    queue); what the socket does not take waits for the write source.
/// 3. Calls run here: reads inline on the queue, writes in tasks whose jobs run on the queue
///    (they wait for the group-commit writer without holding it; a write that is the
///    connection's only one in flight may commit its batch on the queue when the writer is
///    idle, holding the queue for that commit), slow calls (scrypt) in tasks on a shared
///    executor, streams as producers that send while the machine says there is room.
/// 4. The descriptor is closed only in the last source's cancel handler.
/// 5. What the server weighs across connections (memory held for frames, idle without a
///    session) is published in atomics after every event, for ``ServerContext`` to read from
///    any thread; it acts on a connection only through ``shed(_:)``.
final class Connection: @unchecked Sendable {
    // Safe because: see rule 1.
    let id: UInt64
    let peer: SocketAddress
    /// The peer's host as text, made once: every call's context and the per-address limits use it.
    let peerHost: String
    let queue: DispatchQueue
    let context: ServerContext
    var logger: Logger
    private let descriptor: Int32

    private var machine: ServerConnectionMachine
    /// Plain TCP or TLS, between the socket and the machine.
    private let transport: ConnectionTransport
    /// The member the connection speaks for, once a call bound a session.
    var caller: Caller?
    /// The work of each call the machine has told us to run.
    private var work: [UInt32: CallWork] = [:]
    /// Write calls whose tasks have not finished (rule 3).
    private var writesInFlight = 0
    /// The tags of GET answers that follow the member's revision, by call, until they are answered.
    private var revalidations: [UInt32: Revalidated] = [:]
    /// Runs the tasks of this connection's writes on ``queue``.
    private let executor: DispatchTaskExecutor

    private var readSource: (any DispatchSourceRead)?
    private var writeSource: (any DispatchSourceWrite)?
    private var timer: (any DispatchSourceTimer)?
    private var readSuspended = false
    private var writeSuspended = true
    private var liveSources = 0
    private var isClosed = false

    /// The frame memory last added to the server's total (see ``ServerContext``).
    private var reportedFrameBytes = 0
    private let publishedFrameBytes = Atomic<Int>(0)
    /// Uptime nanoseconds since when the connection has been idle without a session; 0: it is not.
    private let publishedIdleSince = Atomic<UInt64>(0)
    private let publishedHasSession = Atomic<Bool>(false)
    private let shedding = Atomic<Bool>(false)

    /// The queue every connection's queue runs on: Dispatch's global one, about as wide as the cores.
    private static let sharedTarget = DispatchQueue.global(qos: .userInitiated)

    init(descriptor: Int32, peer: SocketAddress, context: ServerContext) {
        self.id = context.makeConnectionID()
        self.descriptor = descriptor
        self.peer = peer
        self.peerHost = peer.host
        self.context = context
        // A serial queue of its own is "overcommit": it may get a thread of its own whenever it
        // has work, and 64 busy connections ran on 257 threads switching on 2 cores. Targeting
        // Dispatch's global queue keeps the threads near the number of cores, and unlike a fixed
        // set of serial event loops, a handler that blocks (an export, a map resize) does not
        // hold up the connections that happen to share its loop: Dispatch adds a thread.
        self.queue = DispatchQueue(label: "workout.connection.\(id)", target: Self.sharedTarget)
        self.executor = DispatchTaskExecutor(queue: queue)
        self.machine = ServerConnectionMachine(
            limits: context.connectionLimits, methods: context.methods, httpRoutes: context.httpRoutes, now: Self.now())
        self.transport = ConnectionTransport(tls: context.configuration.tls)
        var logger = context.logger
        logger[metadataKey: "connection"] = "\(id)"
        logger[metadataKey: "peer"] = "\(peer)"
        self.logger = logger
    }

    /// The uptime clock the machine is told.
    static func now() -> ConnectionInstant {
        ConnectionInstant(nanoseconds: DispatchTime.now().uptimeNanoseconds)
    }

    /// Starts reading and the timer. Called once, after the connection was admitted.
    func start() {
        queue.async { [self] in
            let read = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            read.setEventHandler { [self] in readAvailable() }
            read.setCancelHandler { [self] in sourceCancelled() }
            let write = DispatchSource.makeWriteSource(fileDescriptor: descriptor, queue: queue)
            write.setEventHandler { [self] in flush() }
            write.setCancelHandler { [self] in sourceCancelled() }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.setEventHandler { [self] in
                perform(machine.tick(now: Self.now()))
                flush()
                // The timer fires on a quiet connection (a keepalive check, at the latest after
                // the PING interval), a Watch's included: it gives its TLS buffers back, which
                // the session refuses while a record is half in or ciphertext waits.
                if !isClosed { transport.releaseIdleBuffers() }
            }
            readSource = read
            writeSource = write
            self.timer = timer
            liveSources = 2
            read.resume()
            timer.resume()
            logger.info("connection opened")
            perform(machine.start(now: Self.now()))
        }
    }

    // MARK: Events in

    private func readAvailable() {
        var reads = 0
        while !isClosed && !readSuspended && reads < 8 {
            reads += 1
            let count: Int?
            do {
                count = try context.readBuffers.withBuffer { buffer -> Int? in
                    guard let count = try Socket.read(descriptor, into: buffer), count > 0 else { return 0 }
                    var delivered = false
                    try transport.received(UnsafeRawBufferPointer(rebasing: buffer[..<count]), scratch: buffer) { plaintext in
                        delivered = true
                        perform(machine.received(plaintext, now: Self.now()))
                    }
                    reportIncompleteRecord(delivered: delivered)
                    return count
                }
                // Reading may have made the transport answer (a TLS KeyUpdate): the machine
                // counts that backlog too, and pauses reading while it is too large.
                reportTransportBacklog()
            } catch let failure as TransportFailure {
                perform(machine.connectionLost(failure.message))
                return
            } catch {
                perform(machine.connectionLost("read failed: \(error)"))
                return
            }
            guard let count else { break }
            if count == 0 {
                perform(machine.connectionLost("the peer closed the connection"))
                return
            }
            if count < context.configuration.readChunkSize { break }
        }
        flush()
    }

    /// Writes what the socket takes of the machine's output; the rest waits for the write source.
    func flush() {
        while !isClosed, !machine.output.isEmpty || transport.hasPendingOutput {
            let progress: ConnectionTransport.Progress
            do {
                progress = try machine.output.withUnreadBytes { bytes in try transport.write(to: descriptor, bytes) }
            } catch {
                perform(machine.connectionLost("write failed: \(error)"))
                return
            }
            let backlog = transport.pendingOutputCount
            if progress.taken > 0 || backlog != machine.transportBacklog {
                perform(machine.wrote(progress.taken, transportBacklog: backlog, now: Self.now()))
            }
            if progress.blocked {
                if writeSuspended, let writeSource {
                    writeSuspended = false
                    writeSource.resume()
                }
                return
            }
            if progress.taken == 0 { break }
        }
        if !writeSuspended, !isClosed, let writeSource {
            writeSuspended = true
            writeSource.suspend()
        }
    }

    /// Tells the machine whether TLS holds part of a record, when that or its age changed:
    /// it began holding one, a record came whole while it still holds the next, it holds none.
    private func reportIncompleteRecord(delivered: Bool) {
        let holds = transport.holdsIncompleteRecord
        if !isClosed, holds != machine.transportHoldsIncompleteRecord || (holds && delivered) {
            perform(machine.transportRead(completedRecord: delivered, holdsIncompleteRecord: holds, now: Self.now()))
        }
    }

    /// Tells the machine what the transport holds for the socket, when that changed.
    private func reportTransportBacklog() {
        let backlog = transport.pendingOutputCount
        if !isClosed, backlog != machine.transportBacklog {
            perform(machine.wrote(0, transportBacklog: backlog, now: Self.now()))
        }
    }

    /// Starts a graceful end from any thread: GOAWAY, no new calls, close when calls finish.
    func drain(message: String) {
        queue.async { [self] in
            perform(machine.beginShutdown(message: message, now: Self.now()))
            flush()
        }
    }

    /// The memory the connection holds for frames (any thread; as of its last event).
    var heldFrameBytes: Int { publishedFrameBytes.load(ordering: .relaxed) }

    /// Since when (uptime nanoseconds) it has been idle without a session, if it is (any thread).
    var idleWithoutSessionSince: UInt64? {
        let since = publishedIdleSince.load(ordering: .relaxed)
        return since == 0 ? nil : since
    }

    /// Whether a call bound a session (any thread; as of its last event).
    var hasSession: Bool { publishedHasSession.load(ordering: .relaxed) }

    /// Whether the server has already decided to shed it.
    var isBeingShed: Bool { shedding.load(ordering: .relaxed) }

    /// Sheds the connection from any thread: GOAWAY RESOURCE_EXHAUSTED saying `message`, close.
    ///
    /// - Returns: `false` when another caller shed it first.
    func shed(_ message: String) -> Bool {
        guard shedding.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return false }
        queue.async { [self] in
            perform(machine.shed(message, now: Self.now()))
            flush()
        }
        return true
    }

    /// Closes from any thread (the end of the grace period).
    func closeNow() {
        queue.async { [self] in perform(machine.connectionLost("the server is stopping")) }
    }

    /// A call's work ended (on the queue).
    func callFinished(_ callID: UInt32, _ result: Result<HandlerOutcome, any Error>) {
        work.removeValue(forKey: callID)
        answer(callID, result)
    }

    /// Hands a call's outcome to the machine, applying a session it bound or ended (unless
    /// the call ended meanwhile: cancelled, timed out).
    private func answer(_ callID: UInt32, _ result: Result<HandlerOutcome, any Error>) {
        guard machine.isRunning(callID) else { return }
        switch result {
        case .success(.reply(let body)):
            perform(machine.callFinished(callID, .success(body), revalidated: revalidations.removeValue(forKey: callID), now: Self.now()))
        case .success(.bind(_, let body)) where !machine.loginBindsConnection:
            // Over HTTP a login answers its token; each request presents it (no binding).
            perform(machine.callFinished(callID, .success(body), now: Self.now()))
        case .success(.bind(let newCaller, let body)):
            if caller == nil { context.statistics.sessionChanged(authenticated: true) }
            caller = newCaller
            logger[metadataKey: "user"] = "\(newCaller.userID)"
            perform(machine.callFinished(callID, .success(body), session: .bound, now: Self.now()))
        case .success(.unbind(let body)):
            if caller != nil { context.statistics.sessionChanged(authenticated: false) }
            caller = nil
            perform(machine.callFinished(callID, .success(body), session: .ended, now: Self.now()))
        case .failure(let error):
            revalidations[callID] = nil
            let failure = CallFailure(error)
            if HouseholdStore.isLackOfSpace(error) {
                context.storageAlarm.writeRefused(error)
            } else if failure.status == .internal {
                logger.error("call failed: \(error)", metadata: ["call": "\(callID)"])
            } else {
                logger.info("call failed: \(failure.details.message)", metadata: ["call": "\(callID)", "status": "\(failure.status.name)"])
            }
            perform(machine.callFinished(callID, .failure(failure), now: Self.now()))
        }
    }

    /// Hands a stream's message to the machine (on the queue).
    func streamMessage(_ callID: UInt32, _ body: [UInt8]) {
        perform(machine.streamMessage(callID, body, now: Self.now()))
    }

    /// Whether a stream may send now.
    func canProduce(_ callID: UInt32) -> Bool { machine.canProduce(callID) }

    /// The largest stream message this client accepts.
    var peerMaxFrameSize: Int { machine.peerMaxFrameSize }

    // MARK: Actions out

    private func perform(_ actions: [ServerConnectionAction]) {
        defer { publishStanding() }
        for action in actions {
            switch action {
            case .run(let call):
                run(call)
            case .authenticate(let token):
                authenticate(token)
            case .stopWork(let callID):
                work.removeValue(forKey: callID)?.stop(on: self)
                revalidations[callID] = nil
            case .callEnded(let summary):
                // Numbers the server does not serve share one entry (0, "unknown"): a client
                // calling made-up methods must not grow Admin.Stats without bound.
                let method = context.methods[summary.method] == nil ? 0 : summary.method
                context.statistics.shard(forConnection: id).recordCall(
                    method: method, status: summary.status,
                    microseconds: summary.duration.wholeNanoseconds / 1_000)
            case .pauseReading:
                if !readSuspended, let readSource {
                    readSuspended = true
                    readSource.suspend()
                    logger.debug("reading paused: \(machine.output.count) bytes wait for the peer")
                }
            case .resumeReading:
                if readSuspended, let readSource {
                    readSuspended = false
                    readSource.resume()
                }
            case .resumeProducing:
                for callID in work.keys.sorted() { work[callID]?.produce(callID, on: self) }
            case .armTimer(let instant):
                timer?.schedule(deadline: DispatchTime(uptimeNanoseconds: instant.nanoseconds), leeway: .milliseconds(2))
            case .close(let log):
                close(log)
            }
        }
    }

    /// Publishes what the server weighs across connections, and adds the change in frame
    /// memory to the server's total (which may shed the connection holding the most).
    private func publishStanding() {
        let held = isClosed ? 0 : machine.heldFrameBytes
        publishedIdleSince.store(isClosed ? 0 : machine.idleWithoutSessionSince.map { max($0.nanoseconds, 1) } ?? 0, ordering: .relaxed)
        publishedHasSession.store(machine.hasSession, ordering: .relaxed)
        guard held != reportedFrameBytes else { return }
        publishedFrameBytes.store(held, ordering: .relaxed)
        let delta = held - reportedFrameBytes
        reportedFrameBytes = held
        context.incompleteFrameBytesChanged(by: delta)
    }

    private func run(_ call: ServerCallStart) {
        guard let (descriptor, handler) = context.router.route(call.method) else {
            // The machine knows only the router's methods; answer rather than leave a call hanging.
            answer(call.callID, .failure(CallFailure(.unimplemented, "this server has no method \(call.method)")))
            return
        }
        let caller = call.speaksForSession ? caller : nil
        if let refusal = CallAuthorization.refusal(descriptor, caller: caller) {
            answer(call.callID, .failure(refusal))
            return
        }
        if let revalidation = call.revalidation, let caller {
            // The revision is read before the answer is made (RevisionTag): an unchanged
            // answer costs this one read.
            do {
                let tag = RevisionTag.tag(seed: revalidation.seed, revision: try context.household.answerRevision(of: caller))
                if let tags = revalidation.ifNoneMatch, EntityTag.matches(tags, tag) {
                    perform(machine.callFinished(call.callID, .success([]), revalidated: Revalidated(entityTag: tag, unchanged: true), now: Self.now()))
                    return
                }
                revalidations[call.callID] = Revalidated(entityTag: tag, unchanged: false)
            } catch {
                answer(call.callID, .failure(error))
                return
            }
        }
        var requestContext = RequestContext(caller: caller, source: peerHost, agent: machine.clientAgent, maxResponseBytes: peerMaxFrameSize)
        requestContext.signature = call.signature
        let callID = call.callID
        switch handler {
        case .inline(let body):
            // No work to keep: the answer is ready before anything else can happen.
            answer(callID, Result { try body(requestContext, call.body) })
        case .write(let body):
            // The task's jobs run on this queue (its executor is the queue's), so the answer
            // is handled where it resumes. A lone write may have this thread commit its batch
            // when the writer is idle: no hop to the writer's thread and none back. Not when
            // other writes of this connection are in flight: holding the queue for one commit
            // would keep them from joining it, each paying a sync of its own.
            let request = call.body
            let alone = writesInFlight == 0
            writesInFlight += 1
            work[callID] = .task(Task(executorPreference: executor) { [self] in
                let result = await HouseholdStore.$commitsOnCallersThread.withValue(alone) {
                    await outcome { try await body(requestContext, request) }
                }
                dispatchPrecondition(condition: .onQueue(queue))
                writesInFlight -= 1
                callFinished(callID, result)
                flush()
            })
        case .slow(let body):
            let request = call.body
            work[callID] = .task(Task(executorPreference: DispatchTaskExecutor.slowCalls) { [self] in
                let result = await outcome { try await body(requestContext, request) }
                queue.async { [self] in
                    callFinished(callID, result)
                    flush()
                }
            })
        case .stream(let kind):
            startStream(kind, callID: callID, body: call.body, context: requestContext)
        }
    }

    /// Finds the session of an HTTP request's bearer token, as Auth.Resume does (sliding its
    /// expiry, once per connection), and tells the machine.
    private func authenticate(_ token: [UInt8]) {
        let household = context.household
        _ = Task(executorPreference: DispatchTaskExecutor.slowCalls) { [self] in
            let result: Result<Caller, CallFailure>
            do {
                var request = Workout_V1_ResumeRequest()
                request.sessionToken = Data(token)
                result = .success(try await household.resume(request).caller)
            } catch {
                let failure = CallFailure(error)
                result = .failure(failure.status == .invalidArgument
                    ? CallFailure(.unauthenticated, "the bearer token is not a token of this server") : failure)
            }
            queue.async { [self] in
                switch result {
                case .success(let newCaller):
                    if caller == nil { context.statistics.sessionChanged(authenticated: true) }
                    caller = newCaller
                    logger[metadataKey: "user"] = "\(newCaller.userID)"
                    perform(machine.authenticated(.success(newCaller.userID.bytes), now: Self.now()))
                case .failure(let failure):
                    if caller != nil { context.statistics.sessionChanged(authenticated: false) }
                    caller = nil
                    perform(machine.authenticated(.failure(failure), now: Self.now()))
                }
                flush()
            }
        }
    }

    /// What an async handler returned or threw.
    private func outcome(_ body: () async throws -> HandlerOutcome) async -> Result<HandlerOutcome, any Error> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    /// The work of a call in flight.
    func work(of callID: UInt32) -> CallWork? { work[callID] }

    /// Registers a stream's work (its producer), so that the machine's actions reach it.
    func adopt(_ callID: UInt32, _ callWork: CallWork) {
        work[callID] = callWork
    }

    private func close(_ reason: String) {
        guard !isClosed else { return }
        isClosed = true
        // Best effort: a GOAWAY or refusal saying why, if the socket takes it now.
        machine.output.withUnreadBytes { bytes in transport.writeLastWords(to: descriptor, bytes) }
        for callWork in work.values { callWork.stop(on: self) }
        work.removeAll()
        timer?.cancel()
        timer = nil
        if readSuspended { readSource?.resume(); readSuspended = false }
        if writeSuspended { writeSource?.resume(); writeSuspended = false }
        readSource?.cancel()
        writeSource?.cancel()
        context.remove(self)
        context.statistics.connectionClosed(wasAuthenticated: caller != nil)
        logger.info("connection closed: \(reason)")
    }

    private func sourceCancelled() {
        liveSources -= 1
        if liveSources == 0 {
            try? SystemCall.close(descriptor)
            readSource = nil
            writeSource = nil
        }
    }
}
