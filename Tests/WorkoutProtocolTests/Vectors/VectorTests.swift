import Foundation
import SwiftProtobuf
import Testing
import WorkoutProtocol

/// One golden frame of Protocol/vectors/vectors.json.
struct GoldenVector: CustomTestStringConvertible, Sendable {
    let name: String
    let sender: String
    let hex: String
    /// The meaning, re-serialized as JSON text (a Sendable form of the JSON object).
    let meaningJSON: String

    var testDescription: String { name }

    var meaning: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(meaningJSON.utf8)) as? [String: Any]) ?? [:]
    }

    var bytes: [UInt8] {
        var result: [UInt8] = []
        var characters = Array(hex.utf8)[...]
        while characters.count >= 2 {
            result.append(UInt8(String(decoding: characters.prefix(2), as: UTF8.self), radix: 16)!)
            characters = characters.dropFirst(2)
        }
        return result
    }

    static func load() throws -> [GoldenVector] {
        let url = repositoryRoot.appendingPathComponent("Protocol/vectors/vectors.json")
        let entries = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [[String: Any]]
        return try entries.map { entry in
            let meaning = try JSONSerialization.data(withJSONObject: entry["meaning"]!, options: [.sortedKeys])
            return GoldenVector(
                name: entry["name"] as! String, sender: entry["sender"] as! String, hex: entry["hex"] as! String,
                meaningJSON: String(decoding: meaning, as: UTF8.self))
        }
    }
}

/// Every message type a vector may carry, by its full protobuf name.
let messageTypes: [String: any SwiftProtobuf.Message.Type] = {
    var types: [any SwiftProtobuf.Message.Type] = [
        Workout_V1_ClientHello.self, Workout_V1_ServerHello.self, Workout_V1_RpcStatus.self,
        Workout_V1_HealthRequest.self, Workout_V1_HealthResponse.self,
        Workout_V1_LoginRequest.self, Workout_V1_LoginResponse.self,
        Workout_V1_MealsOfDayRequest.self, Workout_V1_MealsOfDayResponse.self,
        Workout_V1_LogWorkoutRequest.self, Workout_V1_LogWorkoutResponse.self,
        Workout_V1_UpdateWorkoutRequest.self, Workout_V1_LogMealRequest.self,
        Workout_V1_WatchRequest.self, Workout_V1_WatchEvent.self, Workout_V1_ExportRequest.self,
    ]
    types += [Workout_V1_ExportChunk.self, Workout_V1_DescribeCatalogResponse.self]
    types += [Workout_V1_WorkoutHistoryRequest.self, Workout_V1_UpdateWeightRequest.self, Workout_V1_UpdateWeightResponse.self]
    return Dictionary(uniqueKeysWithValues: types.map { ($0.protoMessageName, $0) })
}()

let frameTypeNames: [String: FrameType] = [
    "HELLO": .hello, "REQUEST": .request, "RESPONSE": .response, "STREAM_MESSAGE": .streamMessage,
    "STREAM_END": .streamEnd, "CANCEL": .cancel, "PING": .ping, "PONG": .pong, "GOAWAY": .goAway,
]

@Suite("Golden vectors, both ways")
struct VectorTests {
    static let vectors = (try? GoldenVector.load()) ?? []

    @Test("The vector file is there and covers every frame type")
    func coverage() throws {
        #expect(Self.vectors.count >= 16)
        let types = Set(Self.vectors.compactMap { $0.meaning["type"] as? String })
        #expect(types == Set(frameTypeNames.keys))
    }

    @Test("Each vector decodes to its meaning and its meaning encodes to the same bytes", arguments: vectors)
    func bothWays(vector: GoldenVector) throws {
        let meaning = vector.meaning
        let bytes = vector.bytes
        let sender: Preface.Sender = vector.sender == "client" ? .client : .server

        if meaning["kind"] as? String == "preface" {
            let preface = try #require(try bytes.withUnsafeBytes { try Preface.decode(from: $0, sentBy: sender) })
            #expect(Int(preface.minVersion) == meaning["min_version"] as? Int)
            #expect(Int(preface.maxVersion) == meaning["max_version"] as? Int)
            var encoded: [UInt8] = []
            Preface(minVersion: preface.minVersion, maxVersion: preface.maxVersion).encode(into: &encoded)
            #expect(encoded == bytes)
            return
        }

        // Decode: header, then the payload as the meaning says.
        let header = try #require(bytes.withUnsafeBytes { FrameHeader.decode(from: $0) })
        try header.validate(receivedBy: sender == .client ? .server : .client, maxPayloadSize: 4 << 20)
        #expect(Int(header.length) == bytes.count - 16)
        let type = try #require(frameTypeNames[meaning["type"] as! String])
        #expect(header.type == type)
        #expect(Int(header.callID) == meaning["call_id"] as? Int)
        #expect(Int(header.code) == meaning["code"] as? Int)
        let flags = meaning["flags"] as! [String]
        #expect(header.flags.contains(.compressed) == flags.contains("COMPRESSED"))
        #expect(header.flags.contains(.deadline) == flags.contains("DEADLINE"))
        if let codeName = meaning["code_name"] as? String {
            if type == .request {
                #expect(MethodCatalog.method(number: header.code)?.name == codeName)
            } else {
                #expect(StatusCode(rawValue: header.code).name == codeName)
            }
        }
        var payload = Array(bytes[16...])
        var deadline: UInt32?
        if header.flags.contains(.deadline) {
            deadline = payload.prefix(4).reduce(0) { ($0 << 8) | UInt32($1) }
            payload.removeFirst(4)
            #expect(deadline.map(Int.init) == meaning["timeout_ms"] as? Int)
        }
        let body = header.flags.contains(.compressed) ? try Compression.inflate(payload, maxSize: 4 << 20) : payload
        var expectedBody: [UInt8] = []
        if let typeName = meaning["message_type"] as? String {
            let messageType = try #require(messageTypes[typeName], "no Swift type registered for \(typeName)")
            let json = try JSONSerialization.data(withJSONObject: meaning["message"]!, options: [.sortedKeys])
            let expected = try messageType.init(jsonUTF8Bytes: Array(json))
            let decoded = try messageType.init(serializedBytes: body)
            #expect(decoded.isEqualTo(message: expected), "\(vector.name): \(decoded) != \(expected)")
            expectedBody = try expected.serializedBytes()
        } else if let raw = meaning["raw_payload_hex"] as? String {
            expectedBody = GoldenVector(name: "", sender: "", hex: raw, meaningJSON: "{}").bytes
            #expect(body == expectedBody)
        } else {
            #expect(body.isEmpty)
        }

        // Encode the meaning back: the very same bytes.
        let wireBody = header.flags.contains(.compressed) ? Compression.deflate(expectedBody) : expectedBody
        var encoded: [UInt8] = []
        Frame(type: type, callID: header.callID, code: header.code, deadline: deadline,
              isCompressed: header.flags.contains(.compressed), body: wireBody).encode(into: &encoded)
        #expect(encoded == bytes, "\(vector.name) re-encodes differently")
    }
}
