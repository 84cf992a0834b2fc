import Benchmark
import WorkoutProtocol

/// The framing layer alone, per frame: bodies are opaque bytes, so nothing here includes
/// protobuf's work. Each iteration handles 1,000 frames (the scaling factor), so the figures
/// are per frame.
enum FrameCodecBenchmarks {
    static func register() {
        let configuration = Benchmark.Configuration(scalingFactor: .kilo)
        let frames = configuration.scalingFactor.rawValue
        let body = [UInt8](repeating: 0x5A, count: 100)

        Benchmark("frame: encode REQUEST, 100-byte body, into a reused batch buffer", configuration: configuration) { benchmark in
            let encoder = FrameEncoder(maxFrameSize: HandshakeLimits.defaultMaxFrameSize, compressionEnabled: true)
            var batch: [UInt8] = []
            batch.reserveCapacity(frames * 128)
            benchmark.startMeasurement()
            body.withUnsafeBytes { bytes in
                for callID in 1...UInt32(frames) {
                    do {
                        try encoder.append(.request, callID: callID, code: 7, body: bytes, to: &batch)
                    } catch {
                        benchmark.error("encoding failed: \(error)")
                    }
                }
            }
            blackHole(batch.count)
        }

        var encoded: [UInt8] = []
        for callID in 1...UInt32(frames) {
            Frame(type: .request, callID: callID, code: 7, body: body).encode(into: &encoded)
        }

        Benchmark("frame: decode REQUEST, 100-byte body, with the incremental decoder", configuration: configuration) { benchmark in
            var decoder = FrameDecoder(role: .server, maxFrameSize: HandshakeLimits.defaultMaxFrameSize, expectingPreface: false)
            benchmark.startMeasurement()
            decoder.append(encoded)
            var total = 0
            do {
                while let frame = try decoder.nextFrame() {
                    total &+= frame.body.count
                }
            } catch {
                benchmark.error("decoding failed: \(error)")
            }
            if total != frames * body.count { benchmark.error("decoded \(total) body bytes, not \(frames * body.count)") }
            blackHole(total)
        }

        Benchmark("frame: header only, encode into a raw buffer", configuration: configuration) { _ in
            var slot = [UInt8](repeating: 0, count: FrameHeader.size)
            slot.withUnsafeMutableBytes { slot in
                for callID in 1...UInt32(frames) {
                    FrameHeader(length: 100, type: .request, callID: callID, code: 7).encode(to: slot)
                }
            }
            blackHole(slot)
        }

        Benchmark("frame: header only, decode and validate from a raw buffer", configuration: configuration) { benchmark in
            encoded.withUnsafeBytes { bytes in
                var offset = 0
                var sum: UInt32 = 0
                for _ in 0..<frames {
                    guard let header = FrameHeader.decode(from: UnsafeRawBufferPointer(rebasing: bytes[offset...])) else {
                        benchmark.error("a header did not decode")
                        return
                    }
                    do {
                        try header.validate(receivedBy: .server, maxPayloadSize: HandshakeLimits.defaultMaxFrameSize)
                    } catch {
                        benchmark.error("a header did not validate: \(error)")
                        return
                    }
                    sum &+= header.callID
                    offset += FrameHeader.size + Int(header.length)
                }
                blackHole(sum)
            }
        }
    }
}
