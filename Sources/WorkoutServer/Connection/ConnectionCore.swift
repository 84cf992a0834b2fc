import WorkoutProtocol

/// What both faces of a server connection share, and nothing either face alone decides: the
/// connection's phase, the output the peer has not taken, the calls in flight with their
/// deadlines, backpressure, the time limits that apply to any bytes (a frame or request
/// arriving whole, a TLS record arriving whole, a slow reader, a connection without a session),
/// the timer, and closing.
///
/// A face (``BinaryFaceMachine``, ``HTTPFaceMachine``) reads bytes and writes answers through
/// it; the core asks the face only when its next own time limit falls (``settle(now:faceWake:_:)``)
/// and tells it which shared limit ran out (``expiredLimit(now:)``), so that the face says it
/// in its own words.
struct ConnectionCore: Sendable {
    /// A call the driver is running.
    struct OpenCall: Sendable {
        /// The method's number.
        let method: UInt32
        /// Whether it streams its answer.
        let isStream: Bool
        /// A Watch: resumable, so it ends OK at the stream duration limit and with the session.
        let isWatch: Bool
        /// When its request arrived.
        let startedAt: ConnectionInstant
        /// When its deadline passes, if it has one.
        let deadline: ConnectionInstant?
        /// The deadline's budget as the client sent it, for the message.
        let budgetMilliseconds: UInt32
    }

    /// A call the core ended by itself: its deadline passed, or a Watch reached its duration.
    struct EndedCall: Sendable {
        /// The call's id.
        let callID: UInt32
        /// The call.
        let call: OpenCall
        /// The outcome its final answer carries.
        let outcome: CallOutcome
    }

    /// A time limit of the shared parts that ran out, and what the face says of it.
    struct ExpiredLimit: Sendable {
        /// Why the connection ends.
        let failure: CallFailure
        /// The log line.
        let log: String
        /// A slow reader: its Watches end with `failure`, and the connection closes without a
        /// word (the peer reads nothing more); otherwise the face says `failure` and closes.
        let isSlowReader: Bool
    }

    /// The rules' settings.
    let limits: ServerConnectionMachine.Limits
    /// Where the connection is.
    var phase = ServerConnectionMachine.Phase.awaitingPreface
    /// What the peer should receive and the socket has not taken yet.
    var output = OutputBuffer()
    /// Whether a call (binary) or a bearer token (HTTP) has bound a session to the connection.
    var hasSession = false
    /// The client software its HELLO named, or the last request's `User-Agent`.
    var clientAgent = ""
    /// The calls in flight.
    private(set) var calls: [UInt32: OpenCall] = [:]
    /// When the connection was accepted.
    let openedAt: ConnectionInstant
    /// The last request, cancel or final answer: what idle timeouts count from.
    var lastCallActivity: ConnectionInstant
    /// Bytes the transport holds for the socket that are no longer in ``output``.
    private(set) var transportBacklog = 0
    /// Since when the frame or request in hand has been arriving.
    var incompleteFrameSince: ConnectionInstant?
    /// Since when the output or the transport's backlog has been full (reading and producing paused).
    private(set) var backedUpSince: ConnectionInstant?
    /// Since when the transport has held part of a TLS record that has not arrived whole.
    private(set) var incompleteRecordSince: ConnectionInstant?
    /// The earliest call deadline or stream end, possibly stale (earlier than the truth).
    private var earliestCallTimer: ConnectionInstant?
    /// When the driver's timer is set to fire.
    private var armedAt: ConnectionInstant?

    /// The method that streams changes live (ends OK at the duration limit, with the session).
    private static let watchMethod = MethodCatalog.watch.descriptor.number

    /// The shared parts of a connection accepted at `now`.
    init(limits: ServerConnectionMachine.Limits, now: ConnectionInstant) {
        self.limits = limits
        self.openedAt = now
        self.lastCallActivity = now
    }

    // MARK: - Queries

    /// Whether calls are served or finishing (the handshake is done and the connection is not closed).
    var isServing: Bool { phase == .open || phase == .draining }

    /// Whether reading and producing are paused for a full output or transport backlog.
    var isBackedUp: Bool { backedUpSince != nil }

    /// Whether a stream's producer may send now: the call is open and the output has room.
    func canProduce(_ callID: UInt32) -> Bool {
        backedUpSince == nil && calls[callID] != nil && isServing
    }

