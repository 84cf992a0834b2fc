import Testing
@testable import WorkoutProtocol

@Suite("Compression")
struct CompressionTests {
    static let jsonBody: [UInt8] = Array(repeating: Array(#"{"type":"running","minutes":30,"kcal":312}"#.utf8) + [0x0A], count: 40).flatMap { $0 }

    @Test(
        "Deflate reproduces Python's zlib.compress(body, 6) byte for byte",
        arguments: [
            (jsonBody,
             "789cab562aa92c4855b2522a2acdcbcbcc4b57d251cacdcc2b2d492d56b23236d051ca4e4ecc01b20c8d6ab9aa47958e2a1d553aaa7454e9a8d281560a00a97c1a3f"),
            (Array("hello hello hello hello".utf8), "789ccb48cdc9c957c8402701680308b1"),
        ] as [([UInt8], String)]
    )
    func pythonVectors(body: [UInt8], hex: String) throws {
        #expect(Compression.deflate(body) == bytes(hex: hex))
        #expect(try Compression.inflate(bytes(hex: hex), maxSize: body.count) == body)
    }

    @Test("Bodies round trip through deflate and inflate", arguments: [0, 1, 1_023, 1_024, 65_536, 1_000_003])
    func roundTrip(size: Int) throws {
        var generator = SeededGenerator(seed: UInt64(size))
        // Half random, half repetitive, so both stored and compressed blocks appear.
        let body = (0..<size).map { index in index % 2 == 0 ? UInt8.random(in: 0...255, using: &generator) : UInt8(index % 7) }
        let compressed = Compression.deflate(body)
        #expect(try Compression.inflate(compressed, maxSize: size) == body)
    }

    @Test("Inflating exactly to the cap succeeds; one byte more fails")
    func exactCap() throws {
        let body = [UInt8](repeating: 5, count: 10_000)
        let compressed = Compression.deflate(body)
        #expect(try Compression.inflate(compressed, maxSize: 10_000) == body)
        let error = #expect(throws: ProtocolError.self) { try Compression.inflate(compressed, maxSize: 9_999) }
        #expect(error?.code == .decompressedTooLarge)
        #expect(error?.status == .resourceExhausted)
    }

    @Test("A zlib bomb of 64 MiB of zeros stops at the cap")
    func zlibBomb() throws {
        let zeros = [UInt8](repeating: 0, count: 64 << 20)
        let bomb = Compression.deflate(zeros)
        #expect(bomb.count < 100_000)
        // The cap stops inflation (the message names it); how fast is the benchmark's business.
        let error = #expect(throws: ProtocolError.self) {
            try Compression.inflate(bomb, maxSize: HandshakeLimits.defaultMaxFrameSize)
        }
        #expect(error?.code == .decompressedTooLarge)
        #expect(error?.message == "compressed body inflates to more than the limit of 4194304 bytes")
    }

    static let valid = Compression.deflate(Array(repeating: UInt8(ascii: "x"), count: 2_000))

    @Test(
        "Malformed zlib input is INVALID_ARGUMENT",
        arguments: [
            ("garbage", [0xDE, 0xAD, 0xBE, 0xEF]),
            ("empty", []),
            ("header only", [0x78, 0x9C]),
            ("truncated", Array(valid.dropLast(5))),
            ("trailing bytes", valid + [0x00]),
            ("bad checksum", Array(valid.dropLast()) + [valid.last! ^ 0xFF]),
            ("raw deflate without zlib header", Array(valid.dropFirst(2))),
            ("preset dictionary", [0x78, 0xBB, 0x00, 0x00, 0x00, 0x01]),
        ] as [(String, [UInt8])]
    )
    func malformed(name: String, input: [UInt8]) {
        let error = #expect(throws: ProtocolError.self) { try Compression.inflate(input, maxSize: 1 << 20) }
        #expect(error?.code == .malformedCompressedBody, "\(name): \(String(describing: error))")
    }
}
