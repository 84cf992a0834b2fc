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
        // Connect: a unary body's coding is Content-Encoding, a stream's messages' is
        // Connect-Content-Encoding (each envelope's flag says whether it is compressed).
        let requestCoding = descriptor.isServerStreaming ? fields[streamContentEncodingField] : fields[.contentEncoding]
        let requestGzip = try isGzip(requestCoding, field: descriptor.isServerStreaming ? "Connect-Content-Encoding" : "Content-Encoding")
        let acceptCoding = descriptor.isServerStreaming ? fields[streamAcceptEncodingField] : fields[.acceptEncoding]
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
            keepAlive: head.keepsAlive, token: token, idempotencyKey: idempotencyKey, signature: signature,
            requestGzip: requestGzip, answerGzip: acceptsGzip(acceptCoding))
    }

    /// `Connect-Content-Encoding`: a stream's messages' coding.
    static let streamContentEncodingField = HTTPField.Name("Connect-Content-Encoding")!
    /// `Connect-Accept-Encoding`: the codings a stream's answer may use.
    static let streamAcceptEncodingField = HTTPField.Name("Connect-Accept-Encoding")!

    /// Whether a request's coding is gzip (`identity`, or none, is not).
    ///
    /// - Throws: ``HTTPRequestError`` 415 for any other coding.
    private static func isGzip(_ coding: String?, field: String) throws(HTTPRequestError) -> Bool {
        guard let coding else { return false }
        switch Substring(coding).trimmingSpaces.lowercased() {
        case "identity", "": return false
        case "gzip", "x-gzip": return true
        default:
            throw HTTPRequestError(.unsupportedMediaType, "\(field) \(coding.prefix(32)) is not accepted: send gzip or identity")
        }
    }

    /// Whether an `Accept-Encoding` (or `Connect-Accept-Encoding`) list takes gzip: it names
    /// `gzip` (or `*`) without `q=0`.
    static func acceptsGzip(_ value: String?) -> Bool {
        guard let value else { return false }
        for item in value.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingSpaces.lowercased() }
            guard let coding = parts.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0
        }
        return false
    }

    /// The body a handler gets: a unary body inflated when it is gzip, a stream's message taken
    /// out of its envelope (and inflated when its flag says so); at most `limit` bytes inflated.
    ///
    /// - Throws: ``CallFailure``: INVALID_ARGUMENT for a damaged body, RESOURCE_EXHAUSTED
    ///   when it inflates past `limit`.
    static func decodedBody(_ body: [UInt8], for plan: HTTPRequestPlan, limit: Int) throws(CallFailure) -> [UInt8] {
        var message = body
        var compressed = plan.requestGzip
        if plan.descriptor.isServerStreaming {
            do {
                (message, compressed) = try streamingRequestMessage(body, compressionDeclared: plan.requestGzip)
            } catch {
                throw CallFailure(.invalidArgument, error.message)
            }
        }
        guard compressed else { return message }
        do {
            return try Compression.inflate(message, maxSize: limit, format: .gzip)
        } catch {
            throw CallFailure(error.status, "the request body: \(error.message)")
        }
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

}
