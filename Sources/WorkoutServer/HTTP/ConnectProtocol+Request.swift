import HTTPTypes
import WorkoutProtocol

extension ConnectProtocol {
    /// The checked plan of a request for `descriptor` (Connect's unary or server-streaming
    /// call): its encoding from `Content-Type`, its body's length, its timeout, its bearer
    /// token, `Idempotency-Key` and `X-Signature`.
    ///
    /// - Throws: ``HTTPRequestError`` naming what is wrong, with the HTTP status that says it.
    static func plan(_ head: HTTPRequestParser.Head, for descriptor: MethodDescriptor) throws(HTTPRequestError) -> HTTPRequestPlan {
        let request = head.request
        guard request.method == .post else {
            throw HTTPRequestError(.methodNotAllowed, "\(descriptor.httpPath) takes POST, not \(request.method.rawValue.prefix(16))")
        }
        let fields = request.headerFields
        let contentType = fields[.contentType]
        // An upload of a file of its own format takes any Content-Type and answers JSON.
        let encoding = descriptor.requestType == MethodDescriptor.anyBody ? .json
            : descriptor.isServerStreaming ? streamingEncoding(contentType) : unaryEncoding(contentType)
        guard let encoding else {
            let wanted = descriptor.isServerStreaming ? "application/connect+json or application/connect+proto" : "application/json or application/proto"
            throw HTTPRequestError(.unsupportedMediaType, "\(descriptor.name) takes Content-Type \(wanted), not \(contentType.map { String($0.prefix(64)) } ?? "none")")
        }
        let contentLength = try bodyLength(fields)
        if let contentEncoding = fields[.contentEncoding], contentEncoding.lowercased() != "identity" {
            throw HTTPRequestError(.unsupportedMediaType, "compressed request bodies (Content-Encoding \(contentEncoding.prefix(32))) are not accepted")
        }
        let timeout = try timeoutMilliseconds(fields[timeoutField])
        var token: [UInt8]?
        if let authorization = fields[.authorization] {
            token = try BearerToken.parse(authorization)
        }
        var idempotencyKey: String?
        if let key = fields[idempotencyKeyField] {
            guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw HTTPRequestError(.badRequest, "Idempotency-Key must be 1 to 255 visible ASCII characters")
            }
            idempotencyKey = key
        }
        var signature: String?
        if let value = fields[signatureField] {
            guard (1...128).contains(value.utf8.count), value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw HTTPRequestError(.badRequest, "X-Signature must be sha256= and 64 hex digits")
            }
            signature = value
        }
        return HTTPRequestPlan(
            descriptor: descriptor, encoding: encoding, contentLength: contentLength, timeoutMilliseconds: timeout,
            keepAlive: head.keepsAlive, token: token, idempotencyKey: idempotencyKey, signature: signature)
    }

    /// The body's length from `Content-Length` (given once, or twice alike); chunked bodies
    /// are refused.
    private static func bodyLength(_ fields: HTTPFields) throws(HTTPRequestError) -> Int {
        if fields[.transferEncoding] != nil {
            throw HTTPRequestError(.lengthRequired, "chunked request bodies are not accepted: send the body with Content-Length")
        }
        let lengths = fields[values: .contentLength]
        guard lengths.count <= 1 || Set(lengths).count == 1 else {
            throw HTTPRequestError(.badRequest, "Content-Length is given twice with different values")
        }
        guard let lengthText = lengths.first else {
            throw HTTPRequestError(.lengthRequired, "a POST needs Content-Length (send {} for an empty message)")
        }
        guard (1...12).contains(lengthText.utf8.count), lengthText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let contentLength = Int(lengthText) else {
            throw HTTPRequestError(.badRequest, "Content-Length must be a whole number of bytes")
        }
        return contentLength
    }

    /// The message a request's body holds: the body itself for a unary call, the one
    /// envelope's message for a streaming call.
    ///
    /// - Throws: ``HTTPRequestError`` when a streaming body is not exactly one envelope.
    static func requestMessage(_ body: [UInt8], for plan: HTTPRequestPlan) throws(HTTPRequestError) -> [UInt8] {
        plan.descriptor.isServerStreaming ? try streamingRequestMessage(body) : body
    }
}
