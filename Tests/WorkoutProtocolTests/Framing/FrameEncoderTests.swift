import Testing
@testable import WorkoutProtocol

@Suite("Frame encoder")
struct FrameEncoderTests {
    static let compressible = [UInt8](repeating: 0x61, count: 4_000)

    /// Bodies named in the table below (so test names stay short).
    static func body(_ name: String) -> [UInt8] {
        switch name {
        case "small": return Array(compressible.prefix(1_023))
        case "random":
            var generator = SeededGenerator(seed: 7)
            return (0..<4_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        default: return compressible
        }
    }

    @Test(
        "Bodies are compressed only when the peer accepts it, the type allows it, the body is large enough and it pays",
        arguments: [
            ("accepted and large", true, FrameType.response, "compressible", true),
            ("peer refuses", false, .response, "compressible", false),
            ("too small", true, .response, "small", false),
            ("does not pay", true, .response, "random", false),
            ("stream message", true, .streamMessage, "compressible", true),
            ("hello never", true, .hello, "compressible", false),
        ] as [(String, Bool, FrameType, String, Bool)]
    )
    func compressionDecision(name: String, accepts: Bool, type: FrameType, bodyName: String, compressed: Bool) throws {
        let body = Self.body(bodyName)
        let encoder = FrameEncoder(maxFrameSize: 1 << 20, compressionEnabled: accepts)
        var buffer: [UInt8] = [0xFF]  // a frame already in the batch
        try encoder.append(type, callID: type == .hello ? 0 : 1, body: body, to: &buffer)
        #expect(buffer[0] == 0xFF)
        var decoder = FrameDecoder(role: .client, maxFrameSize: 1 << 20)
        decoder.append(Preface.accepting(1).encodedBytes)
        _ = try decoder.readPreface()
        if type != .hello {
            decoder.append(Frame(type: .hello).encodedBytes)
            _ = try decoder.nextFrame()
        }
        decoder.append(Array(buffer.dropFirst()))
        let frame = try #require(try decoder.nextFrame())
        #expect(try decoder.nextFrame() == nil)
        #expect(frame.isCompressed == compressed, "\(name)")
        #expect(try frame.decodedBody(maxDecompressedSize: 1 << 20) == body)
        if compressed { #expect(frame.body.count < body.count) }
    }

    @Test("A compressed request keeps its deadline uncompressed in front")
    func compressedWithDeadline() throws {
        let encoder = FrameEncoder(maxFrameSize: 1 << 20, compressionEnabled: true)
        var buffer: [UInt8] = []
        try encoder.append(.request, callID: 7, code: 3, deadline: 2_500, body: Self.compressible, to: &buffer)
        #expect(Array(buffer[16..<20]) == [0x00, 0x00, 0x09, 0xC4])
        #expect(buffer[5] == 0x03)
        let frame = try #require(try decodeAll([buffer], role: .server, maxFrameSize: 1 << 20, expectingPreface: false).frames.first)
        #expect(frame.deadline == 2_500)
        #expect(try frame.decodedBody(maxDecompressedSize: 1 << 20) == Self.compressible)
    }

    @Test("A frame over the peer's limit is refused and leaves the batch as it was")
    func overLimit() {
        let encoder = FrameEncoder(maxFrameSize: 1_000)
        var buffer: [UInt8] = [1, 2, 3]
        let error = #expect(throws: ProtocolError.self) {
            try encoder.append(.response, callID: 1, body: [UInt8](repeating: 0, count: 1_001), to: &buffer)
        }
        #expect(error?.code == .messageTooLarge)
        #expect(error?.status == .resourceExhausted)
        #expect(buffer == [1, 2, 3])
    }

    @Test("A body too large raw but small compressed is sent compressed")
    func fitsOnlyCompressed() throws {
        let encoder = FrameEncoder(maxFrameSize: 2_000, compressionEnabled: true, maxDecompressedSize: 1 << 20)
        var buffer: [UInt8] = []
        try encoder.append(.response, callID: 1, body: Self.compressible, to: &buffer)
        #expect(buffer[5] == 0x01)
    }

    @Test("The encoder's bytes equal Frame.encode for uncompressed frames")
    func matchesFrameEncode() throws {
        let encoder = FrameEncoder()
        var viaEncoder: [UInt8] = []
        try encoder.append(.request, callID: 9, code: 4, deadline: 10, body: Array(0..<100), to: &viaEncoder)
        var viaFrame: [UInt8] = []
        Frame(type: .request, callID: 9, code: 4, deadline: 10, body: Array(0..<100)).encode(into: &viaFrame)
        #expect(viaEncoder == viaFrame)
    }
}
