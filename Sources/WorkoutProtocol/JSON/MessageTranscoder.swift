package import SwiftProtobuf

/// Turns one method's messages between the binary protocol's form (protobuf) and the forms the
/// HTTP face takes and gives: protobuf's JSON mapping, or protobuf itself.
///
/// Made once per method from its typed ``RPCMethod``, so the HTTP face serves every method of
/// the catalog with no code per method; the handlers see protobuf bytes either way.
package struct MessageTranscoder: Sendable {
    /// How a request body is encoded.
    package enum Encoding: Sendable, Hashable {
        /// Protobuf's JSON mapping (`application/json`).
        case json
        /// Protobuf's binary encoding (`application/proto`).
        case proto
    }

    /// What a request was made of, for the handler: protobuf bytes.
    private let decodeRequest: @Sendable ([UInt8], Encoding, RecordIDSource?) throws(TranscodingError) -> [UInt8]
    /// The handler's protobuf response as JSON.
    private let encodeResponseJSON: @Sendable ([UInt8]) throws(TranscodingError) -> [UInt8]

    /// The transcoder of a method whose request is `Request` and whose response (or each stream
    /// message) is `Response`.
    package init<Request: SwiftProtobuf.Message, Response: SwiftProtobuf.Message>(_: Request.Type, _: Response.Type) {
        // Asked once: a dynamic cast per request cost the HTTP face 6 % of a read's server CPU.
        let assignsIDs = Request.self is any RecordIDAssigning.Type
        decodeRequest = { body, encoding, ids throws(TranscodingError) in
            let needsMessage = encoding == .json || (ids != nil && assignsIDs)
            if !needsMessage { return body }
            var message: Request
            do {
                switch encoding {
                case .json:
                    message = try Request(jsonUTF8Bytes: body, options: Self.decodingOptions)
                case .proto:
                    message = try Request(serializedBytes: body)
                }
            } catch {
                throw TranscodingError(requestType: Request.protoMessageName, encoding: encoding, underlying: error)
            }
            if let ids, assignsIDs, var assigning = message as? any RecordIDAssigning {
                assigning.assignMissingRecordIDs(ids)
                if let assigned = assigning as? Request { message = assigned }
            }
            do {
                return try message.serializedBytes()
            } catch {
                throw TranscodingError(requestType: Request.protoMessageName, encoding: .proto, underlying: error)
            }
        }
        encodeResponseJSON = { body throws(TranscodingError) in
            do {
                let message = try Response(serializedBytes: body)
                return try message.jsonUTF8Bytes(options: Self.encodingOptions)
            } catch {
                throw TranscodingError(requestType: Response.protoMessageName, encoding: .json, underlying: error)
            }
        }
    }

    /// A transcoder that hands bodies through as they are, both ways: for an HTTP endpoint that
    /// takes and answers a JSON format of its own (the Health Auto Export ingest).
    package static let passthrough = MessageTranscoder(
        decodeRequest: { body, _, _ throws(TranscodingError) in body },
        encodeResponseJSON: { body throws(TranscodingError) in body })

    private init(
        decodeRequest: @escaping @Sendable ([UInt8], Encoding, RecordIDSource?) throws(TranscodingError) -> [UInt8],
        encodeResponseJSON: @escaping @Sendable ([UInt8]) throws(TranscodingError) -> [UInt8]
    ) {
        self.decodeRequest = decodeRequest
        self.encodeResponseJSON = encodeResponseJSON
    }

    /// The request's protobuf bytes, from a body in `encoding`; records the request creates
    /// without an id get one from `ids` (when given).
    ///
    /// - Throws: ``TranscodingError`` when the body is not a valid message of the request type.
    package func request(from body: [UInt8], encoding: Encoding, assigningIDsFrom ids: RecordIDSource? = nil) throws(TranscodingError) -> [UInt8] {
        try decodeRequest(body, encoding, ids)
    }

    /// The response (or a stream message) as JSON, from the handler's protobuf bytes.
    ///
    /// - Throws: ``TranscodingError`` when the bytes do not decode (a server bug).
    package func responseJSON(from body: [UInt8]) throws(TranscodingError) -> [UInt8] {
        try encodeResponseJSON(body)
    }

    /// JSON as the face writes it: protobuf's JSON mapping as it stands (lowerCamelCase field
    /// names, 64-bit integers as strings, bytes as base64, enums by name, and a field at its
    /// default value, 0, "" or false, left out).
    static let encodingOptions = JSONEncodingOptions()

    /// JSON as the face reads it: both field-name forms (the mapping's), and an unknown field is
    /// an error naming it rather than something silently dropped.
    static let decodingOptions: JSONDecodingOptions = {
        var options = JSONDecodingOptions()
        options.ignoreUnknownFields = false
        return options
    }()
}

/// A body that is not a valid message of its type.
package struct TranscodingError: Error, Sendable, CustomStringConvertible {
    /// The message type's full protobuf name.
    package let requestType: String
    /// The encoding that failed.
    package let encoding: MessageTranscoder.Encoding
    /// What swift-protobuf said.
    package let underlying: any Error

    /// In the words of a person reading the HTTP answer.
    package var description: String {
        switch encoding {
        case .json:
            "the body is not valid JSON for \(requestType) (protobuf's JSON mapping): \(underlying)"
        case .proto:
            "the body does not decode as \(requestType): \(underlying)"
        }
    }
}
