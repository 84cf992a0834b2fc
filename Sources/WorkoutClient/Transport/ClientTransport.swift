import WorkoutProtocol

/// What lies between a client connection's socket and its ``ClientConnectionMachine``:
/// nothing (plain TCP) or a ``TLSClientEngine``.
///
/// Used on the connection's queue only.
final class ClientTransport {
    /// What one ``write(to:_:)`` did.
    enum Progress {
        /// This many bytes of plaintext were taken (0: nothing more can move now), and
        /// everything produced went to the socket.
        case moved(Int)
        /// This many bytes were taken, and the socket is full: wait for the write source.
        case blocked(Int)
        /// The connection failed.
        case failed(WorkoutError)
    }

    /// The TLS engine, or `nil` for plain TCP.
    let engine: (any TLSClientEngine)?
    private let server: ServerAddress

    init(engine: (any TLSClientEngine)?, server: ServerAddress) {
        self.engine = engine
        self.server = server
    }

    /// Whether ciphertext waits for the socket.
    var hasPendingOutput: Bool { engine?.hasPendingCiphertext ?? false }

    /// What the server's certificate carried, as the connection's queue read it.
    struct PresentedKey: Sendable {
        /// The certificate's public key, DER SubjectPublicKeyInfo; `nil` without a certificate.
        var publicKey: [UInt8]?
        /// The content of its key endorsement extension, if any.
        var endorsements: [UInt8]?
    }

    /// The key the server presented, once the TLS handshake is complete (on the connection's
    /// queue: the engine is not to be touched from anywhere else).
    func presentedKey() -> PresentedKey {
        guard let engine else { return PresentedKey() }
        return PresentedKey(
            publicKey: engine.peerPublicKey, endorsements: engine.peerCertificateExtension(oid: KeyEndorsement.extensionOID))
    }

    /// Whether the transport's own handshake is done: plain TCP, or TLS after its handshake
    /// (application data flows only once the server's key was checked too: ``KeyCheckGate``).
    var isReady: Bool { engine?.isHandshakeComplete ?? true }

    /// Starts the TLS handshake (the ClientHello waits in the pending output).
    func startHandshake() throws(WorkoutError) {
        guard let engine else { return }
        do {
            _ = try engine.advanceHandshake()
        } catch {
            throw explained(error)
        }
    }

    /// Takes bytes read from the socket and hands their plaintext to `deliver`, decrypted into
    /// `scratch` (which may hold `bytes`: they are taken first). Before the server's key is
    /// checked, the connection holds what `deliver` gets (``KeyCheckGate``).
    ///
    /// - Throws: ``WorkoutError`` when TLS fails or the server does not speak it.
    func received(
        _ bytes: UnsafeRawBufferPointer, scratch: UnsafeMutableRawBufferPointer, deliver: (UnsafeRawBufferPointer) -> Void
    ) throws(WorkoutError) {
        guard let engine else {
            deliver(bytes)
            return
        }
        do {
            try engine.receive(bytes)
            if !engine.isHandshakeComplete {
                guard try engine.advanceHandshake() else { return }
            }
            while true {
                let count = try engine.readPlaintext(into: scratch)
                if count == 0 { break }
                deliver(UnsafeRawBufferPointer(rebasing: scratch[..<count]))
            }
        } catch {
            throw explained(error)
        }
        if engine.peerClosed { throw .unavailable("the server ended the TLS session") }
    }

    /// Sends what waits, then as much of `plaintext` as the socket takes; with TLS, plaintext
    /// only once the handshake is complete and `plaintextAllowed` (the server's key was checked).
    func write(to descriptor: Int32, _ plaintext: UnsafeRawBufferPointer, plaintextAllowed: Bool) -> Progress {
        guard let engine else {
            if plaintext.isEmpty { return .moved(0) }
            switch ClientSocket.write(descriptor, plaintext) {
            case .bytes(let count): return .moved(count)
            case .wouldBlock: return .blocked(0)
            case .endOfStream: return .failed(.unavailable("lost the connection to the server"))
            case .failed(let code): return .failed(.unavailable("lost the connection to the server: \(ClientSocket.errorText(code))"))
            }
        }
        if let stop = sendPending(engine, descriptor) { return stop }
        let taken: Int
        do {
            taken = engine.isHandshakeComplete && plaintextAllowed ? try engine.writePlaintext(plaintext) : 0
        } catch {
            return .failed(error)
        }
        switch sendPending(engine, descriptor) {
        case nil: return .moved(taken)
        case .blocked: return .blocked(taken)
        case let other?: return other
        }
    }

    /// Sends the pending ciphertext; `nil` when all of it went, else why not.
    private func sendPending(_ engine: any TLSClientEngine, _ descriptor: Int32) -> Progress? {
        while engine.hasPendingCiphertext {
            switch engine.withPendingCiphertext({ ClientSocket.write(descriptor, $0) }) {
            case .bytes(let count): engine.ciphertextSent(count)
            case .wouldBlock: return .blocked(0)
            case .endOfStream: return .failed(.unavailable("lost the connection to the server"))
            case .failed(let code): return .failed(.unavailable("lost the connection to the server: \(ClientSocket.errorText(code))"))
            }
        }
        return nil
    }

    /// The most Unicode scalars of a refusal sent before TLS that an error repeats.
    static let maxUnverifiedWords = 200

    /// Words sent in the clear, by whoever answered at the server's address (nothing proves who):
    /// fit to repeat in an error shown on a terminal or a screen. Control and format characters
    /// (escape sequences, direction overrides) are dropped, and at most
    /// ``maxUnverifiedWords`` Unicode scalars are kept.
    static func unverifiedWords(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: continue
            default: break
            }
            guard count < maxUnverifiedWords else { return String(kept) + "…" }
            kept.append(scalar)
            count += 1
        }
        return String(kept)
    }

    /// A TLS failure, explained when the server answered in the protocol's clear text (it
    /// does not speak TLS on this port).
    private func explained(_ error: WorkoutError) -> WorkoutError {
        guard let engine, engine.firstBytes.starts(with: Preface.magic) else {
            return WorkoutError(code: .unavailable, message: "TLS with \(server) failed: \(error.message)")
        }
        // A TLS server refuses a connection over its limits before any TLS, in the clear
        // (RESOURCE_EXHAUSTED, or UNAVAILABLE while stopping): say its reason, and try again later.
        var decoder = FrameDecoder(role: .client)
        decoder.append(engine.firstBytes)
        if let preface = try? decoder.readPreface(), preface.isRefusal, let frame = try? decoder.nextFrame(), frame.type == .goAway,
            frame.status == .resourceExhausted || frame.status == .unavailable
        {
            let details = try? Workout_V1_RpcStatus(serializedBytes: frame.body)
            let reason = details.map { Self.unverifiedWords($0.message) } ?? ""
            return WorkoutError(
                code: frame.status,
                message: "the server at \(server) refused the connection before TLS: \(reason.isEmpty ? frame.status.description : reason)")
        }
        return WorkoutError(TrustFailure(.serverSpeaksPlainTCP, address: server))
    }
}
