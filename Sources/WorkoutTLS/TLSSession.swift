internal import COpenSSL

/// One side of one TLS connection, without a socket: OpenSSL's `SSL` over two memory BIOs.
///
/// The connection's driver carries bytes between the socket and the session:
///
/// ```
/// socket ──ciphertext──▶ receive(_:) ──▶ [SSL] ──▶ readPlaintext(into:) ──plaintext──▶ machine
/// machine ──plaintext──▶ writePlaintext(_:) ──▶ [SSL] ──▶ pendingCiphertext ──ciphertext──▶ socket
/// ```
///
/// Until ``isHandshakeComplete``, ``advanceHandshake()`` moves the handshake on after each
/// ``receive(_:)`` (and once at the start, for a client, to produce its ClientHello); what it
/// wants sent waits in ``pendingCiphertext(_:)``. Nothing blocks: "need more bytes" is a
/// return value, a broken or hostile peer is a ``TLSError``.
///
/// Rules:
/// 1. One owner, one thread at a time (the connection's queue); not `Sendable`.
/// 2. OpenSSL's error queue is per thread and the connection's queue moves between threads,
///    so it is emptied before each call that can fail (``clearErrorQueue()``) and drained into
///    the error after it.
/// 3. The `SSL` owns both BIOs (`SSL_set_bio`) and is freed in `deinit`.
package final class TLSSession {
    private let ssl: OpaquePointer
    /// Ciphertext from the peer, read by OpenSSL (owned by `ssl`).
    private let incoming: OpaquePointer
    /// Ciphertext for the peer, written by OpenSSL (owned by `ssl`).
    private let outgoing: OpaquePointer
    /// Ciphertext taken out of `outgoing` that the socket has not taken yet: `unsent[sentOffset..<unsentEnd]`.
    /// The array is storage, grown when needed and kept (up to ``keptCiphertextStorage``), so that
    /// taking a record's ciphertext is one copy.
    private var unsent: [UInt8] = []
    private var sentOffset = 0
    private var unsentEnd = 0
    /// The first bytes the peer sent, kept until the handshake completes to tell a peer that
    /// does not speak TLS at all (afterwards the peer has shown it does, and they are dropped).
    package private(set) var firstBytes: [UInt8] = []

    /// Whether the handshake is done and application data flows.
    package private(set) var isHandshakeComplete = false
    /// Whether the peer ended the TLS session (close_notify): no more plaintext will come.
    package private(set) var peerClosed = false

    /// How many leading bytes ``firstBytes`` keeps: enough for a refusal in the protocol's
    /// clear text (a preface and a GOAWAY with its message).
    package static let firstBytesKept = 1_024
    /// The most plaintext one ``writePlaintext(_:)`` takes: four full TLS records.
    package static let maxPlaintextPerWrite = 64 * 1_024
    /// How much storage for ciphertext a session keeps once the socket has taken it all.
    static let keptCiphertextStorage = 64 * 1_024

    /// A session of `context`'s side.
    ///
    /// - Throws: ``TLSError`` when OpenSSL cannot make the session.
    package init(context: TLSContext) throws(TLSError) {
        Self.clearErrorQueue()
        guard let ssl = SSL_new(context.handle) else { throw TLSError.drainingQueue("cannot make a TLS session") }
        guard let incoming = BIO_new(BIO_s_mem()), let outgoing = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw TLSError.drainingQueue("cannot make the TLS session's buffers")
        }
        // An empty memory BIO reads as "retry" (SSL_ERROR_WANT_READ), not as end of file.
        _ = copenssl_bio_set_mem_eof_return(incoming, -1)
        _ = copenssl_bio_set_mem_eof_return(outgoing, -1)
        // "SSL_set_bio() … transfers ownership of rbio and wbio to ssl" (SSL_set_bio(3)).
        SSL_set_bio(ssl, incoming, outgoing)
        if context.role == .server {
            SSL_set_accept_state(ssl)
        } else {
            SSL_set_connect_state(ssl)
        }
        self.ssl = ssl
        self.incoming = incoming
        self.outgoing = outgoing
    }

    deinit {
        SSL_free(ssl)
    }

    // MARK: Ciphertext in

    /// Hands OpenSSL ciphertext read from the socket (all of it; a memory BIO grows).
    ///
    /// - Throws: ``TLSError`` when OpenSSL cannot buffer it (out of memory).
    package func receive(_ ciphertext: UnsafeRawBufferPointer) throws(TLSError) {
        guard let base = ciphertext.baseAddress, !ciphertext.isEmpty else { return }
        if !isHandshakeComplete && firstBytes.count < Self.firstBytesKept {
            firstBytes.append(contentsOf: ciphertext.prefix(Self.firstBytesKept - firstBytes.count))
        }
        Self.clearErrorQueue()
        var offset = 0
        while offset < ciphertext.count {
            let chunk = Int32(clamping: ciphertext.count - offset)
            let written = BIO_write(incoming, base + offset, chunk)
            guard written > 0 else { throw TLSError.drainingQueue("cannot buffer received TLS data") }
            offset += Int(written)
        }
    }

    // MARK: Handshake

    /// Moves the handshake on with what was received; produces what must be sent next.
    ///
    /// - Returns: Whether the handshake is now complete.
    /// - Throws: ``TLSError`` ("TLS handshake failed: …") when the peer's messages are wrong,
    ///   not TLS at all, or it sent an alert.
    @discardableResult
    package func advanceHandshake() throws(TLSError) -> Bool {
        guard !isHandshakeComplete else { return true }
        Self.clearErrorQueue()
        let result = SSL_do_handshake(ssl)
        defer { takeCiphertext() }
        if result == 1 {
            isHandshakeComplete = true
            firstBytes = []
            return true
        }
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            return false
        case SSL_ERROR_ZERO_RETURN:
            throw TLSError("TLS handshake failed: the peer closed the TLS session")
        default:
            throw TLSError.drainingQueue("TLS handshake failed")
        }
    }

    // MARK: Plaintext

    /// Decrypts what has arrived into `buffer`.
    ///
    /// - Returns: The bytes of plaintext written to `buffer`; 0 when no complete record is
    ///   there yet, or the peer ended the session (then ``peerClosed`` is set).
    /// - Throws: ``TLSError`` when a record does not decrypt or the peer sent a fatal alert.
    package func readPlaintext(into buffer: UnsafeMutableRawBufferPointer) throws(TLSError) -> Int {
        guard isHandshakeComplete, !peerClosed, let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        // Nothing received and nothing decrypted waiting: OpenSSL could only say "want read".
        // (A driver reads until 0, so this is the last read of every batch of records.)
        guard BIO_ctrl_pending(incoming) > 0 || SSL_has_pending(ssl) == 1 else { return 0 }
        Self.clearErrorQueue()
        var count = 0
        let result = SSL_read_ex(ssl, base, buffer.count, &count)
        // Reading may have made OpenSSL answer something (a key update): send it too.
        defer { takeCiphertext() }
        if result == 1 { return count }
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            return 0
        case SSL_ERROR_ZERO_RETURN:
            peerClosed = true
            return 0
        default:
            throw TLSError.drainingQueue("TLS failed while reading")
        }
    }

    /// Whether the session holds ciphertext of a record that has not arrived whole: received,
    /// not yet decryptable. Meaningful after ``readPlaintext(into:)`` returned 0 (it reads every
    /// whole record); `false` before the handshake is complete and after the peer closed.
    ///
    /// OpenSSL reads a record from the memory BIO into its own buffer and keeps there what it
    /// got of a record it cannot finish: "SSL_has_pending() returns 1 if s has buffered data
    /// (whether processed or unprocessed)" (SSL_has_pending(3)). Once a record's 5-byte header
    /// is taken and no byte of its body has come, nothing is left unprocessed, but the read
    /// state is "RB": "The body of the record is being evaluated" (SSL_rstate_string(3)).
    package var holdsIncompleteRecord: Bool {
        guard isHandshakeComplete, !peerClosed else { return false }
        if BIO_ctrl_pending(incoming) > 0 || SSL_has_pending(ssl) == 1 { return true }
        let state = SSL_rstate_string(ssl)
        return state?[0] == CChar(UInt8(ascii: "R")) && state?[1] == CChar(UInt8(ascii: "B"))
    }

    /// Encrypts up to ``maxPlaintextPerWrite`` bytes of `plaintext`; the ciphertext waits in
    /// ``pendingCiphertext(_:)``.
    ///
    /// - Returns: How many bytes of `plaintext` were taken (0 before the handshake is complete).
    /// - Throws: ``TLSError`` when OpenSSL fails (the session is then unusable).
    package func writePlaintext(_ plaintext: UnsafeRawBufferPointer) throws(TLSError) -> Int {
        guard isHandshakeComplete, let base = plaintext.baseAddress, !plaintext.isEmpty else { return 0 }
        Self.clearErrorQueue()
        var written = 0
        let result = SSL_write_ex(ssl, base, min(plaintext.count, Self.maxPlaintextPerWrite), &written)
        takeCiphertext()
        guard result == 1 else { throw TLSError.drainingQueue("TLS failed while writing") }
        return written
    }

    /// Queues a TLS 1.3 KeyUpdate that asks the peer to update its keys too (which the peer
    /// answers with a KeyUpdate of its own, while it reads); the message waits in
    /// ``pendingCiphertext(_:)``.
    ///
    /// - Throws: ``TLSError`` before the handshake is complete, over TLS 1.2, or when OpenSSL fails.
    package func requestKeyUpdate() throws(TLSError) {
        guard isHandshakeComplete else { throw TLSError("no key update before the TLS handshake is complete") }
        Self.clearErrorQueue()
        guard SSL_key_update(ssl, SSL_KEY_UPDATE_REQUESTED) == 1 else { throw TLSError.drainingQueue("cannot request a key update") }
        // "The KeyUpdate message will be sent the next time SSL_do_handshake() … is called" (SSL_key_update(3)).
        let result = SSL_do_handshake(ssl)
        takeCiphertext()
        guard result == 1 else { throw TLSError.drainingQueue("cannot send the key update") }
    }

    /// Queues a close_notify alert (the polite end of the TLS session), if the handshake is done.
    package func close() {
        guard isHandshakeComplete else { return }
        Self.clearErrorQueue()
        _ = SSL_shutdown(ssl)
        Self.clearErrorQueue()
        takeCiphertext()
    }

    // MARK: Memory

    /// Gives back the session's record buffers (some 34 KB) and its ciphertext storage while it
    /// is quiet; OpenSSL allocates the buffers again for the next record either way.
    ///
    /// - Returns: Whether they were released: not before the handshake is complete, while
    ///   ciphertext waits for the socket, or while OpenSSL holds part of a record.
    @discardableResult
    package func releaseBuffers() -> Bool {
        guard Self.freeingBuffersIsSafe, isHandshakeComplete, !hasPendingCiphertext, BIO_ctrl_pending(incoming) == 0,
              SSL_has_pending(ssl) == 0
        else { return false }
        guard SSL_free_buffers(ssl) == 1 else { return false }
        unsent = []
        return true
    }

    /// Whether the OpenSSL linked refuses `SSL_free_buffers` while part of a record is read
    /// (CVE-2024-4741: before 3.0.14, 3.1.6, 3.2.2 and 3.3.1 it freed the buffer anyway); on
    /// older ones sessions keep their buffers.
    package static let freeingBuffersIsSafe: Bool = {
        let version = OpenSSL_version_num()                      // 0xMNN00PP0
        let (major, minor, patch) = (version >> 28, (version >> 20) & 0xFF, (version >> 4) & 0xFF)
        switch (major, minor) {
        case (3, 0): return patch >= 14
        case (3, 1): return patch >= 6
        case (3, 2): return patch >= 2
        case (3, 3): return patch >= 1
        default: return major > 3 || (major == 3 && minor >= 4)
        }
    }()

    // MARK: OpenSSL's error queue

    /// Empties this thread's OpenSSL error queue, so that what `SSL_get_error` and
    /// ``TLSError/drainingQueue(_:)`` find after a call is that call's. The queue is almost
    /// always empty already (every failure drains it), and `ERR_clear_error` would walk all of
    /// its slots each time: look first.
    private static func clearErrorQueue() {
        if ERR_peek_error() != 0 { ERR_clear_error() }
    }

    // MARK: Ciphertext out

    /// Whether ciphertext waits for the socket.
    package var hasPendingCiphertext: Bool { sentOffset < unsentEnd }

    /// How many bytes of ciphertext wait for the socket.
    package var pendingCiphertextCount: Int { unsentEnd - sentOffset }

    /// Runs `body` with the ciphertext waiting for the socket (possibly empty).
    package func pendingCiphertext<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = unsent.withUnsafeBytes { bytes in
            do throws(E) {
                return .success(try body(UnsafeRawBufferPointer(rebasing: bytes[sentOffset..<unsentEnd])))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Marks `count` bytes of the pending ciphertext as taken by the socket.
    package func ciphertextSent(_ count: Int) {
        precondition(count >= 0 && sentOffset + count <= unsentEnd, "sent more ciphertext than was pending")
        sentOffset += count
        if sentOffset == unsentEnd {
            sentOffset = 0
            unsentEnd = 0
            if unsent.count > Self.keptCiphertextStorage { unsent = [] }
        }
    }

    /// Moves what OpenSSL wrote into `outgoing` to `unsent`.
    private func takeCiphertext() {
        let pending = BIO_ctrl_pending(outgoing)
        guard pending > 0 else { return }
        let needed = unsentEnd + pending
        if unsent.count < needed {
            // Grows by at least half, so that a stream of records zero-fills its storage once.
            unsent.append(contentsOf: repeatElement(0, count: max(needed, unsent.count + unsent.count / 2) - unsent.count))
        }
        let start = unsentEnd
        let read = unsent.withUnsafeMutableBytes { bytes in
            BIO_read(outgoing, bytes.baseAddress! + start, Int32(clamping: pending))
        }
        unsentEnd += max(0, Int(read))
    }

    // MARK: The peer

    /// The peer certificate's public key as DER SubjectPublicKeyInfo (what a fingerprint
    /// hashes), once the handshake is complete; `nil` when the peer sent no certificate.
    ///
    /// The certificate's own SubjectPublicKeyInfo, encoded again from its parsed fields
    /// (`i2d_X509_PUBKEY`): some 5,000 instructions. Encoding the decoded key instead
    /// (`i2d_PUBKEY`) goes through OpenSSL 3's encoder lookup, some 1.5 million instructions,
    /// a fifth of a whole handshake's.
    package var peerPublicKey: [UInt8]? {
        guard isHandshakeComplete, let certificate = SSL_get0_peer_certificate(ssl),
            let key = X509_get_X509_PUBKEY(certificate)
        else { return nil }
        return Self.der { i2d_X509_PUBKEY(key, $0) }
    }

    /// The peer certificate, DER.
    package var peerCertificate: [UInt8]? {
        guard isHandshakeComplete, let certificate = SSL_get0_peer_certificate(ssl) else { return nil }
        return Self.der { i2d_X509(certificate, $0) }
    }

    /// The content (the OCTET STRING's bytes) of the peer certificate's extension `oid`
    /// (dotted, e.g. "1.3.6.1.4.1.…"), or `nil` when it has none.
    package func peerCertificateExtension(oid: String) -> [UInt8]? {
        guard isHandshakeComplete, let certificate = SSL_get0_peer_certificate(ssl),
            let object = OBJ_txt2obj(oid, 1)
        else { return nil }
        defer { ASN1_OBJECT_free(object) }
        let index = X509_get_ext_by_OBJ(certificate, object, -1)
        guard index >= 0, let ext = X509_get_ext(certificate, index), let data = X509_EXTENSION_get_data(ext),
            let bytes = ASN1_STRING_get0_data(data)
        else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(ASN1_STRING_length(data))))
    }

    /// The TLS version agreed, e.g. "TLSv1.3".
    package var protocolVersion: String {
        String(cString: SSL_get_version(ssl))
    }

    /// Encodes with one of OpenSSL's `i2d_…` functions (called twice: size, then bytes).
    private static func der(_ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) -> [UInt8]? {
        let size = encode(nil)
        guard size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return encode(&cursor)
        }
        return written == size ? bytes : nil
    }
}
