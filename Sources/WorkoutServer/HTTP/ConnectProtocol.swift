import Foundation
package import HTTPTypes
package import WorkoutProtocol

/// The Connect protocol's rules (connectrpc.com's specification) as the HTTP face applies
/// them: codes and HTTP statuses, the JSON error, the streaming envelope, the timeout header.
package enum ConnectProtocol {
    /// The Content-Security-Policy of every file the face serves: the page's own scripts,
    /// styles, images and connections only; no inline script, no plug-ins, no framing.
    package static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// The media types a unary call's body may have.
    package static func unaryEncoding(_ contentType: String?) -> MessageTranscoder.Encoding? {
        switch mediaType(contentType) {
        case "application/json": .json
        case "application/proto": .proto
        default: nil
        }
    }

    /// The media types a streaming call's body may have.
    package static func streamingEncoding(_ contentType: String?) -> MessageTranscoder.Encoding? {
        switch mediaType(contentType) {
        case "application/connect+json": .json
        case "application/connect+proto": .proto
        default: nil
        }
    }

    /// The media type without parameters, lower-cased (`application/json; charset=utf-8` is
    /// `application/json`).
    static func mediaType(_ contentType: String?) -> String? {
        guard let contentType else { return nil }
        // What nearly every client sends, compared as it is: no split, no case folding.
        if contentType == "application/json" || contentType == "application/proto" || contentType == "application/connect+json" {
            return contentType
        }
        let type = contentType.split(separator: ";", maxSplits: 1).first.map { Substring($0).trimmingSpaces } ?? ""
        return type.lowercased()
    }

    /// The Connect code's name for a status: `invalid_argument`, `canceled`, ...
    package static func codeName(_ status: StatusCode) -> String {
        status == .cancelled ? "canceled" : status.name.lowercased()
    }

    /// The HTTP status of a unary call that failed with `status` (the specification's table).
    package static func httpStatus(_ status: StatusCode) -> HTTPResponse.Status {
        switch status.canonical {
        case .cancelled: HTTPResponse.Status(code: 499, reasonPhrase: "Client Closed Request")
        case .invalidArgument, .failedPrecondition, .outOfRange: .badRequest
        case .deadlineExceeded: .gatewayTimeout
        case .notFound: .notFound
        case .alreadyExists, .aborted: .conflict
        case .permissionDenied: .forbidden
        case .resourceExhausted: .tooManyRequests
        case .unimplemented: .notImplemented
        case .unavailable: .serviceUnavailable
        case .unauthenticated: .unauthorized
        default: .internalServerError
        }
    }

    /// The code a refusal of the HTTP face itself (before any method) stands for.
    package static func status(for httpStatus: HTTPResponse.Status) -> StatusCode {
        switch httpStatus.code {
        case 401: .unauthenticated
        case 403: .permissionDenied
        case 404: .unimplemented
        case 408: .deadlineExceeded
        case 413, 429, 431: .resourceExhausted
        case 405, 415, 501, 505: .unimplemented
        case 503: .unavailable
        default: .invalidArgument
        }
    }

    /// Connect's JSON error: `{"code": "...", "message": "...", "details": [...]}`. The details
    /// carry the binary protocol's `workout.v1.RpcStatus` (its field and retry hint), base64 as
    /// the specification says, with a `debug` copy in JSON for people.
    package static func errorJSON(_ failure: CallFailure) -> [UInt8] {
        var body = ErrorBody(code: codeName(failure.status), message: failure.details.message)
        if !failure.details.field.isEmpty || failure.details.retryAfterMs != 0 {
            let value = (try? failure.details.serializedBytes()) ?? [UInt8]()
            body.details = [ErrorDetail(
                type: "workout.v1.RpcStatus",
                value: Data(value).base64EncodedString().trimmingCharacters(in: CharacterSet(charactersIn: "=")),
                debug: ErrorDebug(
                    message: failure.details.message,
                    field: failure.details.field.isEmpty ? nil : failure.details.field,
                    retryAfterMs: failure.details.retryAfterMs == 0 ? nil : failure.details.retryAfterMs))]
        }
        return (try? Array(encoder.encode(body))) ?? Array(#"{"code":"internal"}"#.utf8)
    }

    /// The end of a stream: `{}` when it ended OK, else `{"error": {...}}`.
    package static func endStreamJSON(_ failure: CallFailure?) -> [UInt8] {
        guard let failure else { return Array("{}".utf8) }
        return Array(#"{"error":"#.utf8) + errorJSON(failure) + Array("}".utf8)
    }

    /// Appends one message of a stream in Connect's envelope: a flags byte (bit 0: compressed,
    /// bit 1: the end of the stream), a 32-bit big-endian length, the message.
    ///
    /// ```
    /// +-------+---------------------+------------------+
    /// | flags | length (u32, BE)    | message          |
    /// +-------+---------------------+------------------+
    /// ```
    package static func appendEnvelope(_ message: [UInt8], endOfStream: Bool, compressed: Bool = false, to bytes: inout [UInt8]) {
        bytes.append((endOfStream ? 0x02 : 0x00) | (compressed ? 0x01 : 0x00))
        withUnsafeBytes(of: UInt32(message.count).bigEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: message)
    }

    /// The single message of a streaming request's body (one envelope) and whether its flag
    /// says it is compressed, which it may only be when the request declared a coding.
    ///
    /// - Throws: ``HTTPRequestError`` when the body is not exactly one envelope.
    package static func streamingRequestMessage(_ body: [UInt8], compressionDeclared: Bool = false) throws(HTTPRequestError) -> (message: [UInt8], compressed: Bool) {
        guard body.count >= 5 else {
            throw HTTPRequestError(.badRequest, "a streaming call's body is one enveloped message: a flags byte, a 4-byte length, the message")
        }
        guard body[0] == 0 || (body[0] == 1 && compressionDeclared) else {
            throw HTTPRequestError(.badRequest, compressionDeclared
                ? "the request envelope's flags must be 0, or 1 for a compressed message"
                : "the request envelope's flags must be 0 (a compressed message needs Connect-Content-Encoding: gzip)")
        }
        let length = body[1..<5].reduce(0) { $0 << 8 | Int($1) }
        guard length == body.count - 5 else {
            throw HTTPRequestError(.badRequest, "the request envelope says \(length) bytes but \(body.count - 5) follow")
        }
        return (Array(body[5...]), body[0] == 1)
    }

    /// The `Connect-Timeout-Ms` field's name.
    package static let timeoutField = HTTPField.Name("Connect-Timeout-Ms")!
    /// The `Idempotency-Key` field's name.
    package static let idempotencyKeyField = HTTPField.Name("Idempotency-Key")!
    /// The `X-Signature` field's name: a signed post's HMAC (PROTOCOL.md 25.9).
    package static let signatureField = HTTPField.Name("X-Signature")!

    /// `Connect-Timeout-Ms`: at most 10 digits, as the specification says; `nil` when absent.
    ///
    /// - Throws: ``HTTPRequestError`` for any other value.
    package static func timeoutMilliseconds(_ value: String?) throws(HTTPRequestError) -> UInt32? {
        guard let value else { return nil }
        guard (1...10).contains(value.utf8.count), value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = UInt64(value) else {
            throw HTTPRequestError(.badRequest, "Connect-Timeout-Ms must be a whole number of milliseconds, at most 10 digits")
        }
        return UInt32(min(number, UInt64(UInt32.max)))
    }

    private struct ErrorBody: Encodable {
        var code: String
        var message: String
        var details: [ErrorDetail]?
    }

    private struct ErrorDetail: Encodable {
        var type: String
        var value: String
        var debug: ErrorDebug
    }

    private struct ErrorDebug: Encodable {
        var message: String
        var field: String?
        var retryAfterMs: UInt32?
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
