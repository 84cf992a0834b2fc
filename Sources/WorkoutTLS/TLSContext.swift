internal import COpenSSL
import Foundation

/// The settings every TLS session of one side shares (wraps an OpenSSL `SSL_CTX`): TLS 1.2
/// at the least, 1.3 preferred, no session tickets (nothing resumes sessions), and for a
/// server its certificate and private key.
///
/// A client context does not verify the server's certificate against any authority: there
/// is none. The server's key is pinned instead (trust on first use), by comparing the
/// certificate's public key after the handshake. That is sound because the handshake itself
/// proves the server holds the private key of the certificate it presented: in TLS 1.3 the
/// server signs the transcript with it (CertificateVerify, RFC 8446 §4.4.3), in TLS 1.2 it
/// signs its key exchange (ServerKeyExchange, RFC 5246 §7.4.3), and OpenSSL checks that
/// signature whatever the verify mode ("SSL_VERIFY_NONE: … the handshake will be continued
/// regardless of the verification result" concerns the chain only, ssl(7)/SSL_CTX_set_verify(3)).
///
/// Safe to share between threads because: it is configured completely in `init` and never
/// changed afterwards; OpenSSL allows many threads to make sessions from one configured
/// `SSL_CTX` (its reference count and caches are locked, openssl-threads(7)).
package final class TLSContext: @unchecked Sendable {
    /// Which side of the handshake sessions of this context take.
    package enum Role: Sendable {
        case client
        case server
    }

    /// The side.
    package let role: Role
    /// The OpenSSL context; owned here, freed in `deinit` (sessions hold their own reference).
    let handle: OpaquePointer

    /// A client context: TLS 1.2 or 1.3, no certificate authority (see the type's comment).
    ///
    /// - Throws: ``TLSError`` when OpenSSL cannot make the context.
    package static func client() throws(TLSError) -> TLSContext {
        try TLSContext(role: .client)
    }

    /// The newest TLS version a context agrees on.
    package enum NewestVersion: Sendable {
        /// TLS 1.3, what every context of the server and the client speaks.
        case tls13
        /// TLS 1.2, the floor: for tests of how a client meets a server that stops there.
        case tls12
    }

    /// A server context presenting `certificatePEM` and proving it with `privateKeyPEM`.
    ///
    /// - Parameters:
    ///   - certificatePEM: The server's certificate, PEM.
    ///   - privateKeyPEM: Its private key, PEM (PKCS#8 or the key type's own format).
    ///   - newestVersion: The newest TLS version it agrees on (TLS 1.3 unless a test says otherwise).
    /// - Throws: ``TLSError`` when either does not parse or they do not belong together.
    package static func server(
        certificatePEM: String, privateKeyPEM: String, newestVersion: NewestVersion = .tls13
    ) throws(TLSError) -> TLSContext {
        let context = try TLSContext(role: .server)
        if newestVersion == .tls12 {
            guard copenssl_ctx_set_max_proto_version(context.handle, TLS1_2_VERSION) == 1 else {
                throw TLSError.drainingQueue("cannot limit the server to TLS 1.2")
            }
        }
        try context.usePEM(certificate: certificatePEM, privateKey: privateKeyPEM)
        return context
    }

    /// A server context presenting the household's own certificate chain (from its CA, or a
    /// reverse proxy's ACME client) and proving it with its key: the leaf first, then the
    /// intermediates, as OpenSSL reads a chain file.
    ///
    /// Wraps `SSL_CTX_use_certificate_chain_file`, `SSL_CTX_use_PrivateKey_file` and
    /// `SSL_CTX_check_private_key`.
    ///
    /// - Parameters:
    ///   - certificateChainFile: A PEM file of the certificate and its chain.
    ///   - privateKeyFile: A PEM file of its private key (any type OpenSSL knows).
    /// - Throws: ``TLSError`` naming the file that does not load, or when they do not belong together.
    package static func server(certificateChainFile: String, privateKeyFile: String) throws(TLSError) -> TLSContext {
        let context = try TLSContext(role: .server)
        ERR_clear_error()
        guard SSL_CTX_use_certificate_chain_file(context.handle, certificateChainFile) == 1 else {
            throw TLSError.drainingQueue("\(certificateChainFile) does not load as a PEM certificate chain")
        }
        guard let keyText = try? String(contentsOfFile: privateKeyFile, encoding: .utf8),
              let key = withMemoryBIO(keyText, { PEM_read_bio_PrivateKey($0, nil, nil, nil) })
        else {
            throw TLSError.drainingQueue("\(privateKeyFile) does not load as a PEM private key")
        }
        defer { EVP_PKEY_free(key) }
        // SSL_CTX_use_PrivateKey takes its own reference, and refuses a key that is not the
        // certificate's ("key values mismatch").
        guard SSL_CTX_use_PrivateKey(context.handle, key) == 1, SSL_CTX_check_private_key(context.handle) == 1 else {
            throw TLSError.drainingQueue("\(privateKeyFile) is not the key of the certificate in \(certificateChainFile)")
        }
        return context
    }

    /// The TLS 1.3 cipher suites offered and accepted, in order of preference.
    static let tls13Suites = "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256"

    private init(role: Role) throws(TLSError) {
        ERR_clear_error()
        guard let method = role == .server ? TLS_server_method() : TLS_client_method(),
            let handle = SSL_CTX_new(method)
        else {
            throw TLSError.drainingQueue("cannot make a TLS context")
        }
        self.role = role
        self.handle = handle
        guard copenssl_ctx_set_min_proto_version(handle, TLS1_2_VERSION) == 1 else {
            throw TLSError.drainingQueue("cannot require TLS 1.2 at the least")
        }
        // Nothing resumes sessions (PROTOCOL.md §3): every connection makes a full handshake,
        // so its key check sees the certificate. Tickets would also cost every handshake a
        // message and a seal. TLS 1.3's tickets are counted (SSL_CTX_set_num_tickets), TLS
        // 1.2's are an option (SSL_OP_NO_TICKET: without it a 1.2 client gets a
        // NewSessionTicket and resumes with it), and resumption by session ID needs the cache,
        // which is off ("SSL_SESS_CACHE_OFF: No session caching for client or server takes
        // place", SSL_CTX_set_session_cache_mode(3)).
        _ = SSL_CTX_set_num_tickets(handle, 0)
        _ = SSL_CTX_set_options(handle, copenssl_op_no_ticket())
        _ = copenssl_ctx_set_session_cache_off(handle)
        // TLS 1.3's suites, AES-128-GCM first (OpenSSL's default puts AES-256 first): the
        // protocol's mandatory suite, four fewer AES rounds per block on every record.
        guard SSL_CTX_set_ciphersuites(handle, Self.tls13Suites) == 1 else {
            throw TLSError.drainingQueue("cannot set the TLS 1.3 cipher suites")
        }
        if role == .client {
            SSL_CTX_set_verify(handle, SSL_VERIFY_NONE, nil)
        } else {
            // No TLS 1.2 renegotiation: a client could make the server redo handshakes on one
            // connection, outside the connection limits' handshake timer.
            _ = SSL_CTX_set_options(handle, copenssl_op_no_renegotiation())
            // Its order of suites (AES-128-GCM first) holds for any client, not only ours.
            _ = SSL_CTX_set_options(handle, copenssl_op_cipher_server_preference())
            // Record buffers (~34 KB a session) stay while the session is busy: releasing them
            // after every record (SSL_MODE_RELEASE_BUFFERS) cost ~11 % more server CPU per call
            // at 64×1. A quiet connection gives them back instead (TLSSession.releaseBuffers()).
        }
    }

    deinit {
        SSL_CTX_free(handle)
    }

    private func usePEM(certificate: String, privateKey: String) throws(TLSError) {
        ERR_clear_error()
        guard let certificate = Self.withMemoryBIO(certificate, { PEM_read_bio_X509($0, nil, nil, nil) }) else {
            throw TLSError.drainingQueue("the server certificate does not parse as PEM")
        }
        defer { X509_free(certificate) }
        guard let key = Self.withMemoryBIO(privateKey, { PEM_read_bio_PrivateKey($0, nil, nil, nil) }) else {
            throw TLSError.drainingQueue("the server private key does not parse as PEM")
        }
        defer { EVP_PKEY_free(key) }
        // SSL_CTX_use_certificate and SSL_CTX_use_PrivateKey take their own references.
        guard SSL_CTX_use_certificate(handle, certificate) == 1, SSL_CTX_use_PrivateKey(handle, key) == 1 else {
            throw TLSError.drainingQueue("OpenSSL refused the server certificate or key")
        }
        guard SSL_CTX_check_private_key(handle) == 1 else {
            throw TLSError.drainingQueue("the server private key does not belong to its certificate")
        }
    }

    /// Runs `body` with a read-only memory BIO over `text`'s UTF-8 bytes.
    private static func withMemoryBIO<R>(_ text: String, _ body: (OpaquePointer) -> R?) -> R? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { buffer -> R? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }
}
