// The frame decoder's fuzz target. See Fuzz/README.md.
//
// Built with `-sanitize=fuzzer -DFUZZING`, this file's top-level code hands control to
// libFuzzer through `LLVMFuzzerRunDriver` (SwiftPM links executables with
// `--defsym main=<module>_main`, so libFuzzer's own `main` would never run, and
// `-parse-as-library` rejects the replay code below even where `#if` disables it).
// Built normally, the same top-level code replays the files (or directories of files)
// named as arguments through the same function, so CI can replay the committed corpus
// with a plain debug build.

import WorkoutProtocol

#if canImport(Glibc)
import Glibc
#endif

/// A small deterministic generator seeded from the input, for chunk sizes.
struct ChunkSizes {
    private var state: UInt64

    init(_ input: UnsafeRawBufferPointer) {
        var seed: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(input.count)
        for byte in input.suffix(8) { seed = (seed ^ UInt64(byte)) &* 0x100_0000_01B3 }
        state = seed
    }

    /// The next chunk size, 1...97 bytes, sometimes much larger.
    mutating func next() -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state % 8 == 0 ? Int(state >> 40 % 4_096) + 1 : Int(state >> 32 % 97) + 1
    }
}

/// Feeds one side's decoder the input in chunks; checks every invariant it can.
func decodeStream(_ input: UnsafeRawBufferPointer, role: FrameDecoder.Role) {
    var decoder = FrameDecoder(role: role)
    var sizes = ChunkSizes(input)
    var offset = 0
    var prefaceRead = false
    while offset < input.count {
        let end = min(input.count, offset + sizes.next())
        decoder.append(UnsafeRawBufferPointer(rebasing: input[offset..<end]))
        offset = end
        do {
            if !prefaceRead {
                guard let preface = try decoder.readPreface() else { continue }
                prefaceRead = true
                if role == .server { _ = Handshake.answer(to: preface) }
            }
            while let frame = try decoder.nextFrame() {
                check(frame, role: role, limit: decoder.maxFrameSize)
                if frame.type == .hello {
                    // As a connection would after the hello: raise the limit.
                    decoder.maxFrameSize = 1 << 20
                }
            }
        } catch {
            precondition(!error.message.isEmpty, "a protocol error without a message")
            return
        }
        precondition(decoder.bufferedByteCount <= decoder.maxFrameSize + 16 + 4_096 + 8, "decoder buffer grew past its bound")
    }
}

/// Invariants of a decoded frame: it re-encodes to a header that validates, and its body
/// inflates under the cap or fails with a protocol error.
func check(_ frame: Frame, role: FrameDecoder.Role, limit: Int) {
    precondition(frame.payloadLength <= limit, "a frame over the limit was returned")
    var bytes: [UInt8] = []
    frame.encode(into: &bytes)
    precondition(bytes.count == 16 + frame.payloadLength, "re-encoded frame has the wrong size")
    let header = bytes.withUnsafeBytes { FrameHeader.decode(from: $0) }!
    do {
        try header.validate(receivedBy: role, maxPayloadSize: limit)
    } catch {
        preconditionFailure("a returned frame does not validate: \(error)")
    }
    if frame.type != .hello {
        var again = FrameDecoder(role: role, maxFrameSize: limit, expectingPreface: false)
        again.append(bytes)
        precondition((try? again.nextFrame()) == frame, "re-decoding a frame changed it")
    }
    if frame.isCompressed {
        if let body = try? frame.decodedBody(maxDecompressedSize: 1 << 16) {
            precondition(body.count <= 1 << 16, "inflated past the cap")
        }
    }
}

/// One fuzz input: both roles, the header codec, the preface codec and inflate.
func fuzzOneInput(_ input: UnsafeRawBufferPointer) {
    decodeStream(input, role: .server)
    decodeStream(input, role: .client)
    if let header = FrameHeader.decode(from: input) {
        var bytes: [UInt8] = []
        header.encode(into: &bytes)
        precondition(bytes.elementsEqual(input.prefix(16)), "header round trip changed bytes")
    }
    _ = try? Preface.decode(from: input, sentBy: .client)
    if let body = try? Compression.inflate(input, maxSize: 1 << 16) {
        precondition(body.count <= 1 << 16, "inflated past the cap")
    }
}

