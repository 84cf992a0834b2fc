import Testing
@testable import WorkoutProtocol

@Suite("Handshake")
struct HandshakeTests {
    @Test(
        "The server chooses the highest version both speak",
        arguments: [
            (1...1, 1...1, 1),
            (1...5, 1...1, 1), (1...5, 2...3, 3), (0...1, 1...1, 1), (3...4, 1...9, 4),
        ] as [(ClosedRange<UInt8>, ClosedRange<UInt8>, UInt8)]
    )
    func negotiation(offered: ClosedRange<UInt8>, supported: ClosedRange<UInt8>, chosen: UInt8) throws {
        #expect(try Handshake.negotiateVersion(offered: offered, supported: supported) == chosen)
    }

    @Test("A client offering versions the server does not speak gets a refusal naming what it speaks")
    func refusalMessage() {
        let error = #expect(throws: ProtocolError.self) { try Handshake.negotiateVersion(offered: 2...3) }
        #expect(error?.code == .unsupportedVersion)
        #expect(error?.status == .failedPrecondition)
        #expect(error?.message == "this server speaks protocol versions 1...1; the client offered 2...3")
        let zero = #expect(throws: ProtocolError.self) { try Handshake.negotiateVersion(offered: 0...0) }
        #expect(zero?.code == .unsupportedVersion)
    }

    @Test(
        "Prefaces encode to their 8 bytes and decode back",
        arguments: [
            (Preface(offering: 1...1), "574B5250 01 01 0000", Preface.Sender.client),
            (Preface(offering: 1...3), "574B5250 01 03 0000", .client),
            (Preface.accepting(1), "574B5250 01 01 0000", .server),
            (Preface.refusal, "574B5250 00 00 0000", .server),
        ] as [(Preface, String, Preface.Sender)]
    )
    func prefaceRoundTrip(preface: Preface, hex: String, sender: Preface.Sender) throws {
        var buffer: [UInt8] = []
        preface.encode(into: &buffer)
        #expect(buffer == bytes(hex: hex))
        let decoded = try buffer.withUnsafeBytes { try Preface.decode(from: $0, sentBy: sender) }
        #expect(decoded == preface)
    }

    @Test("The server answers an acceptable preface with the chosen version, and refuses others")
    func answers() throws {
        #expect(try Handshake.answer(to: Preface(offering: 1...4)).get() == .accepting(1))
        guard case .failure(let error) = Handshake.answer(to: Preface(offering: 2...3)) else {
            Issue.record("expected a refusal")
            return
        }
        #expect(error.status == .failedPrecondition)
        guard case .failure(let inverted) = Handshake.answer(to: Preface(minVersion: 3, maxVersion: 1)) else {
            Issue.record("expected a refusal")
            return
        }
        #expect(inverted.code == .invalidPreface)
    }

    @Test("Each side learns the other's preface, and a refusal arrives with its GOAWAY")
    func bothSides() throws {
        let clientDecoded = try decodeAll([sampleServerStream().bytes], role: .client)
        #expect(clientDecoded.preface == .accepting(1))
        let serverDecoded = try decodeAll([sampleClientStream().bytes], role: .server)
        #expect(serverDecoded.preface?.versions == 1...1)

        var refusal: [UInt8] = []
        Handshake.writeRefusal(ProtocolError(.badMagic, "bad magic"), goAwayPayload: [], into: &refusal)
        #expect(refusal == bytes(hex: "574B5250 00 00 0000  00000000 09 00 0000 00000000 00000003"))
    }

    @Test("Default limits are 4 MiB frames and 64 calls, and HELLO limits are range checked")
    func limits() throws {
        let limits = HandshakeLimits.default
        #expect(limits.maxFrameSize == 4_194_304)
        #expect(limits.maxCallsInFlight == 64)
        #expect(limits.maxDecompressedSize == limits.maxFrameSize)
        try limits.validate()
        #expect(throws: ProtocolError.self) { try HandshakeLimits(maxFrameSize: 1_000).validate() }
        #expect(throws: ProtocolError.self) { try HandshakeLimits(maxFrameSize: 128 << 20).validate() }
        #expect(throws: ProtocolError.self) { try HandshakeLimits(maxCallsInFlight: 0).validate() }
    }
}