    /// Since when the connection has been without a session and without calls, or `nil` when
    /// it has either (or is closed or draining).
    var idleWithoutSessionSince: ConnectionInstant? {
        guard phase != .closed, phase != .draining, !hasSession, calls.isEmpty else { return nil }
        return lastCallActivity
    }

    /// Whether the transport holds part of a TLS record.
    var transportHoldsIncompleteRecord: Bool { incompleteRecordSince != nil }

    // MARK: - Calls

    /// Keeps a call the driver is told to run, with its deadline (and a Watch's duration) on the timer.
    mutating func openCall(_ callID: UInt32, _ descriptor: MethodDescriptor, deadlineMilliseconds: UInt32?, now: ConnectionInstant) {
        let call = OpenCall(
            method: descriptor.number, isStream: descriptor.isServerStreaming, isWatch: descriptor.number == Self.watchMethod,
            startedAt: now, deadline: deadlineMilliseconds.map { now + .milliseconds(Int64($0)) },
            budgetMilliseconds: deadlineMilliseconds ?? 0)
        calls[callID] = call
        if let end = timerOf(call) { earliestCallTimer = min(earliestCallTimer ?? end, end) }
    }

    /// The call `callID`, no longer in flight; `nil` when it was not.
    mutating func removeCall(_ callID: UInt32) -> OpenCall? {
        calls.removeValue(forKey: callID)
    }

    /// The call `callID`, if it is in flight.
    func call(_ callID: UInt32) -> OpenCall? { calls[callID] }

    /// Whether a stream is in flight.
    var hasStreams: Bool { calls.values.contains(where: \.isStream) }

    /// Ends calls past their deadline (DEADLINE_EXCEEDED) and Watches past the stream duration
    /// (OK: the client resumes), telling the driver to stop their work; the face sends their answers.
    mutating func takeExpiredCalls(now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) -> [EndedCall] {
        guard let earliest = earliestCallTimer, earliest <= now else { return [] }
        earliestCallTimer = nil
        var ended: [EndedCall] = []
        for (callID, call) in calls.sorted(by: { $0.key < $1.key }) {
            if let deadline = call.deadline, deadline <= now {
                calls[callID] = nil
                actions.append(.stopWork(callID: callID))
                let failure = CallFailure(.deadlineExceeded, "the call did not finish within its deadline of \(call.budgetMilliseconds) ms")
                ended.append(EndedCall(callID: callID, call: call, outcome: .failure(failure)))
            } else if call.isWatch, now >= call.startedAt + limits.maxStreamDuration {
                calls[callID] = nil
                actions.append(.stopWork(callID: callID))
                ended.append(EndedCall(callID: callID, call: call, outcome: .success([])))
            } else if let end = timerOf(call) {
                earliestCallTimer = min(earliestCallTimer ?? end, end)
            }
        }
        return ended
    }

    /// Ends every open Watch with `outcome`, telling the driver to stop their work; the face
    /// sends their answers.
    mutating func takeWatches(_ outcome: CallOutcome, _ actions: inout [ServerConnectionAction]) -> [EndedCall] {
        var ended: [EndedCall] = []
        for (callID, call) in calls.sorted(by: { $0.key < $1.key }) where call.isWatch {
            calls[callID] = nil
            actions.append(.stopWork(callID: callID))
            ended.append(EndedCall(callID: callID, call: call, outcome: outcome))
        }
        return ended
    }

    /// When a call's own timer runs out: its deadline, or a Watch's duration limit.
    private func timerOf(_ call: OpenCall) -> ConnectionInstant? {
        let streamEnd = call.isWatch ? call.startedAt + limits.maxStreamDuration : nil
        switch (call.deadline, streamEnd) {
        case let (deadline?, end?): return min(deadline, end)
        case let (deadline?, nil): return deadline
        case let (nil, end): return end
        }
    }

    // MARK: - Transport

    /// The transport took what the socket read; see ``ServerConnectionMachine/transportRead(completedRecord:holdsIncompleteRecord:now:)``.
    mutating func transportRead(completedRecord: Bool, holdsIncompleteRecord: Bool, now: ConnectionInstant) {
        if !holdsIncompleteRecord {
            incompleteRecordSince = nil
        } else if completedRecord || incompleteRecordSince == nil {
            incompleteRecordSince = now
        }
    }

