// Micro-benchmarks of the framing layer (google/swift-benchmark).
//
//   swift build -c release --scratch-path .build-release --product workout-microbench
//   .build-release/release/workout-microbench
//
// Each iteration handles `framesPerIteration` frames, so divide the reported time by
// 1,000 for nanoseconds per frame. Nothing here includes protobuf's own work: bodies are
// opaque bytes.

import Benchmark
import WorkoutProtocol

/// Frames handled per benchmark iteration (timer overhead would swamp a single frame).
let framesPerIteration = 1_000

/// Keeps a value alive so the optimizer cannot drop the work that made it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

func registerBenchmarks() {
    let body = [UInt8](repeating: 0x5A, count: 100)
    let encoder = FrameEncoder(maxFrameSize: HandshakeLimits.defaultMaxFrameSize, compressionEnabled: true)

    var batch: [UInt8] = []
    batch.reserveCapacity(framesPerIteration * 128)
    benchmark("encode REQUEST, 100-byte body, into a reused batch buffer (x1000)") {
        batch.removeAll(keepingCapacity: true)
        try body.withUnsafeBytes { bytes in
            for callID in 1...UInt32(framesPerIteration) {
                try encoder.append(.request, callID: callID, code: 7, body: bytes, to: &batch)
            }
        }
        blackHole(batch.count)
    }

    var encoded: [UInt8] = []
    for callID in 1...UInt32(framesPerIteration) {
        Frame(type: .request, callID: callID, code: 7, body: body).encode(into: &encoded)
    }
    var decoder = FrameDecoder(
        role: .server, maxFrameSize: HandshakeLimits.defaultMaxFrameSize, expectingPreface: false)
    benchmark("decode REQUEST, 100-byte body, with the incremental decoder (x1000)") {
        decoder.append(encoded)
        var total = 0
        while let frame = try decoder.nextFrame() {
            total &+= frame.body.count
        }
        precondition(total == framesPerIteration * 100)
        blackHole(total)
    }

    var headerSlot = [UInt8](repeating: 0, count: FrameHeader.size)
    benchmark("header only: encode into a raw buffer (x1000)") {
        headerSlot.withUnsafeMutableBytes { slot in
            for callID in 1...UInt32(framesPerIteration) {
                FrameHeader(length: 100, type: .request, callID: callID, code: 7).encode(to: slot)
            }
        }
        blackHole(headerSlot)
    }

    benchmark("header only: decode and validate from a raw buffer (x1000)") {
        try encoded.withUnsafeBytes { bytes in
            var offset = 0
            var sum: UInt32 = 0
            for _ in 0..<framesPerIteration {
                let header = FrameHeader.decode(from: UnsafeRawBufferPointer(rebasing: bytes[offset...]))!
                try header.validate(receivedBy: .server, maxPayloadSize: HandshakeLimits.defaultMaxFrameSize)
                sum &+= header.callID
                offset += FrameHeader.size + Int(header.length)
            }
            blackHole(sum)
        }
    }
}

registerBenchmarks()
Benchmark.main()
