#ifndef WORKOUT_COPENSSL_SHIM_H
#define WORKOUT_COPENSSL_SHIM_H
// OpenSSL 3 (Debian: libssl-dev). The settings below are macros over SSL_CTX_ctrl and
// BIO_ctrl, which Swift cannot call: these wrappers can. Nothing else is added.
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/pem.h>

/// SSL_CTX_set_min_proto_version(ctx, version): the lowest TLS version the context speaks.
static inline int copenssl_ctx_set_min_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}

/// SSL_CTX_set_max_proto_version(ctx, version): the highest TLS version the context speaks.
static inline int copenssl_ctx_set_max_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_max_proto_version(ctx, version);
}

/// BIO_set_mem_eof_return(bio, value): what a read of an empty memory BIO returns; -1
/// makes it a "retry" (SSL_ERROR_WANT_READ) instead of end of file.
static inline int copenssl_bio_set_mem_eof_return(BIO *bio, int value) {
    return (int)BIO_set_mem_eof_return(bio, value);
}

/// SSL_OP_NO_RENEGOTIATION: refuse TLS 1.2 renegotiation (a peer could otherwise make the
/// server redo handshakes, and their cost, on one connection).
static inline uint64_t copenssl_op_no_renegotiation(void) {
    return SSL_OP_NO_RENEGOTIATION;
}

/// SSL_OP_CIPHER_SERVER_PREFERENCE: the server's order of cipher suites decides, not the client's.
static inline uint64_t copenssl_op_cipher_server_preference(void) {
    return SSL_OP_CIPHER_SERVER_PREFERENCE;
}

/// SSL_OP_NO_TICKET: no TLS 1.2 session tickets (RFC 5077), neither issued nor accepted.
static inline uint64_t copenssl_op_no_ticket(void) {
    return SSL_OP_NO_TICKET;
}

/// SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF): no session cache, so nothing is
/// resumed by session ID either (a TLS 1.2 server then sends an empty session ID).
static inline long copenssl_ctx_set_session_cache_off(SSL_CTX *ctx) {
    return SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
}

#endif
