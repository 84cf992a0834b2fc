import Crypto

/// The fingerprint of a server's public key: SHA-256 over the key's DER SubjectPublicKeyInfo
/// (what `openssl x509 -pubkey | openssl pkey -pubin -outform DER | sha256sum` hashes).
///
/// Written for people to compare by eye, like a Syncthing device id: the 32 bytes in base32
/// (RFC 4648's alphabet, A–Z and 2–7, no padding), 52 characters in 13 groups of 4:
///
/// ```
/// BDKF-BXMF-3AR5-DQVV-VZZU-E4YJ-EMBT-M3PJ-JBBG-HL76-ASCE-VRVP-CZCQ
/// ```
///
/// (the last character is always `A` or `Q`: 256 bits and 4 zero bits). Parsing ignores case,
/// dashes and spaces (U+0020; a person may type it any way) and refuses any other character
/// (tabs, newlines, `=`), a wrong length, or non-zero padding bits. PROTOCOL.md §3.2;
/// golden values in `Protocol/vectors/security.json`.
package struct KeyFingerprint: Hashable, Sendable, CustomStringConvertible {
    /// The SHA-256 digest, 32 bytes.
    package let digest: [UInt8]

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)
    /// The characters of the text form, without dashes.
    package static let characterCount = 52

    /// The fingerprint of `publicKey`, a DER SubjectPublicKeyInfo.
    package init(publicKey: [UInt8]) {
        digest = Array(SHA256.hash(data: publicKey))
    }

    /// A fingerprint from its digest; `nil` unless it is 32 bytes.
    package init?(digest: [UInt8]) {
        guard digest.count == SHA256.byteCount else { return nil }
        self.digest = digest
    }

    /// Parses the text form (see the type); `nil` when it is not one.
    package init?(_ text: some StringProtocol) {
        var bits: UInt32 = 0
        var bitCount = 0
        var bytes: [UInt8] = []
        var characters = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: " ") { continue }
            let upper = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 32 : byte
            guard let value = Self.alphabet.firstIndex(of: upper) else { return nil }
            characters += 1
            guard characters <= Self.characterCount else { return nil }
            bits = bits << 5 | UInt32(value)
            bitCount += 5
            if bitCount >= 8 {
                bitCount -= 8
                bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(bitCount)))
                bits &= (1 << UInt32(bitCount)) - 1
            }
        }
        // 52 characters carry 260 bits: the last 4 must be zero.
        guard characters == Self.characterCount, bits == 0 else { return nil }
        self.init(digest: bytes)
    }

    /// The text form: 13 groups of 4 base32 characters joined by dashes.
    package var description: String {
        var characters: [UInt8] = []
        var bits: UInt32 = 0
        var bitCount = 0
        for byte in digest {
            bits = bits << 8 | UInt32(byte)
            bitCount += 8
            while bitCount >= 5 {
                bitCount -= 5
                characters.append(Self.alphabet[Int((bits >> UInt32(bitCount)) & 31)])
            }
            bits &= (1 << UInt32(bitCount)) - 1
        }
        if bitCount > 0 { characters.append(Self.alphabet[Int((bits << UInt32(5 - bitCount)) & 31)]) }
        var text = ""
        for (index, character) in characters.enumerated() {
            if index > 0 && index % 4 == 0 { text.append("-") }
            text.append(Character(Unicode.Scalar(character)))
        }
        return text
    }

    /// The digest in lowercase hex with colons, as `openssl` prints fingerprints.
    package var hex: String {
        digest.map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined(separator: ":")
    }
}
