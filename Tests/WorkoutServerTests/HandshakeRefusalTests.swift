import Foundation
import ServerTestSupport
import Testing
import TestSupport
import WorkoutProtocol
import WorkoutServer

/// What a client sees when the server refuses it during the handshake: PROTOCOL.md 4.1 (a
/// refused preface: version 0/0, then a GOAWAY naming the versions the server speaks) and the
/// 24 checklist (after a good preface, a GOAWAY may come instead of, or right after, the HELLO).
@Suite("Refusals during the handshake, live")
struct HandshakeRefusalTests {
    @Test("Something that is not a Workout client gets the refusal preface and a GOAWAY naming the versions")
    func badMagic() async throws {
        try await withServer { _, _, port in
            let connection = try TestConnection(port: port)
            // Lower-case: a first byte A-Z other than W would be taken for an HTTP request line.
            try connection.write(Array("ping me, server\r\n\r\n".utf8))
            #expect(try connection.readPreface() == .refusal)
            let goAway = try connection.readFrame()
            #expect(goAway.type == .goAway && goAway.callID == 0 && goAway.status == .invalidArgument)
            let message = try Workout_V1_RpcStatus(serializedBytes: goAway.body).message
            #expect(message.hasPrefix("this server speaks protocol versions 1...1; bad preface magic 70"), "\(message)")
            #expect(connection.isClosedByServer())
        }
    }

    @Test("After a good preface, a first frame that is not a HELLO is answered by a GOAWAY, then the close")
    func goAwayAfterGoodPreface() async throws {
        try await withServer { _, _, port in
            let connection = try TestConnection(port: port)
            var bytes: [UInt8] = []
            Preface(offering: 1...1).encode(into: &bytes)
            Frame(type: .ping, body: [0, 1, 2, 3, 4, 5, 6, 7]).encode(into: &bytes)
            try connection.write(bytes)
            #expect(try connection.readPreface() == .accepting(1))
            // The server may have sent its HELLO before it read the PING (PROTOCOL.md 4.2);
            // either way a GOAWAY comes before the close, and nothing else.
            var frames = try connection.readUntilClosed()
            if frames.first?.type == .hello { frames.removeFirst() }
            #expect(frames.map(\.type) == [.goAway])
            #expect(frames.first?.status == .invalidArgument)
            #expect(frames.first?.callID == 0)
        }
    }
}
