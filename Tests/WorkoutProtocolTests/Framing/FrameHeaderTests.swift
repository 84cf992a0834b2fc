import Testing
@testable import WorkoutProtocol

@Suite("Frame header")
struct FrameHeaderTests {
    static let cases: [(FrameHeader, String)] = [
        (FrameHeader(length: 0, type: .hello, callID: 0), "00000000 01 00 0000 00000000 00000000"),
        (FrameHeader(length: 100, type: .request, callID: 1, code: 7), "00000064 02 00 0000 00000001 00000007"),
        (FrameHeader(length: 0x0102_0304, type: .response, flags: .compressed, callID: 0xDEAD_BEEF, code: 5),
         "01020304 03 01 0000 DEADBEEF 00000005"),
        (FrameHeader(length: 4, type: .request, flags: [.compressed, .deadline], callID: 0xFFFF_FFFF, code: 0xFFFF_FFFF),
         "00000004 02 03 0000 FFFFFFFF FFFFFFFF"),
        (FrameHeader(length: 8, type: .ping, callID: 0), "00000008 07 00 0000 00000000 00000000"),
        (FrameHeader(length: 0, type: .goAway, callID: 12, code: 14), "00000000 09 00 0000 0000000C 0000000E"),
        (FrameHeader(length: 0xFFFF_FFFF, type: FrameType(rawValue: 0xEE), flags: FrameFlags(rawValue: 0xFC),
                     reserved: 0xABCD, callID: 3, code: 4), "FFFFFFFF EE FC ABCD 00000003 00000004"),
    ]

    @Test("A header encodes to its big-endian bytes and decodes back", arguments: cases)
    func roundTrip(header: FrameHeader, hex: String) {
        let expected = bytes(hex: hex)
        #expect(headerBytes(header) == expected)

        var direct = [UInt8](repeating: 0, count: 16)
        direct.withUnsafeMutableBytes { header.encode(to: $0) }
        #expect(direct == expected)

        let decoded = expected.withUnsafeBytes { FrameHeader.decode(from: $0) }
        #expect(decoded == header)
    }

    @Test("A header is appended after what a batch buffer already holds")
    func appendsToBatch() {
        var buffer: [UInt8] = [0xAA]
        FrameHeader(length: 1, type: .request, callID: 1, code: 2).encode(into: &buffer)
        #expect(buffer.count == 17)
        #expect(buffer[0] == 0xAA && buffer[5] == 2)
    }

    @Test("Fewer than 16 bytes decode to nil", arguments: 0..<16)
    func truncatedHeader(count: Int) {
        let partial = Array(bytes(hex: "00000064 02 00 0000 00000001 00000007").prefix(count))
        #expect(partial.withUnsafeBytes { FrameHeader.decode(from: $0) } == nil)
    }

    @Test("A frame with a deadline writes the timeout before the body")
    func frameWithDeadline() {
        var buffer: [UInt8] = []
        Frame(type: .request, callID: 2, code: 9, deadline: 1_000, body: [0xAB]).encode(into: &buffer)
        #expect(buffer == bytes(hex: "00000005 02 02 0000 00000002 00000009 000003E8 AB"))
    }

    @Test(
        "Frame types print their protocol names",
        arguments: [
            (FrameType.hello, "HELLO"), (.request, "REQUEST"), (.response, "RESPONSE"),
            (.streamMessage, "STREAM_MESSAGE"), (.streamEnd, "STREAM_END"), (.cancel, "CANCEL"),
            (.ping, "PING"), (.pong, "PONG"), (.goAway, "GOAWAY"), (FrameType(rawValue: 42), "0x2A"),
        ] as [(FrameType, String)]
    )
    func typeNames(type: FrameType, name: String) {
        #expect(type.description == name)
    }
}
