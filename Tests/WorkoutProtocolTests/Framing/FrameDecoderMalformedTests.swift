import Testing
@testable import WorkoutProtocol

/// One malformed input: what the receiving side gets after a valid preface and HELLO
/// (unless `raw` says the bytes start at the preface).
struct MalformedCase: CustomTestStringConvertible, Sendable {
    var name: String
    var role: FrameDecoder.Role
    var bytes: [UInt8]
    var code: ProtocolError.Code
    var raw = false

    var testDescription: String { name }

    /// The full stream: a valid opening, then the case's bytes.
    var stream: [UInt8] {
        guard !raw else { return bytes }
        var stream: [UInt8] = []
        if role == .server {
            Preface(offering: 1...1).encode(into: &stream)
        } else {
            Preface.accepting(1).encode(into: &stream)
        }
        Frame(type: .hello, body: [0x08, 0x01]).encode(into: &stream)
        return stream + bytes
    }
}

@Suite("Frame decoder, malformed input")
struct FrameDecoderMalformedTests {
    static let cases: [MalformedCase] = [
        MalformedCase(name: "bad magic", role: .server, bytes: bytes(hex: "48545450 01 01 0000"), code: .badMagic, raw: true),
        MalformedCase(name: "bad magic seen on its first byte", role: .server, bytes: bytes(hex: "47"), code: .badMagic, raw: true),
        MalformedCase(name: "preface reserved field nonzero", role: .server, bytes: bytes(hex: "574B5250 01 01 0001"), code: .invalidPreface, raw: true),
        MalformedCase(name: "client preface with min above max", role: .server, bytes: bytes(hex: "574B5250 03 02 0000"), code: .invalidPreface, raw: true),
        MalformedCase(name: "server preface naming a range", role: .client, bytes: bytes(hex: "574B5250 01 02 0000"), code: .invalidPreface, raw: true),
        MalformedCase(name: "first frame not HELLO", role: .server,
                      bytes: bytes(hex: "574B5250 01 01 0000") + headerBytes(FrameHeader(length: 0, type: .request, callID: 1, code: 1)),
                      code: .unexpectedHello, raw: true),
        MalformedCase(name: "anything but GOAWAY after a refusal", role: .client,
                      bytes: bytes(hex: "574B5250 00 00 0000") + headerBytes(FrameHeader(length: 0, type: .hello, callID: 0)),
                      code: .unexpectedFrameType, raw: true),
        MalformedCase(name: "second HELLO", role: .server, bytes: headerBytes(FrameHeader(length: 0, type: .hello, callID: 0)), code: .unexpectedHello),
        MalformedCase(name: "length over the pre-hello limit", role: .server,
                      bytes: headerBytes(FrameHeader(length: 65_537, type: .request, callID: 1, code: 1)), code: .frameTooLarge),
        MalformedCase(name: "length of 4 GiB", role: .client,
                      bytes: headerBytes(FrameHeader(length: .max, type: .response, callID: 1)), code: .frameTooLarge),
        MalformedCase(name: "unknown frame type 0", role: .server, bytes: headerBytes(FrameHeader(length: 0, type: FrameType(rawValue: 0), callID: 1)), code: .unknownFrameType),
        MalformedCase(name: "unknown frame type 10", role: .server, bytes: headerBytes(FrameHeader(length: 0, type: FrameType(rawValue: 10), callID: 1)), code: .unknownFrameType),
        MalformedCase(name: "reserved flag bit 0x04", role: .server,
                      bytes: headerBytes(FrameHeader(length: 0, type: .request, flags: FrameFlags(rawValue: 0x04), callID: 1, code: 1)), code: .reservedFlags),
        MalformedCase(name: "reserved flag bit 0x80", role: .client,
                      bytes: headerBytes(FrameHeader(length: 0, type: .response, flags: FrameFlags(rawValue: 0x81), callID: 1)), code: .reservedFlags),
        MalformedCase(name: "reserved field nonzero", role: .server,
                      bytes: headerBytes(FrameHeader(length: 0, type: .request, reserved: 1, callID: 1, code: 1)), code: .reservedFieldNonzero),
        MalformedCase(name: "COMPRESSED on PING", role: .server,
                      bytes: headerBytes(FrameHeader(length: 8, type: .ping, flags: .compressed, callID: 0)), code: .flagNotAllowed),
        MalformedCase(name: "COMPRESSED on CANCEL", role: .server,
                      bytes: headerBytes(FrameHeader(length: 0, type: .cancel, flags: .compressed, callID: 1)), code: .flagNotAllowed),
        MalformedCase(name: "DEADLINE on RESPONSE", role: .client,
                      bytes: headerBytes(FrameHeader(length: 4, type: .response, flags: .deadline, callID: 1)), code: .flagNotAllowed),
        MalformedCase(name: "code on STREAM_MESSAGE", role: .client,
                      bytes: headerBytes(FrameHeader(length: 0, type: .streamMessage, callID: 1, code: 3)), code: .codeNotZero),
        MalformedCase(name: "code on PING", role: .server,
                      bytes: headerBytes(FrameHeader(length: 8, type: .ping, callID: 0, code: 1)), code: .codeNotZero),
        MalformedCase(name: "call id 0 on REQUEST", role: .server,
                      bytes: headerBytes(FrameHeader(length: 0, type: .request, callID: 0)), code: .invalidCallID),
        MalformedCase(name: "call id 0 on CANCEL", role: .server,
                      bytes: headerBytes(FrameHeader(length: 0, type: .cancel, callID: 0)), code: .invalidCallID),
        MalformedCase(name: "call id on PONG", role: .client,
                      bytes: headerBytes(FrameHeader(length: 8, type: .pong, callID: 9)), code: .invalidCallID),
        MalformedCase(name: "PING of 7 bytes", role: .server,
                      bytes: headerBytes(FrameHeader(length: 7, type: .ping, callID: 0)), code: .invalidPayloadLength),
        MalformedCase(name: "PONG of 9 bytes", role: .client,
                      bytes: headerBytes(FrameHeader(length: 9, type: .pong, callID: 0)), code: .invalidPayloadLength),
        MalformedCase(name: "CANCEL with a payload", role: .server,
                      bytes: headerBytes(FrameHeader(length: 1, type: .cancel, callID: 1)), code: .invalidPayloadLength),
        MalformedCase(name: "DEADLINE with 3 payload bytes", role: .server,
                      bytes: headerBytes(FrameHeader(length: 3, type: .request, flags: .deadline, callID: 1, code: 1)), code: .invalidPayloadLength),
        MalformedCase(name: "RESPONSE sent to a server", role: .server,
                      bytes: headerBytes(FrameHeader(length: 0, type: .response, callID: 1)), code: .unexpectedFrameType),
        MalformedCase(name: "STREAM_END sent to a server", role: .server,
                      bytes: headerBytes(FrameHeader(length: 0, type: .streamEnd, callID: 1)), code: .unexpectedFrameType),
        MalformedCase(name: "REQUEST sent to a client", role: .client,
                      bytes: headerBytes(FrameHeader(length: 0, type: .request, callID: 1, code: 1)), code: .unexpectedFrameType),
        MalformedCase(name: "CANCEL sent to a client", role: .client,
                      bytes: headerBytes(FrameHeader(length: 0, type: .cancel, callID: 1)), code: .unexpectedFrameType),
        MalformedCase(name: "GOAWAY sent to a server", role: .server,
                      bytes: headerBytes(FrameHeader(length: 0, type: .goAway, callID: 0)), code: .unexpectedFrameType),
        MalformedCase(name: "REQUEST naming method 0", role: .server,
                      bytes: headerBytes(FrameHeader(length: 0, type: .request, callID: 1, code: 0)), code: .missingMethod),
        MalformedCase(name: "COMPRESSED on STREAM_END", role: .client,
                      bytes: headerBytes(FrameHeader(length: 4, type: .streamEnd, flags: .compressed, callID: 1)), code: .flagNotAllowed),
        MalformedCase(name: "COMPRESSED on GOAWAY", role: .client,
                      bytes: headerBytes(FrameHeader(length: 4, type: .goAway, flags: .compressed, callID: 0)), code: .flagNotAllowed),
    ]

