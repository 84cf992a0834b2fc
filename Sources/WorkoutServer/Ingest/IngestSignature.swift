import Crypto
import WorkoutCore

/// The signature a signed device token's posts carry: `X-Signature: sha256=<hex>`, the
/// HMAC-SHA256 of the raw body under the token's signing secret (the convention of Life
/// Dashboard Companion, GitHub and most webhook senders; PROTOCOL.md 25.9).
enum IngestSignature {
    /// Checks `post` against the caller's signing secret; nothing to check for a caller
    /// without one (a session, an unsigned token), whose `X-Signature` is not read.
    ///
    /// - Throws: ``CallFailure`` UNAUTHENTICATED, before anything is read or stored, when the
    ///   signature is missing, malformed or not the body's.
    static func check(_ post: IngestPost, caller: Caller) throws(CallFailure) {
        guard let secret = caller.signingSecret else { return }
        guard let header = post.signature else {
            throw CallFailure(.unauthenticated, "this device token signs its posts, and this post has no X-Signature: set the token's signing secret in the app; nothing was stored")
        }
        let prefix = "sha256="
        guard header.hasPrefix(prefix), let mac = Self.bytes(hex: header.dropFirst(prefix.count)), mac.count == SHA256.byteCount else {
            throw CallFailure(.unauthenticated, "X-Signature must be sha256= and 64 hex digits (got \(header.prefix(80))); nothing was stored")
        }
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: post.body, using: SymmetricKey(data: secret)) else {
            throw CallFailure(.unauthenticated, "X-Signature is not this body's under the token's signing secret: check the secret set in the app; nothing was stored")
        }
    }

    /// The bytes of hex digits (either case); `nil` for anything else.
    private static func bytes(hex: Substring) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