#if FUZZING
/// libFuzzer's driver (compiler-rt's FuzzerDriver.cpp):
/// `int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size))`.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    fuzzOneInput(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}
exit(status)
#else
import Foundation

/// Writes the seed corpus: a few valid streams of each side.
func writeSeeds(to directory: String) throws {
    var client: [UInt8] = []
    Preface(offering: 1...1).encode(into: &client)
    Frame(type: .hello, body: [0x0A, 0x03, 0x63, 0x6C, 0x69, 0x10, 0x01]).encode(into: &client)
    Frame(type: .request, callID: 1, code: 7, body: Array(0..<100)).encode(into: &client)
    Frame(type: .request, callID: 2, code: 8, deadline: 1_500, body: [1, 2, 3]).encode(into: &client)
    let encoder = FrameEncoder(maxFrameSize: 1 << 20, compressionEnabled: true)
    try encoder.append(.request, callID: 3, code: 9, body: Array(repeating: 0x61, count: 2_000), to: &client)
    Frame(type: .cancel, callID: 2).encode(into: &client)
    Frame(type: .ping, body: [1, 2, 3, 4, 5, 6, 7, 8]).encode(into: &client)
    Frame(type: .goAway, callID: 3).encode(into: &client)

    var server: [UInt8] = []
    Preface.accepting(1).encode(into: &server)
    Frame(type: .hello, body: [0x08, 0x01, 0x20, 0x80, 0x80, 0x80, 0x02]).encode(into: &server)
    Frame(type: .response, callID: 1, body: Array(repeating: 0x42, count: 40)).encode(into: &server)
    try encoder.append(.streamMessage, callID: 3, body: Array(repeating: 0x00, count: 3_000), to: &server)
    Frame(type: .streamEnd, callID: 3, code: 5, body: [0x0A, 0x01, 0x78]).encode(into: &server)
    Frame(type: .pong, body: [1, 2, 3, 4, 5, 6, 7, 8]).encode(into: &server)
    Frame(type: .goAway, callID: 3, code: 14).encode(into: &server)

    var refusal: [UInt8] = []
    Handshake.writeRefusal(
        ProtocolError(.unsupportedVersion, "this server speaks protocol versions 1...1"),
        goAwayPayload: [0x0A, 0x04, 0x6E, 0x6F, 0x70, 0x65], into: &refusal)

    let seeds = [("client-stream", client), ("server-stream", server), ("refusal", refusal),
                 ("zlib-body", Compression.deflate(Array(repeating: 0x7A, count: 5_000)))]
    for (name, bytes) in seeds {
        try Data(bytes).write(to: URL(fileURLWithPath: directory).appendingPathComponent(name))
    }
}

/// Replays every file named, or found in a directory named, through the fuzz function.
func replay(_ paths: [String]) throws -> Int {
    var count = 0
    for path in paths {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        let files = isDirectory.boolValue
            ? try FileManager.default.contentsOfDirectory(atPath: path).sorted().map { path + "/" + $0 }
            : [path]
        for file in files {
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            data.withUnsafeBytes { fuzzOneInput($0) }
            count += 1
        }
    }
    return count
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "--write-seeds", arguments.count == 2 {
        try writeSeeds(to: arguments[1])
    } else if arguments.isEmpty || arguments.first!.hasPrefix("-") {
        print("usage: workout-fuzz-frames FILE_OR_DIRECTORY...   (replay a corpus)")
        print("       workout-fuzz-frames --write-seeds DIRECTORY")
        exit(arguments.isEmpty ? 2 : 0)
    } else {
        let count = try replay(arguments)
        print("replayed \(count) inputs: no crash")
    }
} catch {
    print("workout-fuzz-frames: \(error)")
    exit(1)
}
#endif
