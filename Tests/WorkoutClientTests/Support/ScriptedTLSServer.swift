#if canImport(WorkoutTLS)
import Foundation
import SwiftProtobuf
import WorkoutClient
import WorkoutProtocol
import WorkoutServer
import WorkoutTLS
#if canImport(Glibc)
import Glibc
#endif

/// A TLS server played by the test, for what a faulty or hostile server does around the
/// handshake: it completes the handshake with a key of its own and sends the plaintext it is
/// given in the same write as its last handshake message. With TLS 1.2, whose server sends the
/// last message (its Finished), that is the same TCP segment, so the client reads the server's
/// words together with the end of the handshake, before it could check the server's key.
///
/// Every blocking wait is bounded, so a test never hangs. Call its methods inside `blocking { }`.
///
/// Safe to send between threads because: a test drives it from one thread at a time.
final class ScriptedTLSServer: @unchecked Sendable {
    /// The server's key and certificate (a fresh one).
    let identity: ServerIdentity
    private let listener: ScriptedServer
    private let context: TLSContext

    /// Listens on loopback with a fresh identity, agreeing on `newestVersion` at the most.
    init(newestVersion: TLSContext.NewestVersion) throws {
        identity = try ServerIdentity.generate().0
        context = try TLSContext.server(
            certificatePEM: identity.certificatePEM, privateKeyPEM: identity.privateKeyPEM, newestVersion: newestVersion)
        listener = try ScriptedServer()
    }

    /// The address a client connects to.
    var address: ServerAddress { listener.address }

    /// Accepts the next connection and completes its TLS handshake, sending `firstWords` (the
    /// protocol's bytes, in the clear inside TLS) in the same write as the handshake's last
    /// message the server sends, and with `closing`, its close_notify after them.
    func accept(sendingAtOnce firstWords: [UInt8], closing: Bool = false, timeout: Double = 20) throws -> ScriptedTLSPeer {
        let descriptor = try listener.acceptDescriptor(timeout: timeout)
        let session: TLSSession
        do {
            session = try TLSSession(context: context)
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        let peer = ScriptedTLSPeer(descriptor: descriptor, session: session)
        try peer.handshake(sendingAtOnce: firstWords, closing: closing, timeout: timeout)
        return peer
    }

    /// The bytes of the server's preface and a GOAWAY with `code` and `message`.
    static func prefaceAndGoAway(_ code: StatusCode, _ message: String) throws -> [UInt8] {
        var out: [UInt8] = []
        Preface.accepting(1).encode(into: &out)
        var status = Workout_V1_RpcStatus()
        status.message = message
        try FrameEncoder(maxFrameSize: 4 << 20).append(.goAway, callID: 0, code: code.rawValue, body: status.serializedBytes(), to: &out)
        return out
    }
}

/// The server's end of one scripted TLS connection.
final class ScriptedTLSPeer: @unchecked Sendable {
    private let descriptor: Int32
    private let session: TLSSession
    private var decoder = FrameDecoder(role: .server)
    private let encoder = FrameEncoder(maxFrameSize: 4 << 20)
    /// All the plaintext the client has sent so far.
    private(set) var plaintextReceived = 0

    fileprivate init(descriptor: Int32, session: TLSSession) {
        self.descriptor = descriptor
        self.session = session
    }

    deinit { Glibc.close(descriptor) }

    fileprivate func handshake(sendingAtOnce firstWords: [UInt8], closing: Bool, timeout: Double) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !session.isHandshakeComplete {
            guard try receive(until: deadline) else { throw ScriptedServer.Closed() }
            if try session.advanceHandshake() {
                // Encrypted behind the server's last handshake message, sent in one write with it.
                if !firstWords.isEmpty {
                    let taken = try firstWords.withUnsafeBytes { try session.writePlaintext($0) }
                    guard taken == firstWords.count else { throw ScriptedServer.Closed() }
                }
                if closing { session.close() }
            }
            sendPending()
        }
    }

    /// The next frame from the client, within `timeout` seconds.
    func readFrame(timeout: Double = 20) throws -> Frame {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if decoder.peerPreface == nil { _ = try decoder.readPreface() }
            if decoder.peerPreface != nil, let frame = try decoder.nextFrame() { return frame }
            guard try receive(until: deadline) else { throw ScriptedServer.Closed() }
        }
    }

    /// Reads until the client closes the connection (true) or `timeout` passes (false),
    /// counting the plaintext in ``plaintextReceived``.
    func awaitClose(timeout: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        do {
            while try receive(until: deadline) {}
            return true
        } catch is ScriptedServer.TimedOut {
            return false
        } catch {
            return true  // a broken TLS session is a closed one too
        }
    }

    /// Answers a call with an error status.
    func fail(_ callID: UInt32, _ code: StatusCode, _ message: String) throws {
        var status = Workout_V1_RpcStatus()
        status.message = message
        var out: [UInt8] = []
        try encoder.append(.response, callID: callID, code: code.rawValue, body: status.serializedBytes(), to: &out)
        var offset = 0
        while offset < out.count {
            offset += try out[offset...].withUnsafeBytes { try session.writePlaintext($0) }
        }
        sendPending()
    }

    /// Reads what the socket has within the deadline into the session, and decrypts what it can
    /// into the frame decoder; false at the end of the stream.
    private func receive(until deadline: Date) throws -> Bool {
        let chunk = try ScriptedServer.receive(from: descriptor, until: deadline)
        guard !chunk.isEmpty else { return false }
        try chunk.withUnsafeBytes { try session.receive($0) }
        guard session.isHandshakeComplete else { return true }
        var plaintext = [UInt8](repeating: 0, count: 65_536)
        while true {
            let read = try plaintext.withUnsafeMutableBytes { try session.readPlaintext(into: $0) }
            if read == 0 { break }
            plaintextReceived += read
            decoder.append(Array(plaintext[..<read]))
        }
        sendPending()
        return !session.peerClosed
    }

    /// Sends all the ciphertext the session has made, in one write where the socket takes it.
    private func sendPending() {
        while session.hasPendingCiphertext {
            let sent = session.pendingCiphertext { bytes in send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return }
            session.ciphertextSent(sent)
        }
    }
}
#endif
