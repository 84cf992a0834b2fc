import HTTPTypes
import WorkoutProtocol

extension ConnectProtocol {
    /// Appends a unary call's answer: its message in `encoding`, never to be cached; in gzip
    /// when `gzip` (the client accepts it) and the message is large enough to gain from it.
    ///
    /// A GET's answer (`entityTag` given) may be kept by the member's own browser, which asks
    /// again each time (`private, no-cache`); every other answer is never to be stored.
    static func writeUnaryAnswer(
        _ message: [UInt8], encoding: MessageTranscoder.Encoding, gzip: Bool, entityTag: String? = nil, keepAlive: Bool, to bytes: inout [UInt8]
    ) {
        var fields = HTTPFields()
        fields[.contentType] = encoding == .json ? "application/json" : "application/proto"
        fields[.cacheControl] = entityTag == nil ? "no-store" : "private, no-cache"
        if let entityTag { fields[.eTag] = entityTag }
        fields[.vary] = "Accept-Encoding"
        var body = message
        if gzip, let compressed = compressedIfSmaller(message) {
            fields[.contentEncoding] = "gzip"
            // The tag is the uncompressed answer's: the gzip form's is weak (RFC 9110 8.8.1).
            if let entityTag { fields[.eTag] = "W/" + entityTag }
            body = compressed
        }
        HTTPResponseHead.write(.ok, fields, contentLength: body.count, keepAlive: keepAlive, to: &bytes)
        bytes.append(contentsOf: body)
    }

    /// Appends a GET's `304 Not Modified`: the member's stored answer is still the answer.
    static func writeNotModified(entityTag: String, keepAlive: Bool, to bytes: inout [UInt8]) {
        var fields = HTTPFields()
        fields[.cacheControl] = "private, no-cache"
        fields[.eTag] = entityTag
        fields[.vary] = "Accept-Encoding"
        HTTPResponseHead.writeNotModified(fields, keepAlive: keepAlive, to: &bytes)
    }

    /// `message` in gzip, when it is at least ``Compression/minimumBodySize`` long and its gzip
    /// is shorter; else `nil`.
    static func compressedIfSmaller(_ message: [UInt8]) -> [UInt8]? {
        guard message.count >= Compression.minimumBodySize else { return nil }
        let compressed = Compression.deflate(message, format: .gzip)
        return compressed.count < message.count ? compressed : nil
    }

    /// Appends a unary call's failure as Connect's JSON error, with the HTTP status of its code
    /// (or `status`, for a refusal of the face itself), `Retry-After` when the details carry a
    /// hint, and `Allow` for a 405.
    static func writeError(_ failure: CallFailure, keepAlive: Bool, status: HTTPResponse.Status? = nil, to bytes: inout [UInt8]) {
        let body = errorJSON(failure)
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        fields[.cacheControl] = "no-store"
        if failure.details.retryAfterMs > 0 {
            fields[.retryAfter] = String((failure.details.retryAfterMs + 999) / 1000)
        }
        if status == .methodNotAllowed { fields[.allow] = "POST" }
        // Connect: a coding the server does not take is answered with the ones it does.
        if status == .unsupportedMediaType { fields[.acceptEncoding] = "gzip" }
        HTTPResponseHead.write(status ?? httpStatus(failure.status), fields, contentLength: body.count, keepAlive: keepAlive, to: &bytes)
        bytes.append(contentsOf: body)
    }

    /// Appends the head of a streaming call's answer: chunked, its messages enveloped, and
    /// with `gzip` saying that a message's envelope may hold it in gzip.
    static func writeStreamHead(encoding: MessageTranscoder.Encoding, gzip: Bool, keepAlive: Bool, to bytes: inout [UInt8]) {
        var fields = HTTPFields()
        fields[.contentType] = encoding == .json ? "application/connect+json" : "application/connect+proto"
        fields[.cacheControl] = "no-store"
        if gzip { fields[streamContentEncodingField] = "gzip" }
        HTTPResponseHead.write(.ok, fields, contentLength: nil, keepAlive: keepAlive, to: &bytes)
    }

    /// Appends one message of a stream: a chunk holding its envelope, the message in gzip when
    /// `gzip` and it gains from it.
    static func writeStreamMessage(_ message: [UInt8], gzip: Bool, to bytes: inout [UInt8]) {
        let compressed = gzip ? compressedIfSmaller(message) : nil
        let body = compressed ?? message
        var envelope: [UInt8] = []
        envelope.reserveCapacity(body.count + 5)
        appendEnvelope(body, endOfStream: false, compressed: compressed != nil, to: &envelope)
        HTTPResponseHead.writeChunk(envelope, to: &bytes)
    }

    /// Appends a stream's end: the end envelope (`{}` or the error), then the last chunk.
    static func writeStreamEnd(_ failure: CallFailure?, to bytes: inout [UInt8]) {
        var envelope: [UInt8] = []
        appendEnvelope(endStreamJSON(failure), endOfStream: true, to: &envelope)
        HTTPResponseHead.writeChunk(envelope, to: &bytes)
        HTTPResponseHead.writeChunk([], to: &bytes)
    }
}
