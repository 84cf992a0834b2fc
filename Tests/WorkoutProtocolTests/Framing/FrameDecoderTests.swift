import Testing
@testable import WorkoutProtocol

@Suite("Frame decoder")
struct FrameDecoderTests {
    @Test("A client stream decodes to the same frames in every split", arguments: [FrameDecoder.Role.server, .client])
    func everySplit(role: FrameDecoder.Role) throws {
        let (stream, expected) = role == .server ? sampleClientStream() : sampleServerStream()
        let whole = try decodeAll([stream], role: role)
        #expect(whole.frames == expected)
        #expect(whole.preface != nil)

        let byteByByte = try decodeAll(stream.map { [$0] }, role: role)
        #expect(byteByByte.frames == expected)
        #expect(byteByByte.preface == whole.preface)

        var generator = SeededGenerator(seed: 0x5EED)
        for _ in 0..<50 {
            let sizes = (0..<stream.count).lazy.map { _ in Int.random(in: 1...64, using: &generator) }
            let chunks = split(stream, sizes: sizes)
            #expect(try decodeAll(chunks, role: role).frames == expected)
        }
        // Every two-piece split.
        for cut in 0...stream.count {
            let chunks = [Array(stream[..<cut]), Array(stream[cut...])]
            #expect(try decodeAll(chunks, role: role).frames == expected)
        }
    }

    @Test("Frames are returned only when complete, and nil means need more bytes")
    func needMoreBytes() throws {
        var decoder = FrameDecoder(role: .server)
        decoder.append(bytes(hex: "574B5250 01"))
        #expect(try decoder.readPreface() == nil)
        decoder.append(bytes(hex: "01 0000"))
        #expect(try decoder.readPreface() == Preface(minVersion: 1, maxVersion: 1))
        #expect(try decoder.nextFrame() == nil)
        decoder.append(bytes(hex: "00000002 01 00 0000 00000000"))
        #expect(try decoder.nextFrame() == nil)
        decoder.append(bytes(hex: "00000000 AA"))
        #expect(try decoder.nextFrame() == nil)
        decoder.append(bytes(hex: "BB"))
        #expect(try decoder.nextFrame() == Frame(type: .hello, body: [0xAA, 0xBB]))
        #expect(try decoder.nextFrame() == nil)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test("The limit can be raised after the hello")
    func raisedLimit() throws {
        var decoder = FrameDecoder(role: .server, expectingPreface: false)
        var stream: [UInt8] = []
        Frame(type: .request, callID: 1, code: 1, body: Array(repeating: 1, count: 70_000)).encode(into: &stream)
        decoder.maxFrameSize = HandshakeLimits.defaultMaxFrameSize
        decoder.append(stream)
        #expect(try decoder.nextFrame()?.body.count == 70_000)
    }

    @Test("The buffer stays bounded over a long stream of frames")
    func bufferBounded() throws {
        var decoder = FrameDecoder(role: .server, expectingPreface: false)
        var frameBytes: [UInt8] = []
        Frame(type: .request, callID: 1, code: 1, body: Array(repeating: 7, count: 1_000)).encode(into: &frameBytes)
        // Feed in chunks that never align with frame boundaries.
        var stream: [UInt8] = []
        for _ in 0..<2_000 { stream += frameBytes }
        var count = 0
        var offset = 0
        while offset < stream.count {
            let end = min(stream.count, offset + 1_337)
            decoder.append(Array(stream[offset..<end]))
            offset = end
            while try decoder.nextFrame() != nil { count += 1 }
            #expect(decoder.bufferedByteCount < 1_016 + 1_337)
        }
        #expect(count == 2_000)
        #expect(decoder.bufferCapacity < 64 * 1_024)
    }

    @Test("The buffer grows with the bytes that arrived, not with the length a header announces")
    func announcedLengthIsNotReserved() throws {
        var decoder = FrameDecoder(role: .server, maxFrameSize: 4 << 20, expectingPreface: false)
        var frameBytes: [UInt8] = []
        Frame(type: .request, callID: 1, code: 1, body: Array(repeating: 7, count: 4 << 20 - 16)).encode(into: &frameBytes)
        decoder.append(Array(frameBytes[..<(16 + 1_024)]))
        #expect(try decoder.nextFrame() == nil)
        #expect(decoder.holdsIncompleteFrame)
        #expect(decoder.bufferCapacity < 16 * 1_024)
        decoder.append(Array(frameBytes[(16 + 1_024)...]))
        #expect(try decoder.nextFrame()?.body.count == 4 << 20 - 16)
        // The large allocation is given back once the frame is consumed.
        #expect(!decoder.holdsIncompleteFrame)
        #expect(decoder.bufferCapacity <= FrameDecoder.retainedCapacity)
    }

    @Test("A refusal preface is followed by the GOAWAY that explains it")
    func refusalThenGoAway() throws {
        var stream: [UInt8] = []
        let error = ProtocolError(.unsupportedVersion, "this server speaks protocol versions 1...1")
        Handshake.writeRefusal(error, goAwayPayload: [0x0A, 0x01, 0x78], into: &stream)
        let decoded = try decodeAll([stream], role: .client)
        #expect(decoded.preface == .refusal)
        #expect(decoded.frames == [Frame(type: .goAway, callID: 0, code: 9, body: [0x0A, 0x01, 0x78])])
        #expect(decoded.frames.first?.status == .failedPrecondition)
    }
}
