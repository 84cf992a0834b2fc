import Crypto
import Foundation

/// Random tokens and codes, and the digests the store keeps instead of them.
package enum Secrets {
    /// `count` bytes from the system's cryptographically secure generator (getrandom on Linux).
    package static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// A session token: 256 random bits.
    package static func sessionToken() -> [UInt8] { randomBytes(32) }

    /// SHA-256 of `bytes`.
    package static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        Array(SHA256.hash(data: Array(bytes)))
    }

    /// The alphabet of invite codes: Crockford's base32 (no I, L, O, U), easy to read aloud.
    static let codeAlphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    /// A new invite code: 16 characters of base32 (80 bits) in four groups, `7KQ2-M9XD-…`.
    package static func inviteCode() -> String {
        let bytes = randomBytes(16)
        let characters = bytes.map { codeAlphabet[Int($0 & 31)] }
        return stride(from: 0, to: 16, by: 4).map { String(characters[$0..<$0 + 4]) }.joined(separator: "-")
    }

    /// The form of an invite code that is hashed: upper case, without dashes or spaces, with
    /// the letters people confuse read as the digits they look like.
    package static func normalizeInviteCode(_ code: String) -> String {
        String(code.uppercased().compactMap { character -> Character? in
            switch character {
            case "-", " ": nil
            case "O": "0"
            case "I", "L": "1"
            default: character
            }
        })
    }
}
