import SystemCalls
import WorkoutProtocol
import WorkoutTLS

/// What lies between a connection's socket and its ``ServerConnectionMachine``: nothing
/// (plain TCP), or a TLS session over memory BIOs. The connection hands it what the socket
/// read and the plaintext the machine wants sent; it hands the machine plaintext.
///
/// A client that speaks the protocol without TLS to a TLS port is told so in the protocol
/// itself (a refusal preface and a GOAWAY FAILED_PRECONDITION, in the clear) instead of
/// meeting a TLS alert it cannot read.
///
/// Used on its connection's queue only.
final class ConnectionTransport {
    /// What one ``write(to:_:)`` did.
    struct Progress {
        /// Bytes of the machine's plaintext taken.
        var taken: Int
        /// Whether the socket is full (wait for the write source).
        var blocked: Bool
    }

    /// The TLS session, or `nil` for plain TCP.
    private let session: TLSSession?
    /// Why the session could not be made, reported on the first read.
    private var setupFailure: TLSError?
    /// Bytes to send in the clear before closing (the refusal of a plain client).
    private var clearText: [UInt8] = []

    /// A transport for a new connection: TLS when `tls` is given.
    init(tls: TLSContext?) {
        guard let tls else {
            session = nil
            return
        }
        do {
            session = try TLSSession(context: tls)
        } catch {
            session = nil
            setupFailure = error
        }
    }

    /// Whether the connection is encrypted.
    var isEncrypted: Bool { session != nil || setupFailure != nil }

    /// Whether bytes wait for the socket that the machine no longer holds.
    var hasPendingOutput: Bool { session?.hasPendingCiphertext ?? false }

    /// How many bytes wait for the socket that the machine no longer holds (TLS ciphertext).
    var pendingOutputCount: Int { session?.pendingCiphertextCount ?? 0 }

    /// Whether TLS holds part of a record that has not arrived whole (never for plain TCP),
    /// as of the last ``received(_:scratch:deliver:)``.
    var holdsIncompleteRecord: Bool { session?.holdsIncompleteRecord ?? false }

    /// Gives the TLS session's record buffers back while the connection is quiet (nothing for
    /// plain TCP); they are allocated again for the next record.
    func releaseIdleBuffers() {
        session?.releaseBuffers()
    }

    /// Takes bytes read from the socket; hands the plaintext in them to `deliver` (for TLS
    /// decrypted into `scratch`, which may be the buffer `bytes` lies in: they are copied first).
    ///
    /// - Throws: ``TransportFailure`` when the TLS handshake or a record fails, or the peer
    ///   ended the TLS session; its message is for the log.
    func received(
        _ bytes: UnsafeRawBufferPointer, scratch: UnsafeMutableRawBufferPointer, deliver: (UnsafeRawBufferPointer) -> Void
    ) throws(TransportFailure) {
        if let setupFailure { throw TransportFailure(setupFailure.message) }
        guard let session else {
            deliver(bytes)
            return
        }
        do {
            try session.receive(bytes)
            if !session.isHandshakeComplete {
                guard try session.advanceHandshake() else { return }
            }
            while true {
                let count = try session.readPlaintext(into: scratch)
                if count == 0 { break }
                deliver(UnsafeRawBufferPointer(rebasing: scratch[..<count]))
            }
        } catch {
            throw failure(error)
        }
        if session.peerClosed { throw TransportFailure("the peer ended the TLS session") }
    }

    /// Sends what waits, then as much of `plaintext` as the socket takes.
    ///
    /// - Throws: ``SystemCallError`` when the socket fails, ``TransportFailure`` when TLS does.
    func write(to descriptor: Int32, _ plaintext: UnsafeRawBufferPointer) throws -> Progress {
        guard let session else {
            if plaintext.isEmpty { return Progress(taken: 0, blocked: false) }
            let written = try Socket.write(descriptor, plaintext)
            return Progress(taken: written, blocked: written == 0)
        }
        guard try sendPending(session, descriptor) else { return Progress(taken: 0, blocked: true) }
        let taken: Int
        do {
            taken = try session.writePlaintext(plaintext)
        } catch {
            throw TransportFailure(error.message)
        }
        return Progress(taken: taken, blocked: !(try sendPending(session, descriptor)))
    }

    /// Sends the ciphertext waiting; whether all of it went.
    private func sendPending(_ session: TLSSession, _ descriptor: Int32) throws -> Bool {
        while session.hasPendingCiphertext {
            let written = try session.pendingCiphertext { bytes throws(SystemCallError) in try Socket.write(descriptor, bytes) }
            if written == 0 { return false }
            session.ciphertextSent(written)
        }
        return true
    }

    /// The last words before closing (best effort, never blocking): the machine's output
    /// (a GOAWAY, a refusal) encrypted, and the TLS close_notify; or the clear-text refusal
    /// of a client that does not speak TLS.
    func writeLastWords(to descriptor: Int32, _ plaintext: UnsafeRawBufferPointer) {
        if !clearText.isEmpty {
            _ = clearText.withUnsafeBytes { try? Socket.write(descriptor, $0) }
            return
        }
        guard let session else {
            if !plaintext.isEmpty { _ = try? Socket.write(descriptor, plaintext) }
            return
        }
        if session.isHandshakeComplete {
            _ = try? session.writePlaintext(plaintext)
            session.close()
        }
        _ = try? sendPending(session, descriptor)
    }

    /// The failure of a TLS session, for the log; for a client speaking the protocol in the
    /// clear, also its refusal in the clear.
    private func failure(_ error: TLSError) -> TransportFailure {
        guard let session, session.firstBytes.starts(with: Preface.magic) else {
            return TransportFailure(error.message)
        }
        let message = "this server requires TLS; the client spoke the protocol over plain TCP"
        var details = Workout_V1_RpcStatus()
        details.message = message
        clearText = []
        Preface.refusal.encode(into: &clearText)
        Frame(type: .goAway, code: StatusCode.failedPrecondition.rawValue, body: (try? details.serializedBytes()) ?? [])
            .encode(into: &clearText)
        return TransportFailure(message)
    }
}

/// The transport failed: TLS broke, or the peer does not speak it.
struct TransportFailure: Error, CustomStringConvertible {
    /// What happened, for the log.
    var message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