    @Test("Each malformed input throws its specific error, all at once and byte by byte", arguments: cases)
    func malformed(testCase: MalformedCase) {
        let stream = testCase.stream
        for chunks in [[stream], stream.map { [$0] }] {
            do {
                _ = try decodeAll(chunks, role: testCase.role)
                Issue.record("no error for \(testCase.name)")
            } catch let error as ProtocolError {
                #expect(error.code == testCase.code, "\(error)")
                #expect(!error.message.isEmpty)
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
    }

    @Test("A header over the limit is refused before any payload byte arrives")
    func refusedBeforePayload() throws {
        var decoder = FrameDecoder(role: .server, expectingPreface: false)
        decoder.append(headerBytes(FrameHeader(length: 1 << 30, type: .request, callID: 1, code: 1)))
        #expect(throws: ProtocolError.self) { try decoder.nextFrame() }
        #expect(decoder.bufferCapacity < 1_024)
    }

    @Test("A failed decoder keeps throwing the same error")
    func failedStaysFailed() throws {
        var decoder = FrameDecoder(role: .server, expectingPreface: false)
        decoder.append(headerBytes(FrameHeader(length: 0, type: FrameType(rawValue: 77), callID: 1)))
        let first = #expect(throws: ProtocolError.self) { try decoder.nextFrame() }
        decoder.append(headerBytes(FrameHeader(length: 0, type: .request, callID: 1, code: 1)))
        let second = #expect(throws: ProtocolError.self) { try decoder.nextFrame() }
        #expect(first == second)
        #expect(first?.message == "unknown frame type 77 (0x4D)")
    }

    @Test(
        "Error messages name the offending values",
        arguments: [
            (FrameHeader(length: 70_000, type: .request, callID: 1, code: 1),
             "REQUEST frame payload of 70000 bytes exceeds the limit of 65536 bytes"),
            (FrameHeader(length: 7, type: .ping, callID: 0), "PING payload is 7 bytes, must be 8"),
            (FrameHeader(length: 0, type: .response, callID: 1), "RESPONSE frames may not be sent by a client"),
            (FrameHeader(length: 0, type: .request, flags: FrameFlags(rawValue: 0x10), callID: 1, code: 1),
             "reserved flag bits 0x10 set on REQUEST frame"),
        ] as [(FrameHeader, String)]
    )
    func messages(header: FrameHeader, message: String) {
        let error = #expect(throws: ProtocolError.self) {
            try header.validate(receivedBy: .server, maxPayloadSize: Handshake.preHelloMaxFrameSize)
        }
        #expect(error?.message == message)
    }

    @Test("A compressed body of garbage decodes as a frame but fails to inflate")
    func compressedGarbage() throws {
        var stream: [UInt8] = []
        Frame(type: .request, callID: 1, code: 3, isCompressed: true, body: [0xDE, 0xAD, 0xBE, 0xEF]).encode(into: &stream)
        let frames = try decodeAll([stream], role: .server, expectingPreface: false).frames
        let error = #expect(throws: ProtocolError.self) { try frames[0].decodedBody(maxDecompressedSize: 1 << 20) }
        #expect(error?.code == .malformedCompressedBody)
    }
}
