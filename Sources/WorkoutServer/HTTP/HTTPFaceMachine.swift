import Crypto
import HTTPTypes
import WorkoutProtocol

/// The HTTP face's rules of a connection (PROTOCOL.md 25): HTTP/1.1 requests cut off by a
/// bounded ``HTTPRequestParser``, one in hand at a time (bytes of pipelined ones wait in the
/// parser); a bearer token resolved once per connection; the body's limit depending on it as
/// a frame's does on the session; keep-alive idle time and requests per connection; files
/// answered at once; calls answered in Connect's protocol (``ConnectProtocol``). The calls,
/// the output and the shared time limits are the ``ConnectionCore``'s, passed to every event.
struct HTTPFaceMachine: Sendable {
    /// Where the request in hand is.
    enum Stage: Sendable {
        /// Waiting for (the rest of) a request's head.
        case awaitingHead
        /// The head asked for a session by a bearer token the connection does not hold yet:
        /// the driver is finding it.
        case authenticating(HTTPRequestPlan)
        /// Reading the body.
        case readingBody(HTTPRequestPlan)
        /// The call runs as `callID`; `streaming` when the answer's head went out already
        /// (a stream's messages follow as chunks).
        case running(callID: UInt32, HTTPRequestPlan, streaming: Bool)
    }

    /// How a client gets a session on this face, for UNAUTHENTICATED's message.
    static let signIn = "send Authorization: Bearer and a session token (from \(MethodCatalog.login.descriptor.httpPath)) or a device token"

    /// Where paths lead.
    private let routes: HTTPRoutes
    /// Cuts requests off the bytes received.
    private var parser: HTTPRequestParser
    /// The request in hand.
    private(set) var stage = Stage.awaitingHead
    /// Requests answered on this connection.
    private var requestsServed = 0
    /// The bearer token whose session the connection holds (verified once per connection).
    private var sessionToken: [UInt8]?
    /// The member of that session.
    private var memberID: [UInt8]?
    /// Whether the face paused reading because pipelined bytes wait while a call runs.
    private(set) var holdsReading = false
    /// The call id the next call gets.
    private var nextCallID: UInt32 = 1

    /// The HTTP face of a connection, with the parser's bounds from `limits`.
    init(limits: ServerConnectionMachine.Limits, routes: HTTPRoutes) {
        self.routes = routes
        self.parser = HTTPRequestParser(maxHeadBytes: limits.maxHTTPHeadBytes, maxHeaderCount: limits.maxHTTPHeaderCount)
    }

    // MARK: - Queries

    /// The memory held for a request still arriving.
    var heldFrameBytes: Int { isReadingRequest ? parser.bufferCapacity : 0 }

    /// Whether part of a request has arrived and it is not whole yet.
    private var isReadingRequest: Bool {
        switch stage {
        case .awaitingHead: parser.bufferedByteCount > 0
        case .authenticating, .readingBody: true
        case .running: false
        }
    }

    /// Whether nothing is in hand: between requests.
    private var isIdle: Bool {
        if case .awaitingHead = stage { return parser.bufferedByteCount == 0 }
        return false
    }

    /// Whether a call runs.
    private var isRunning: Bool {
        if case .running = stage { return true }
        return false
    }

    /// The earliest moment a limit of this face may apply: a kept-alive connection's idle time.
    func nextWake(_ core: ConnectionCore) -> ConnectionInstant? {
        guard core.isServing, core.calls.isEmpty, core.hasSession else { return nil }
        return core.lastCallActivity + core.limits.httpIdleTimeout
    }

    // MARK: - Events

    /// Bytes arrived: parsed as far as they go.
    mutating func received(_ bytes: UnsafeRawBufferPointer, _ core: inout ConnectionCore, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) {
        // Nothing more is read once the answer that ends the connection is decided.
        if core.phase == .draining, !isRunning { return }
        parser.append(bytes)
        advance(&core, now: now, &actions)
    }

