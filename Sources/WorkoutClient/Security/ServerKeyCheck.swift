import Synchronization

/// The client's check of the key a server presented in a TLS handshake, which a
/// ``WorkoutTransport`` runs before it completes the handshake: the key's fingerprint against
/// the pins of ``ServerTrust`` (trust on first use, rotations, the expected fingerprint).
///
/// The client remembers the outcome: a connection whose transport did not run the check, or
/// ran it and went on after a refusal, is refused before anything of the protocol is sent.
public final class ServerKeyCheck: Sendable {
    /// The certificate extension that carries a rotated key's endorsements (PROTOCOL.md §3.3).
    public static let endorsementExtensionOID = "2.25.1719476253412847629"

    private let trust: ServerTrust
    private let address: ServerAddress
    private let outcome = Mutex<Result<ServerFingerprint, WorkoutError>?>(nil)

    init(trust: ServerTrust, address: ServerAddress) {
        self.trust = trust
        self.address = address
    }

    /// Checks the server's leaf certificate, as the TLS handshake delivered it: its
    /// `subjectPublicKeyInfo` (exactly as the certificate carries it) and its endorsement
    /// extension, if any. Nothing else of the certificate is looked at (not its issuer, names,
    /// dates or signature): the server's certificate is self-signed.
    ///
    /// - Parameter certificate: The leaf certificate, DER (what `SecCertificateCopyData` gives).
    /// - Throws: ``WorkoutError`` with ``WorkoutError/trust`` when the key is not trusted;
    ///   `FAILED_PRECONDITION` when the certificate is not DER X.509.
    public func check(certificate: [UInt8]) async throws(WorkoutError) {
        guard let fields = CertificateFields(der: certificate) else {
            let error = WorkoutError(code: .failedPrecondition, message: "the server at \(address) presented a certificate that is not X.509 DER")
            outcome.withLock { $0 = .failure(error) }
            throw error
        }
        try await check(publicKey: fields.subjectPublicKeyInfo, endorsements: fields.extensionValue(oid: Self.endorsementExtensionOID))
    }

    /// Checks the server's key given as its parts.
    ///
    /// - Parameters:
    ///   - publicKey: The leaf certificate's `subjectPublicKeyInfo`, DER, exactly as the
    ///     certificate carries it (not re-encoded from a decoded key).
    ///   - endorsements: The content of the certificate's extension ``endorsementExtensionOID``
    ///     (its `extnValue` octets), or `nil` without one.
    /// - Throws: ``WorkoutError`` with ``WorkoutError/trust`` when the key is not trusted.
    public func check(publicKey: [UInt8], endorsements: [UInt8]?) async throws(WorkoutError) {
        do {
            try await trust.check(publicKey: publicKey, endorsements: endorsements, address: address)
        } catch {
            outcome.withLock { $0 = .failure(error) }
            throw error
        }
        outcome.withLock { outcome in
            // A refusal stays a refusal, whatever the transport calls afterwards.
            if case .failure = outcome { return }
            outcome = .success(ServerFingerprint(publicKey: publicKey))
        }
    }

    /// The fingerprint of the key the check accepted, or why it refused, or `nil` when it did not run.
    var result: Result<ServerFingerprint, WorkoutError>? {
        outcome.withLock { $0 }
    }
}
