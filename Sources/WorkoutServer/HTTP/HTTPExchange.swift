import WorkoutProtocol

/// What the connection machine keeps of its HTTP face: the parser, the request in hand and
/// the session a bearer token bound. HTTP/1.1 answers requests in order, so one request is in
/// hand at a time; bytes of the next (pipelined) wait in the parser.
struct HTTPExchange: Sendable {
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

    /// Cuts requests off the bytes received.
    var parser: HTTPRequestParser
    /// The request in hand.
    var stage = Stage.awaitingHead
    /// Requests answered on this connection.
    var requestsServed = 0
    /// The bearer token whose session the connection holds (verified once per connection).
    var sessionToken: [UInt8]?
    /// The member of that session.
    var memberID: [UInt8]?
    /// Whether the machine paused reading because pipelined bytes wait while a call runs.
    var holdsReading = false
    /// The call id the next call gets.
    var nextCallID: UInt32 = 1

    init(parser: HTTPRequestParser) {
        self.parser = parser
    }

    /// Whether part of a request has arrived and it is not whole yet.
    var isReadingRequest: Bool {
        switch stage {
        case .awaitingHead: parser.bufferedByteCount > 0
        case .authenticating, .readingBody: true
        case .running: false
        }
    }

    /// Whether nothing is in hand: between requests.
    var isIdle: Bool {
        if case .awaitingHead = stage { return parser.bufferedByteCount == 0 }
        return false
    }

    /// Whether a call runs.
    var isRunning: Bool {
        if case .running = stage { return true }
        return false
    }

    /// The session ended (logout, account deleted): later requests authenticate again.
    mutating func forgetSession() {
        sessionToken = nil
        memberID = nil
    }
}

/// What the head of a request asked for, checked.
struct HTTPRequestPlan: Sendable {
    /// The method.
    var descriptor: MethodDescriptor
    /// The body's encoding (and the answer's).
    var encoding: MessageTranscoder.Encoding
    /// The body's length.
    var contentLength: Int
    /// `Connect-Timeout-Ms`.
    var timeoutMilliseconds: UInt32?
    /// Whether the client keeps the connection.
    var keepAlive: Bool
    /// The bearer token, if the request carried one.
    var token: [UInt8]?
    /// Whether the token is the one whose session the connection holds.
    var authorized = false
    /// `Idempotency-Key`.
    var idempotencyKey: String?
    /// `X-Signature`: what a phone bridge signs its posts with (the ingest endpoints check it).
    var signature: String?
}