    /// A bearer token's session was found (`.success`, with the member's id) or not.
    mutating func authenticated(_ result: Result<[UInt8], CallFailure>, _ core: inout ConnectionCore, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) {
        guard core.isServing, case .authenticating(var plan) = stage else { return }
        switch result {
        case .success(let memberID):
            sessionToken = plan.token
            self.memberID = memberID
            plan.authorized = true
            stage = .readingBody(plan)
            core.hasSession = true
            advance(&core, now: now, &actions)
        case .failure(let failure):
            forgetSession()
            stage = .awaitingHead
            core.hasSession = false
            // The body was not read: answer, then close.
            refuse(ConnectProtocol.httpStatus(failure.status), failure, &core, &actions)
        }
    }

    /// A call's work ended: its answer, then the next request (a logout forgets the session;
    /// a login binds nothing: each request presents its token).
    mutating func callFinished(
        _ callID: UInt32, _ call: ConnectionCore.OpenCall, _ outcome: CallOutcome, session: SessionChange?,
        revalidated: Revalidated? = nil, _ core: inout ConnectionCore, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]
    ) {
        if session == .ended {
            core.hasSession = false
            forgetSession()
        }
        sendFinal(callID, call, outcome, revalidated: revalidated, &core, now: now, &actions)
        advance(&core, now: now, &actions)
    }

    /// A stream's message, as a chunk holding one envelope.
    mutating func streamMessage(
        _ callID: UInt32, _ call: ConnectionCore.OpenCall, _ body: [UInt8],
        _ core: inout ConnectionCore, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]
    ) {
        guard case .running(callID, let plan, true) = stage else { return }
        do {
            let message = plan.encoding == .json ? try plan.descriptor.transcoder.responseJSON(from: body) : body
            core.output.append { ConnectProtocol.writeStreamMessage(message, gzip: plan.answerGzip, to: &$0) }
        } catch {
            _ = core.removeCall(callID)
            actions.append(.stopWork(callID: callID))
            sendFinal(callID, call, .failure(CallFailure(.internal, "a stream message could not be written as JSON")), &core, now: now, &actions)
        }
    }

    /// The timer fired: the shared limits, keep-alive idleness, the calls' deadlines.
    mutating func tick(_ core: inout ConnectionCore, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) {
        guard core.isServing else { return }
        let limits = core.limits
        if let expired = core.expiredLimit(now: now, arriving: "the request", heldBytes: parser.bufferedByteCount) {
            if expired.isSlowReader {
                endWatches(.failure(expired.failure), &core, now: now, &actions)
                core.close(log: expired.log, &actions)
            } else {
                closeWithError(expired.failure.status, expired.failure.details.message, log: expired.log, &core, &actions)
            }
            return
        }
        if core.calls.isEmpty, isIdle, core.hasSession, now >= core.lastCallActivity + limits.httpIdleTimeout {
            core.close(log: "HTTP keep-alive idle for \(limits.httpIdleTimeout)", &actions)
            return
        }
        if isIdle, core.sessionlessIdleExpired(now: now) {
            core.close(log: "HTTP keep-alive idle without a session", &actions)
            return
        }
        for ended in core.takeExpiredCalls(now: now, &actions) {
            sendFinal(ended.callID, ended.call, ended.outcome, &core, now: now, &actions)
        }
        advance(&core, now: now, &actions)
    }

    /// A graceful end: Watches end UNAVAILABLE; a request not yet running is not started, one
    /// running finishes, saying close.
    mutating func beginShutdown(message: String, _ core: inout ConnectionCore, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) {
        guard core.phase == .open else { return }
        core.phase = .draining
        endWatches(.failure(CallFailure(.unavailable, message)), &core, now: now, &actions)
        if !isRunning { core.close(log: "closed while idle: \(message)", &actions) }
    }

    /// The server needs the connection's place: what the client waits for is answered
    /// RESOURCE_EXHAUSTED, then close.
    mutating func shed(_ message: String, _ core: inout ConnectionCore, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) {
        guard core.isServing else { return }
        endWatches(.failure(CallFailure(.resourceExhausted, message)), &core, now: now, &actions)
        closeWithError(.resourceExhausted, message, log: "shed: \(message)", &core, &actions)
    }

    // MARK: - Requests

    /// Reads what the parser holds as far as it goes: a head, its session, its body, its call.
    private mutating func advance(_ core: inout ConnectionCore, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) {
        while core.isServing {
            switch stage {
            case .awaitingHead:
                if core.phase == .draining { return }
                let head: HTTPRequestParser.Head?
                do {
                    head = try parser.nextHead()
                } catch {
                    refuse(error.status, CallFailure(ConnectProtocol.status(for: error.status), error.message), &core, &actions)
                    return
                }
                guard let head else {
                    if parser.bufferedByteCount == 0 {
                        core.incompleteFrameSince = nil
                    } else if core.incompleteFrameSince == nil {
                        core.incompleteFrameSince = now
                        core.lastCallActivity = now
                    }
                    return
                }
                if core.incompleteFrameSince == nil { core.incompleteFrameSince = now }
                core.lastCallActivity = now
                if let agent = head.request.headerFields[.userAgent] {
                    core.clientAgent = String(decoding: agent.utf8.prefix(128), as: UTF8.self)
                }
                var plan: HTTPRequestPlan
                do {
                    guard let planned = try planRequest(head, &core) else {
                        // A file answered at once; the next request may follow.
                        requestsServed += 1
                        core.incompleteFrameSince = nil
                        core.lastCallActivity = now
                        if !head.keepsAlive || requestsServed >= core.limits.maxHTTPRequestsPerConnection, core.phase == .open {
                            core.phase = .draining
                        }
                        continue
                    }
                    plan = planned
                } catch {
                    refuse(error.status, CallFailure(ConnectProtocol.status(for: error.status), error.message), &core, &actions)
                    return
                }
                if let token = plan.token, token == sessionToken {
                    plan.authorized = true
                    stage = .readingBody(plan)
                } else if let token = plan.token {
                    stage = .authenticating(plan)
                    actions.append(.authenticate(token: token))
                    return
                } else {
                    stage = .readingBody(plan)
                }
            case .authenticating:
                return
            case .readingBody(let plan):
                let limits = core.limits
                let limit = plan.authorized ? limits.maxFrameSize : min(limits.maxFrameSize, limits.maxFrameSizeWithoutSession)
                guard plan.contentLength <= limit else {
                    let hint = plan.authorized ? "" : " without a session (send Authorization: Bearer and a session token)"
                    refuse(.contentTooLarge, CallFailure(.resourceExhausted, "the body (\(plan.contentLength) bytes) is larger than \(limit) bytes, the limit\(hint)"), &core, &actions)
                    return
                }
                guard let body = parser.takeBody(plan.contentLength) else { return }
                parser.trim(keeping: limits.maxHTTPHeadBytes)
                core.incompleteFrameSince = parser.bufferedByteCount > 0 ? now : nil
                startCall(plan, body: body, limit: limit, &core, now: now, &actions)
            case .running:
                if parser.bufferedByteCount > core.limits.maxHTTPHeadBytes, !holdsReading {
                    holdsReading = true
                    actions.append(.pauseReading)
                }
                return
            }
        }
    }

    /// The checked plan of a call, `nil` when the request was for a file (answered here), or
    /// why it is refused.
    private func planRequest(_ head: HTTPRequestParser.Head, _ core: inout ConnectionCore) throws(HTTPRequestError) -> HTTPRequestPlan? {
        let request = head.request
        let target = request.path ?? "/"
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        switch routes.route(at: path) {
        case .method(let descriptor)?:
            return try ConnectProtocol.plan(head, for: descriptor)
        case .asset(let asset)?:
            guard request.method == .get || request.method == .head else {
                throw HTTPRequestError(.methodNotAllowed, "\(path.prefix(200)) takes GET, not \(request.method.rawValue.prefix(16))")
            }
            if request.headerFields[.contentLength].map({ $0 != "0" }) ?? false || request.headerFields[.transferEncoding] != nil {
                throw HTTPRequestError(.badRequest, "a GET carries no body")
            }
            answerAsset(asset, request: request, keepAlive: head.keepsAlive, &core)
            return nil
        case nil:
            throw HTTPRequestError(.notFound, "nothing at \(path.prefix(200)): methods are at POST /workout.v1.<Service>Service/<Method>, e.g. /workout.v1.MetaService/Health")
        }
    }

    /// Answers a file, with the headers that keep a page to itself: a strict
    /// Content-Security-Policy (its own scripts, styles and connections only, no inline script,
    /// no framing), no MIME sniffing, no referrer. The browser revalidates it on every load
    /// (`no-cache`) by its `ETag`: unchanged, the answer is `304 Not Modified` without a body;
    /// else the file, in gzip when the browser takes it.
    private func answerAsset(_ asset: StaticAsset, request: HTTPRequest, keepAlive: Bool, _ core: inout ConnectionCore) {
        if let tags = request.headerFields[.ifNoneMatch], EntityTag.matches(tags, asset.entityTag) {
            // What RFC 9110 (15.4.5) asks of a 304, no more: the browser keeps the stored
            // answer's other fields (its Content-Security-Policy among them).
            var fields = HTTPFields()
            fields[.cacheControl] = "no-cache"
            fields[.eTag] = asset.entityTag
            fields[.vary] = "Accept-Encoding"
            core.output.append { HTTPResponseHead.writeNotModified(fields, keepAlive: keepAlive, to: &$0) }
            return
        }
        var fields = HTTPFields()
        fields[.contentType] = asset.contentType
        fields[.cacheControl] = "no-cache"
        fields[.eTag] = asset.entityTag
        fields[.vary] = "Accept-Encoding"
        fields[.contentSecurityPolicy] = ConnectProtocol.contentSecurityPolicy
        fields[.xContentTypeOptions] = "nosniff"
        fields[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        var body = asset.body
        if let gzipped = asset.gzipped, ConnectProtocol.acceptsGzip(request.headerFields[.acceptEncoding]) {
            fields[.contentEncoding] = "gzip"
            // The tag is the file's: the gzip form's is weak (RFC 9110 8.8.1).
            fields[.eTag] = "W/" + asset.entityTag
            body = gzipped
        }
        let headOnly = request.method == .head
        core.output.append {
            HTTPResponseHead.write(.ok, fields, contentLength: body.count, keepAlive: keepAlive, to: &$0)
            if !headOnly { $0.append(contentsOf: body) }
        }
    }


    /// Runs a request whose body arrived (inflating to at most `limit` bytes), or answers why
    /// not (keeping the connection).
    private mutating func startCall(
        _ plan: HTTPRequestPlan, body: [UInt8], limit: Int, _ core: inout ConnectionCore, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]
    ) {
        let descriptor = plan.descriptor
        let callID = nextCallID
        nextCallID &+= 1
        stage = .running(callID: callID, plan, streaming: false)
        func answerAtOnce(_ failure: CallFailure, _ core: inout ConnectionCore, _ actions: inout [ServerConnectionAction]) {
            let call = ConnectionCore.OpenCall(
                method: descriptor.number, isStream: false, isWatch: false, startedAt: now, deadline: nil, budgetMilliseconds: 0)
            sendFinal(callID, call, .failure(failure), &core, now: now, &actions)
        }
        guard core.phase == .open else {
            answerAtOnce(CallFailure(.unavailable, "the server is shutting down; try again in a moment"), &core, &actions)
            return
        }
        if !plan.authorized, let refusal = CallAuthorization.refusal(descriptor, caller: nil, signIn: Self.signIn) {
            answerAtOnce(refusal, &core, &actions)
            return
        }
        if plan.timeoutMilliseconds == 0 {
            answerAtOnce(CallFailure(.deadlineExceeded, "the call's deadline (Connect-Timeout-Ms: 0) had passed when it arrived"), &core, &actions)
            return
        }
        let request: [UInt8]
        do {
            let message = try ConnectProtocol.decodedBody(body, for: plan, limit: limit)
            let ids = plan.authorized ? RecordIDSource(memberID: memberID ?? [], method: descriptor.number, idempotencyKey: plan.idempotencyKey) : nil
            request = try descriptor.transcoder.request(from: message, encoding: plan.encoding, assigningIDsFrom: ids)
        } catch let failure as CallFailure {
            answerAtOnce(failure, &core, &actions)
            return
        } catch {
            answerAtOnce(CallFailure(.invalidArgument, "\(error)"), &core, &actions)
            return
        }
        core.openCall(callID, descriptor, deadlineMilliseconds: plan.timeoutMilliseconds, now: now)
        stage = .running(callID: callID, plan, streaming: descriptor.isServerStreaming)
        if descriptor.isServerStreaming {
            core.output.append { ConnectProtocol.writeStreamHead(encoding: plan.encoding, gzip: plan.answerGzip, keepAlive: plan.keepAlive, to: &$0) }
        }
        var start = ServerCallStart(callID: callID, method: descriptor.number, body: request)
        start.speaksForSession = plan.authorized
        start.signature = plan.signature
        if plan.queryMessage != nil, plan.authorized, RevisionTag.methods.contains(descriptor.number) {
            start.revalidation = Revalidation(
                seed: RevisionTag.seed(member: memberID ?? [], method: descriptor.number, json: plan.encoding == .json, content: request),
                ifNoneMatch: plan.ifNoneMatch)
        }
        actions.append(.run(start))
    }

    /// The answer that ends the call in hand: a unary response (its body, or Connect's JSON
    /// error with its HTTP status), or a stream's end message and last chunk.
    private mutating func sendFinal(
        _ callID: UInt32, _ call: ConnectionCore.OpenCall, _ outcome: CallOutcome, revalidated: Revalidated? = nil,
        _ core: inout ConnectionCore, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]
    ) {
        guard case .running(callID, let plan, let streaming) = stage else { return }
        requestsServed += 1
        var keepAlive = plan.keepAlive && core.phase == .open && requestsServed < core.limits.maxHTTPRequestsPerConnection
        // A request that presented the connection's session token and is answered
        // UNAUTHENTICATED found its session ended (revoked, expired, its member removed) or its
        // signature wrong. As for a token the server does not know, the connection closes after
        // the 401: one rule for a 401 to a request with a bearer token (PROTOCOL.md 25.3).
        if case .failure(let failure) = outcome, failure.status == .unauthenticated, plan.authorized {
            keepAlive = false
            forgetSession()
        }
        var status = StatusCode.ok
        if streaming {
            var failure: CallFailure?
            if case .failure(let error) = outcome { failure = error }
            status = failure?.status ?? .ok
            core.output.append { ConnectProtocol.writeStreamEnd(failure, to: &$0) }
        } else {
            switch outcome {
            case .success where revalidated?.unchanged == true && plan.queryMessage != nil:
                // The member's revision says the request holds the answer: no query ran.
                let tag = revalidated!.entityTag
                core.output.append { ConnectProtocol.writeNotModified(entityTag: tag, keepAlive: keepAlive, to: &$0) }
            case .success(let body):
                do {
                    let answer = plan.encoding == .json ? try plan.descriptor.transcoder.responseJSON(from: body) : body
                    if plan.queryMessage != nil {
                        let tag = revalidated?.entityTag ?? entityTag(of: answer, plan)
                        if let tags = plan.ifNoneMatch, EntityTag.matches(tags, tag) {
                            core.output.append { ConnectProtocol.writeNotModified(entityTag: tag, keepAlive: keepAlive, to: &$0) }
                        } else {
                            core.output.append {
                                ConnectProtocol.writeUnaryAnswer(answer, encoding: plan.encoding, gzip: plan.answerGzip, entityTag: tag, keepAlive: keepAlive, to: &$0)
                            }
                        }
                    } else {
                        core.output.append { ConnectProtocol.writeUnaryAnswer(answer, encoding: plan.encoding, gzip: plan.answerGzip, keepAlive: keepAlive, to: &$0) }
                    }
                } catch {
                    status = .internal
                    let failure = CallFailure(.internal, "the answer could not be written as JSON")
                    core.output.append { ConnectProtocol.writeError(failure, keepAlive: keepAlive, to: &$0) }
                }
            case .failure(let failure):
                status = failure.status
                core.output.append { ConnectProtocol.writeError(failure, keepAlive: keepAlive, to: &$0) }
            }
        }
        stage = .awaitingHead
        let resume = holdsReading
        holdsReading = false
        if resume, !core.isBackedUp { actions.append(.resumeReading) }
        if !keepAlive, core.phase == .open { core.phase = .draining }
        core.lastCallActivity = now
        actions.append(.callEnded(ServerCallSummary(callID: callID, method: call.method, status: status, duration: now.since(call.startedAt))))
    }

    /// A GET's answer's strong entity tag: the first 16 bytes of SHA-256 over the member, the
    /// method, the encoding and the answer, in hex, quoted. The answer is computed anew for
    /// each GET, so a tag never outlives the data it stands for; the member is in it, so one
    /// member's tag never matches another's answer.
    private func entityTag(of answer: [UInt8], _ plan: HTTPRequestPlan) -> String {
        let seed = RevisionTag.seed(member: memberID ?? [], method: plan.descriptor.number, json: plan.encoding == .json, content: answer)
        return EntityTag.quoted(SHA256.hash(data: seed))
    }

    /// Ends every open Watch with `outcome`.
    private mutating func endWatches(_ outcome: CallOutcome, _ core: inout ConnectionCore, now: ConnectionInstant, _ actions: inout [ServerConnectionAction]) {
        for ended in core.takeWatches(outcome, &actions) {
            sendFinal(ended.callID, ended.call, ended.outcome, &core, now: now, &actions)
        }
    }

    /// Refuses the request in hand before it ran (its body may be unread): the answer, then
    /// the connection ends once it is written.
    private mutating func refuse(_ status: HTTPResponse.Status, _ failure: CallFailure, _ core: inout ConnectionCore, _ actions: inout [ServerConnectionAction]) {
        core.output.append { ConnectProtocol.writeError(failure, keepAlive: false, status: status, to: &$0) }
        stage = .awaitingHead
        requestsServed += 1
        core.incompleteFrameSince = nil
        actions.append(.callEnded(ServerCallSummary(callID: 0, method: 0, status: failure.status, duration: .zero)))
        if core.phase == .open { core.phase = .draining }
    }

    /// A connection error: what the client waits for hears it (a request timing out hears
    /// 408, a stream its end), then close.
    private func closeWithError(_ status: StatusCode, _ message: String, log: String, _ core: inout ConnectionCore, _ actions: inout [ServerConnectionAction]) {
        let failure = CallFailure(status, message)
        switch stage {
        case .running(_, _, streaming: true):
            core.output.append { ConnectProtocol.writeStreamEnd(failure, to: &$0) }
        case .running:
            core.output.append { ConnectProtocol.writeError(failure, keepAlive: false, to: &$0) }
        case .awaitingHead where parser.bufferedByteCount == 0:
            break
        case .awaitingHead, .authenticating, .readingBody:
            let httpStatus: HTTPResponse.Status? = failure.status == .deadlineExceeded ? .requestTimeout : nil
            core.output.append { ConnectProtocol.writeError(failure, keepAlive: false, status: httpStatus, to: &$0) }
        }
        core.close(log: log, &actions)
    }

    /// The session ended (logout, account deleted, a 401): later requests authenticate again.
    private mutating func forgetSession() {
        sessionToken = nil
        memberID = nil
    }
}