    /// The transport took `count` bytes of the output and holds `transportBacklog`; when both
    /// are down to half after a pause, reading resumes (unless the face holds it) and so do
    /// the streams.
    mutating func wrote(_ count: Int, transportBacklog: Int, faceHoldsReading: Bool, _ actions: inout [ServerConnectionAction]) {
        output.consume(count)
        self.transportBacklog = transportBacklog
        if backedUpSince != nil, output.count <= limits.maxBufferedOutput / 2,
            transportBacklog <= limits.maxTransportBacklog / 2
        {
            backedUpSince = nil
            if !faceHoldsReading { actions.append(.resumeReading) }
            if hasStreams { actions.append(.resumeProducing) }
        }
    }

    // MARK: - Time

    /// The shared limit that ran out by `now`, if one did; `arriving` names what a face reads
    /// ("a frame", "the request") and `heldBytes` how much of it the face holds.
    func expiredLimit(now: ConnectionInstant, arriving: String, heldBytes: Int) -> ExpiredLimit? {
        if let backedUpSince, now >= backedUpSince + limits.slowReaderTimeout {
            return ExpiredLimit(
                failure: CallFailure(.resourceExhausted, "the client reads too slowly"),
                log: "dropping a slow reader: \(output.count + transportBacklog) bytes unread for \(limits.slowReaderTimeout)",
                isSlowReader: true)
        }
        if let since = incompleteRecordSince, now >= since + limits.frameTimeout {
            return ExpiredLimit(
                failure: CallFailure(.deadlineExceeded, "a TLS record did not arrive whole within \(limits.frameTimeout)"),
                log: "incomplete TLS record timed out", isSlowReader: false)
        }
        if let since = incompleteFrameSince, now >= since + limits.frameTimeout {
            return ExpiredLimit(
                failure: CallFailure(.deadlineExceeded, "\(arriving) did not arrive whole within \(limits.frameTimeout)"),
                log: "\(arriving) timed out before it arrived whole: \(heldBytes) bytes held", isSlowReader: false)
        }
        return nil
    }

    /// Whether the connection has been without a session and without calls for
    /// `sessionlessIdleTimeout` by `now`.
    func sessionlessIdleExpired(now: ConnectionInstant) -> Bool {
        idleWithoutSessionSince.map { now >= $0 + limits.sessionlessIdleTimeout } ?? false
    }

    /// After every event: backpressure, the end of draining, and the timer (the face's own
    /// next limit is `faceWake`; during the handshake it is the only one).
    mutating func settle(now: ConnectionInstant, faceWake: ConnectionInstant?, _ actions: inout [ServerConnectionAction]) {
        guard phase != .closed else { return }
        if backedUpSince == nil, output.count >= limits.maxBufferedOutput || transportBacklog > limits.maxTransportBacklog {
            backedUpSince = now
            actions.append(.pauseReading)
        }
        if phase == .draining, calls.isEmpty, output.isEmpty, transportBacklog == 0 {
            close(log: "drained", &actions)
            return
        }
        var next = faceWake
        if isServing {
            func consider(_ instant: ConnectionInstant?) {
                guard let instant else { return }
                next = min(next ?? instant, instant)
            }
            consider(backedUpSince.map { $0 + limits.slowReaderTimeout })
            consider(incompleteRecordSince.map { $0 + limits.frameTimeout })
            consider(incompleteFrameSince.map { $0 + limits.frameTimeout })
            consider(idleWithoutSessionSince.map { $0 + limits.sessionlessIdleTimeout })
            consider(earliestCallTimer)
        }
        if let next, armedAt.map({ next < $0 }) ?? true {
            armedAt = next
            actions.append(.armTimer(next))
        }
    }

    /// The timer fired: it is no longer set.
    mutating func timerFired() {
        armedAt = nil
    }

    // MARK: - Closing

    /// Closes: every call's work stops; the driver writes what the output holds and closes.
    mutating func close(log: String, _ actions: inout [ServerConnectionAction]) {
        guard phase != .closed else { return }
        phase = .closed
        for callID in calls.keys.sorted() { actions.append(.stopWork(callID: callID)) }
        calls.removeAll()
        actions.append(.close(log: log))
    }
}
