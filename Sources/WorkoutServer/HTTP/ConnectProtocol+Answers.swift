import HTTPTypes
import WorkoutProtocol

extension ConnectProtocol {
    /// Appends a unary call's answer: its message in `encoding`, never to be cached.
    static func writeUnaryAnswer(_ message: [UInt8], encoding: MessageTranscoder.Encoding, keepAlive: Bool, to bytes: inout [UInt8]) {
        var fields = HTTPFields()
        fields[.contentType] = encoding == .json ? "application/json" : "application/proto"
        fields[.cacheControl] = "no-store"
        HTTPResponseHead.write(.ok, fields, contentLength: message.count, keepAlive: keepAlive, to: &bytes)
        bytes.append(contentsOf: message)
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
        HTTPResponseHead.write(status ?? httpStatus(failure.status), fields, contentLength: body.count, keepAlive: keepAlive, to: &bytes)
        bytes.append(contentsOf: body)
    }

    /// Appends the head of a streaming call's answer: chunked, its messages enveloped.
    static func writeStreamHead(encoding: MessageTranscoder.Encoding, keepAlive: Bool, to bytes: inout [UInt8]) {
        var fields = HTTPFields()
        fields[.contentType] = encoding == .json ? "application/connect+json" : "application/connect+proto"
        fields[.cacheControl] = "no-store"
        HTTPResponseHead.write(.ok, fields, contentLength: nil, keepAlive: keepAlive, to: &bytes)
    }

    /// Appends one message of a stream: a chunk holding its envelope.
    static func writeStreamMessage(_ message: [UInt8], to bytes: inout [UInt8]) {
        var envelope: [UInt8] = []
        envelope.reserveCapacity(message.count + 5)
        appendEnvelope(message, endOfStream: false, to: &envelope)
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
