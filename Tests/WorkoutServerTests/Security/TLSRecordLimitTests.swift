import Foundation
import ServerTestSupport
import TestSupport
import Testing
import WorkoutProtocol
import WorkoutServer

/// A TLS record must arrive whole within the frame timeout, as a frame must (PROTOCOL.md §15):
/// a device may not keep half of a 16 KiB record in the server until the idle timeout.
@Suite("A half-sent TLS record is bounded like a frame")
struct TLSRecordLimitTests {
    @Test("Half a TLS record after the handshakes is answered GOAWAY DEADLINE_EXCEEDED and closed at the frame timeout")
    func halfRecordIsDropped() async throws {
        try await withServer(tls: true, configure: {
            $0.frameTimeout = .seconds(1)
            $0.sessionlessIdleTimeout = .seconds(120)
            $0.idleTimeout = .seconds(120)
        }) { _, _, port in
            let (elapsed, frames, quietStayedOpen) = try await blocking {
                // A connection that sends nothing after the handshakes is not held to it.
                let quiet = try TestConnection(port: port, timeout: 2.5)
                try quiet.handshake()
                let quietStayedOpen = !quiet.isClosedByServer()

                let device = try TestConnection(port: port, timeout: 5)
                try device.handshake()
                // Half of one full 16 KiB record (never decrypted, so its plaintext does not matter).
                let started = ContinuousClock.now
                try device.sendPartOfRecords([UInt8](repeating: 0x41, count: 16 << 10), count: 8 << 10)
                let frames = try device.readUntilClosed()
                return (ContinuousClock.now - started, frames, quietStayedOpen)
            }
            #expect(quietStayedOpen, "a connection without a half record was closed within 2.5 s")
            #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(4), "closed after \(elapsed)")
            let goAway = frames.last { $0.type == .goAway }
            #expect(goAway.map { StatusCode(rawValue: $0.code) } == .deadlineExceeded)
            #expect(goAway.flatMap { try? TestConnection.status(of: $0).1.message }?.hasPrefix("a TLS record did not arrive whole") == true)
        }
    }
}
