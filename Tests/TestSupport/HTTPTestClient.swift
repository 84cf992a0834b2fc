package import Foundation
import SwiftProtobuf
package import WorkoutProtocol

/// A blocking test client of the HTTP face: HTTP/1.1 requests on one kept-alive connection
/// (TLS when the port is one of ``TLSPorts``), Connect's JSON (or protobuf) bodies, a bearer
/// token it keeps as a device would. Every read is bounded by the connection's timeout.
///
/// Safe to send between threads because: a test uses one client from one thread at a time.
package final class HTTPTestClient: @unchecked Sendable {
    /// An HTTP answer.
    package struct Response: Sendable {
        /// The status code.
        package var status: Int
        /// Header fields, names lower-cased.
        package var headers: [(name: String, value: String)]
        /// The body (de-chunked).
        package var body: [UInt8]

        /// The first field named `name` (lower-case).
        package func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }

        /// The body as text.
        package var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// The connection bytes go over.
    package let connection: TestConnection
    /// The bearer token sent with every request: learned from Login, Register or Resume, or set.
    package var token: Data?
    private var pending: [UInt8] = []

    /// Connects to `port` on 127.0.0.1 (from `source`, when given).
    package init(port: Int, timeout: Double = 5, source: String? = nil) throws {
        connection = try TestConnection(port: port, timeout: timeout, source: source)
    }

    /// Sends a request and reads its whole answer.
    package func request(
        _ method: String = "POST", _ path: String, contentType: String? = "application/json", body: [UInt8] = [],
        headers: [(String, String)] = []
    ) throws -> Response {
        try send(method, path, contentType: contentType, body: body, headers: headers)
        return try readResponse()
    }

    /// Sends a request without reading its answer.
    package func send(
        _ method: String = "POST", _ path: String, contentType: String? = "application/json", body: [UInt8] = [],
        headers: [(String, String)] = []
    ) throws {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: workout.test\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        if method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        if let token { head += "Authorization: Bearer \(token.base64EncodedString())\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        try connection.write(Array(head.utf8) + body)
    }

    /// Reads one whole answer (Content-Length or chunked).
    package func readResponse() throws -> Response {
        var response = try readStreamHead()
        if let length = response.header("content-length").flatMap(Int.init) {
            try fill(to: length)
            response.body = Array(pending[..<length])
            pending.removeFirst(length)
        } else if response.header("transfer-encoding") == "chunked" {
            while true {
                let chunk = try readChunk()
                if chunk.isEmpty { break }
                response.body += chunk
            }
        }
        return response
    }

    /// Reads the next chunk of a chunked answer whose head was read already (streams).
    package func readChunk() throws -> [UInt8] {
        let lineEnd = try readUntil([0x0D, 0x0A])
        let size = Int(String(decoding: pending[..<lineEnd], as: UTF8.self), radix: 16) ?? 0
        pending.removeFirst(lineEnd + 2)
        try fill(to: size + 2)
        let chunk = Array(pending[..<size])
        pending.removeFirst(size + 2)
        return chunk
    }

    /// Reads the head of an answer (a stream's chunks are then read with ``readChunk()``).
    package func readStreamHead() throws -> Response {
        let headEnd = try readUntil([0x0D, 0x0A, 0x0D, 0x0A])
        let head = String(decoding: pending[..<headEnd], as: UTF8.self)
        pending.removeFirst(headEnd + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw TestConnection.Closed() }
        let headers = lines.map { line -> (String, String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (parts[0].lowercased(), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }
        return Response(status: status, headers: headers, body: [])
    }

    /// Calls a unary method with a JSON body; returns its answer, or throws its failure as a
    /// ``TestConnection/Failure``.
    package func call<Request, Response>(
        _ method: RPCMethod<Request, Response>, _ request: Request, headers: [(String, String)] = []
    ) throws -> Response {
        let body: [UInt8] = try request.jsonUTF8Bytes()
        let answer = try self.request("POST", method.descriptor.httpPath, body: body, headers: headers)
        guard answer.status == 200 else { throw Self.failure(of: answer) }
        let response = try Response(jsonUTF8Bytes: answer.body)
        if let resume = request as? Workout_V1_ResumeRequest { token = resume.sessionToken }
        learnToken(method.number, response)
        return response
    }

    /// Calls a method and returns the status of its answer (OK or the failure's).
    package func status<Request, Response>(_ method: RPCMethod<Request, Response>, _ request: Request) throws -> (StatusCode, Workout_V1_RpcStatus) {
        do {
            _ = try call(method, request)
            return (.ok, Workout_V1_RpcStatus())
        } catch let failure as TestConnection.Failure {
            return (failure.status, failure.details)
        }
    }

    /// A Connect error answer as the binary protocol's status and details.
    package static func failure(of answer: Response) -> TestConnection.Failure {
        struct ConnectError: Decodable {
            struct Detail: Decodable {
                var type: String
                var value: String
            }
            var code: String
            var message: String?
            var details: [Detail]?
        }
        guard let error = try? JSONDecoder().decode(ConnectError.self, from: Data(answer.body)) else {
            var details = Workout_V1_RpcStatus()
            details.message = "HTTP \(answer.status): \(answer.text)"
            return TestConnection.Failure(status: .unknown, details: details)
        }
        let code = error.code == "canceled" ? "CANCELLED" : error.code.uppercased()
        let status = StatusCode.allKnown.first { $0.name == code } ?? .unknown
        var details = Workout_V1_RpcStatus()
        if let detail = error.details?.first(where: { $0.type == "workout.v1.RpcStatus" }) {
            var text = detail.value
            text += String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
            if let bytes = Data(base64Encoded: text), let decoded = try? Workout_V1_RpcStatus(serializedBytes: bytes) {
                details = decoded
            }
        }
        details.message = error.message ?? ""
        return TestConnection.Failure(status: status, details: details)
    }

    /// Keeps the token a login, registration or resume gave, and forgets it at logout.
    private func learnToken(_ method: UInt32, _ response: some SwiftProtobuf.Message) {
        if let login = response as? Workout_V1_LoginResponse {
            token = login.sessionToken
        } else if let register = response as? Workout_V1_RegisterResponse {
            token = register.sessionToken
        } else if method == MethodCatalog.logout.number || method == MethodCatalog.deleteAccount.number {
            token = nil
        }
    }

    /// Reads until `pending` holds `marker`; its offset.
    private func readUntil(_ marker: [UInt8]) throws -> Int {
        var from = 0
        while true {
            if pending.count >= marker.count {
                for index in from...(pending.count - marker.count) where pending[index..<(index + marker.count)].elementsEqual(marker) {
                    return index
                }
                from = pending.count - marker.count + 1
            }
            pending += try connection.readBytes()
        }
    }

    /// Reads until `pending` holds `count` bytes.
    private func fill(to count: Int) throws {
        while pending.count < count { pending += try connection.readBytes() }
    }
}
