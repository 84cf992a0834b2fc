import Foundation
import SwiftProtobuf
import Testing
@testable import WorkoutProtocol

/// PROTOCOL.md 4.1: every refusal of a client's preface names the versions the server speaks,
/// and the bytes the server sends are the golden vectors'.
@Suite("Refusals of a client preface")
struct RefusalTests {
    /// A bad client preface, the status it is refused with, and the vector of its GOAWAY.
    struct Case: Sendable, CustomTestStringConvertible {
        let preface: String
        let status: StatusCode
        let vector: String
        var testDescription: String { vector }
    }

    static let cases: [Case] = [
        Case(preface: "47 45 54 20 2F 20 48 54", status: .invalidArgument, vector: "goaway_bad_magic"),
        Case(preface: "57 4B 52 50 01 01 00 01", status: .invalidArgument, vector: "goaway_reserved_bytes"),
        Case(preface: "57 4B 52 50 03 01 00 00", status: .invalidArgument, vector: "goaway_min_above_max"),
        Case(preface: "57 4B 52 50 02 03 00 00", status: .failedPrecondition, vector: "goaway_version_mismatch"),
    ]

    @Test("A refused preface is answered with the refusal preface and its golden GOAWAY, naming the versions", arguments: cases)
    func refusal(_ refused: Case) throws {
        var decoder = FrameDecoder(role: .server)
        decoder.append(bytes(hex: refused.preface))
        let error: ProtocolError
        switch Result(catching: { () throws(ProtocolError) -> Preface? in try decoder.readPreface() }) {
        case .failure(let refusal):
            error = refusal
        case .success(let preface):
            guard let preface, case .failure(let refusal) = Handshake.answer(to: preface) else {
                Issue.record("\(refused.preface) was accepted")
                return
            }
            error = refusal
        }
        #expect(error.status == refused.status)
        #expect(error.message.hasPrefix("this server speaks protocol versions 1...1; "))

        var status = Workout_V1_RpcStatus()
        status.message = error.message
        var sent: [UInt8] = []
        Handshake.writeRefusal(error, goAwayPayload: try status.serializedBytes(), into: &sent)
        let vectors = try GoldenVector.load()
        let refusalPreface = try #require(vectors.first { $0.name == "server_preface_refusal" })
        let goAway = try #require(vectors.first { $0.name == refused.vector })
        #expect(sent == refusalPreface.bytes + goAway.bytes, "\(error.message)")
    }
}
