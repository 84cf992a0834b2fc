@testable import WorkoutProtocol

/// A small deterministic generator (SplitMix64), so random splits are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Bytes from a hex string ("57 4B…" or "574b…").
func bytes(hex: String) -> [UInt8] {
    let digits = hex.filter { !$0.isWhitespace }
    precondition(digits.count.isMultiple(of: 2))
    var result: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        result.append(UInt8(digits[index..<next], radix: 16)!)
        index = next
    }
    return result
}

/// Encodes a header alone.
func headerBytes(_ header: FrameHeader) -> [UInt8] {
    var buffer: [UInt8] = []
    header.encode(into: &buffer)
    return buffer
}

/// Runs a decoder over chunks of a stream: reads the preface (when expected) and every
/// frame after each chunk, and returns the frames.
func decodeAll(
    _ chunks: [[UInt8]],
    role: FrameDecoder.Role,
    maxFrameSize: Int = Handshake.preHelloMaxFrameSize,
    expectingPreface: Bool = true
) throws -> (preface: Preface?, frames: [Frame]) {
    var decoder = FrameDecoder(role: role, maxFrameSize: maxFrameSize, expectingPreface: expectingPreface)
    var preface: Preface?
    var frames: [Frame] = []
    for chunk in chunks {
        decoder.append(chunk)
        if expectingPreface && preface == nil {
            preface = try decoder.readPreface()
            if preface == nil { continue }
        }
        while let frame = try decoder.nextFrame() {
            frames.append(frame)
        }
    }
    return (preface, frames)
}

/// Splits bytes into chunks of the given sizes (the last chunk takes the rest).
func split(_ stream: [UInt8], sizes: some Sequence<Int>) -> [[UInt8]] {
    var chunks: [[UInt8]] = []
    var start = 0
    for size in sizes where start < stream.count {
        let end = min(stream.count, start + size)
        chunks.append(Array(stream[start..<end]))
        start = end
    }
    if start < stream.count { chunks.append(Array(stream[start...])) }
    return chunks
}

/// A valid client → server stream: preface, HELLO, requests (one with a deadline, one
/// compressed), a cancel, a ping, a pong (clients never send GOAWAY).
func sampleClientStream() -> (bytes: [UInt8], frames: [Frame]) {
    let compressedBody = Compression.deflate(Array(repeating: UInt8(ascii: "a"), count: 3_000))
    let frames = [
        Frame(type: .hello, body: [0x0A, 0x03, 0x63, 0x6C, 0x69]),
        Frame(type: .request, callID: 1, code: 7, body: Array(0..<100)),
        Frame(type: .request, callID: 2, code: 8, deadline: 1_500, body: [1, 2, 3]),
        Frame(type: .request, callID: 3, code: 9, isCompressed: true, body: compressedBody),
        Frame(type: .request, callID: 4, code: 1, deadline: 0, body: []),
        Frame(type: .cancel, callID: 2),
        Frame(type: .ping, body: [1, 2, 3, 4, 5, 6, 7, 8]),
        Frame(type: .pong, body: [8, 7, 6, 5, 4, 3, 2, 1]),
    ]
    var bytes: [UInt8] = []
    Preface(offering: 1...1).encode(into: &bytes)
    for frame in frames { frame.encode(into: &bytes) }
    return (bytes, frames)
}

/// A valid server → client stream: preface, HELLO, a response, a stream, a goaway.
func sampleServerStream() -> (bytes: [UInt8], frames: [Frame]) {
    let frames = [
        Frame(type: .hello, body: [0x08, 0x01]),
        Frame(type: .response, callID: 1, code: 0, body: Array(repeating: 0x42, count: 300)),
        Frame(type: .streamMessage, callID: 3, body: [1]),
        Frame(type: .streamMessage, callID: 3, isCompressed: true, body: Compression.deflate(Array(repeating: 9, count: 5_000))),
        Frame(type: .streamEnd, callID: 3, code: 5, body: [0x0A, 0x01, 0x78]),
        Frame(type: .ping, body: [0, 0, 0, 0, 0, 0, 0, 1]),
        Frame(type: .goAway, callID: 3, code: 14, body: []),
    ]
    var bytes: [UInt8] = []
    Preface.accepting(1).encode(into: &bytes)
    for frame in frames { frame.encode(into: &bytes) }
    return (bytes, frames)
}

extension Preface {
    /// The 8 bytes.
    var encodedBytes: [UInt8] {
        var buffer: [UInt8] = []
        encode(into: &buffer)
        return buffer
    }
}

extension Frame {
    /// The frame's bytes as `encode(into:)` writes them.
    var encodedBytes: [UInt8] {
        var buffer: [UInt8] = []
        encode(into: &buffer)
        return buffer
    }
}
