import Foundation
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
        if request.method == .get, descriptor.hasNoSideEffects {
            return try getPlan(head, for: descriptor)
        }
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

    /// The plan of Connect's GET form of a method without side effects:
    /// `GET <path>?connect=v1&encoding=json&message=<the request, URL-encoded>`, or with
    /// `base64=1` the message in (URL-safe) base64, and `compression=gzip` when it is gzip.
    ///
    /// - Throws: ``HTTPRequestError`` 400 for a query that is not that; 415 for an encoding or
    ///   a compression other than these.
    private static func getPlan(_ head: HTTPRequestParser.Head, for descriptor: MethodDescriptor) throws(HTTPRequestError) -> HTTPRequestPlan {
        let request = head.request
        let fields = request.headerFields
        if fields[.contentLength].map({ $0 != "0" }) ?? false || fields[.transferEncoding] != nil {
            throw HTTPRequestError(.badRequest, "a GET carries no body: the request message goes in the query's message")
        }
        let target = request.path ?? ""
        let query = target.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
        var parameters: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = queryDecoded(parts[0]), let value = queryDecoded(parts.count > 1 ? parts[1] : "") else {
                throw HTTPRequestError(.badRequest, "the query holds a malformed percent-escape")
            }
            guard parameters[name] == nil else { throw HTTPRequestError(.badRequest, "the query gives \(name.prefix(32)) twice") }
            parameters[name] = value
        }
        if let version = parameters["connect"], version != "v1" {
            throw HTTPRequestError(.badRequest, "connect=\(version.prefix(16)) is not a version this server speaks: send connect=v1")
        }
        let encoding: MessageTranscoder.Encoding
        switch parameters["encoding"] {
        case "json"?: encoding = .json
        case "proto"?: encoding = .proto
        case let other?: throw HTTPRequestError(.unsupportedMediaType, "encoding=\(other.prefix(32)) is not served: send encoding=json or encoding=proto")
        case nil: throw HTTPRequestError(.badRequest, "a GET names its encoding: encoding=json or encoding=proto")
        }
        guard let text = parameters["message"] else {
            throw HTTPRequestError(.badRequest, "a GET carries its request in the query: message=<the request message> (message={} for an empty one)")
        }
        var message = Array(text.utf8)
        switch parameters["base64"] {
        case nil, "0"?: break
        case "1"?:
            var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
            guard let data = Data(base64Encoded: base64) else {
                throw HTTPRequestError(.badRequest, "message is not base64, as base64=1 says")
            }
            message = Array(data)
        case let other?: throw HTTPRequestError(.badRequest, "base64=\(other.prefix(16)) must be 1 or left out")
        }
        let requestGzip = try isGzip(parameters["compression"], field: "compression")
        var plan = HTTPRequestPlan(
            descriptor: descriptor, encoding: encoding, contentLength: 0,
            timeoutMilliseconds: try timeoutMilliseconds(fields[timeoutField]), keepAlive: head.keepsAlive,
            token: try fields[.authorization].map { authorization throws(HTTPRequestError) in try BearerToken.parse(authorization) },
            requestGzip: requestGzip, answerGzip: acceptsGzip(fields[.acceptEncoding]))
        plan.queryMessage = message
        plan.ifNoneMatch = fields[.ifNoneMatch]
        return plan
    }

    /// A query's name or value with its percent-escapes (and `+` for a space) decoded; `nil`
    /// for a malformed escape or bytes that are not UTF-8.
    private static func queryDecoded(_ part: Substring) -> String? {
        String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
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
    /// `gzip` without `q=0`, or else `*` without `q=0` (a coding named outranks `*`).
    static func acceptsGzip(_ value: String?) -> Bool {
        guard let value else { return false }
        var wildcard: Bool?
        for item in value.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingSpaces.lowercased() }
            guard let coding = parts.first else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if coding == "gzip" || coding == "x-gzip" { return quality > 0 }
            if coding == "*" { wildcard = quality > 0 }
        }
        return wildcard ?? false
    }

    /// The body a handler gets: a unary body inflated when it is gzip, a stream's message taken
    /// out of its envelope (and inflated when its flag says so); at most `limit` bytes inflated.
    ///
    /// - Throws: ``CallFailure``: INVALID_ARGUMENT for a damaged body, RESOURCE_EXHAUSTED
    ///   when it inflates past `limit`.
    static func decodedBody(_ body: [UInt8], for plan: HTTPRequestPlan, limit: Int) throws(CallFailure) -> [UInt8] {
        var message = plan.queryMessage ?? body
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
