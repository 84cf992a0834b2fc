import WorkoutProtocol

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
    /// Whether the body (a unary call's, from `Content-Encoding`) or the envelope's message
    /// (a stream's, from `Connect-Content-Encoding`, when its flag says so) is gzip.
    var requestGzip = false
    /// Whether the answer may be gzip (`Accept-Encoding`, or a stream's `Connect-Accept-Encoding`).
    var answerGzip = false
    /// Connect's GET form: the request message from the query (still compressed when
    /// `requestGzip`); `nil` for a POST.
    var queryMessage: [UInt8]?
    /// A GET's `If-None-Match`.
    var ifNoneMatch: String?
}
