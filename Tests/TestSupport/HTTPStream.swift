import Foundation
package import SwiftProtobuf
package import WorkoutProtocol

/// A server stream over the HTTP face (Connect's streaming protocol, JSON): the request as one
/// envelope, then the answer's envelopes, one per chunk, the last one the end of the stream.
///
/// Safe to send between threads because: a test reads one stream from one thread at a time.
package final class HTTPStream<Message: SwiftProtobuf.Message>: @unchecked Sendable {
    private let client: HTTPTestClient
    /// The answer's head.
    package let head: HTTPTestClient.Response
    /// How the stream ended, once ``next()`` returned `nil`: OK or the end message's error.
    package private(set) var status = StatusCode.ok
    /// The end message's error, decoded as the binary protocol's details.
    package private(set) var details = Workout_V1_RpcStatus()
    private var pending: [UInt8] = []
    private var ended = false

    /// Calls `method` with `request` on `client` and reads the answer's head.
    package init<Request>(
        _ client: HTTPTestClient, _ method: RPCMethod<Request, Message>, _ request: Request, headers: [(String, String)] = []
    ) throws {
        self.client = client
        let json: [UInt8] = try request.jsonUTF8Bytes()
        var body: [UInt8] = [0]
        withUnsafeBytes(of: UInt32(json.count).bigEndian) { body += $0 }
        body += json
        try client.send("POST", method.descriptor.httpPath, contentType: "application/connect+json", body: body, headers: headers)
        head = try client.readStreamHead()
    }

    /// The next message, or `nil` at the end of the stream (``status`` then says how it ended).
    package func next() throws -> Message? {
        guard !ended else { return nil }
        while true {
            if pending.count >= 5 {
                let length = pending[1..<5].reduce(0) { $0 << 8 | Int($1) }
                if pending.count >= 5 + length {
                    let flags = pending[0]
                    let payload = Array(pending[5..<(5 + length)])
                    pending.removeFirst(5 + length)
                    if flags & 0x02 != 0 {
                        ended = true
                        try readEnd(payload)
                        return nil
                    }
                    return try Message(jsonUTF8Bytes: payload)
                }
            }
            let chunk = try client.readChunk()
            if chunk.isEmpty {
                ended = true
                status = .unknown
                return nil
            }
            pending += chunk
        }
    }

    private func readEnd(_ payload: [UInt8]) throws {
        let end = try JSONDecoder().decode(StreamEnd.self, from: Data(payload))
        if end.error != nil {
            // The error object is Connect's unary error: reuse its decoding.
            let object = try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
            let error = try JSONSerialization.data(withJSONObject: object?["error"] ?? [:])
            let failure = HTTPTestClient.failure(of: HTTPTestClient.Response(status: 500, headers: [], body: Array(error)))
            status = failure.status
            details = failure.details
        }
        _ = try client.readChunk()  // the last, empty chunk
    }
}

/// Connect's end-of-stream message, as far as a test reads it.
private struct StreamEnd: Decodable {
    struct Error: Decodable { var code: String }
    var error: Error?
}
