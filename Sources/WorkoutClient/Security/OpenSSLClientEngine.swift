#if canImport(WorkoutTLS)
import WorkoutTLS

/// The client's TLS engine on Linux: OpenSSL through ``TLSSession`` (memory BIOs).
final class OpenSSLClientEngine: TLSClientEngine {
    private let session: TLSSession

    /// The context every client session is made from (TLS 1.2+, no authority).
    private static let context: Result<TLSContext, TLSError> = Result { () throws(TLSError) in try TLSContext.client() }

    /// A new session.
    ///
    /// - Throws: ``WorkoutError`` (`INTERNAL`) when OpenSSL cannot make one.
    init() throws(WorkoutError) {
        do {
            session = try TLSSession(context: try Self.context.get())
        } catch {
            throw WorkoutError(code: .internal, message: "cannot start TLS: \(error.message)")
        }
    }

    func receive(_ ciphertext: UnsafeRawBufferPointer) throws(WorkoutError) {
        do { try session.receive(ciphertext) } catch { throw Self.wrap(error) }
    }

    func advanceHandshake() throws(WorkoutError) -> Bool {
        do { return try session.advanceHandshake() } catch { throw Self.wrap(error) }
    }

    var isHandshakeComplete: Bool { session.isHandshakeComplete }

    func readPlaintext(into buffer: UnsafeMutableRawBufferPointer) throws(WorkoutError) -> Int {
        do { return try session.readPlaintext(into: buffer) } catch { throw Self.wrap(error) }
    }

    var peerClosed: Bool { session.peerClosed }

    func writePlaintext(_ plaintext: UnsafeRawBufferPointer) throws(WorkoutError) -> Int {
        do { return try session.writePlaintext(plaintext) } catch { throw Self.wrap(error) }
    }

    var hasPendingCiphertext: Bool { session.hasPendingCiphertext }

    func withPendingCiphertext<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        session.pendingCiphertext { (bytes: UnsafeRawBufferPointer) -> R in body(bytes) }
    }

    func ciphertextSent(_ count: Int) { session.ciphertextSent(count) }

    func close() { session.close() }

    var firstBytes: [UInt8] { session.firstBytes }

    var peerPublicKey: [UInt8]? { session.peerPublicKey }

    func peerCertificateExtension(oid: String) -> [UInt8]? { session.peerCertificateExtension(oid: oid) }

    private static func wrap(_ error: TLSError) -> WorkoutError {
        WorkoutError(code: .unavailable, message: error.message)
    }
}
#endif
