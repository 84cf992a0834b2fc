package import Crypto
import Foundation

/// A server's statement, signed with its old key, that its key changed to another one: what
/// lets a client that pinned the old key accept the new one without asking anybody.
///
/// The server carries its endorsements (the last few rotations, oldest first) in its
/// certificate, in the non-critical extension ``extensionOID``, encoded as
///
/// ```
/// +-------+------------------------------------------------------------+
/// | count |  count × endorsement                                       |
/// | u8    |  u16 len | old key (DER SPKI) | new key's SHA-256 (32) |   |
/// |       |  u16 len | signature (ECDSA P-256, DER)                  |   |
/// +-------+------------------------------------------------------------+
/// ```
///
/// (lengths big-endian). The signature is the old key's over ``signedMessage(newKey:)``:
/// the ASCII label `workout key rotation v1`, a zero byte, and the new key's fingerprint
/// digest. A client whose pin is the old key's fingerprint follows the chain from its pin:
/// each link must be signed by the key the previous link vouched for, and the chain must end
/// at the key the server presented.
package struct KeyEndorsement: Hashable, Sendable {
    /// The old key, DER SubjectPublicKeyInfo (P-256).
    package var oldKey: [UInt8]
    /// The fingerprint of the key the old one vouches for.
    package var newKey: KeyFingerprint
    /// The old key's ECDSA signature over ``signedMessage(newKey:)``, DER.
    package var signature: [UInt8]

    /// The certificate extension carrying the endorsements (an OID under the UUID arc 2.25).
    package static let extensionOID = "2.25.1719476253412847629"
    /// The most endorsements a certificate carries, and a client reads.
    package static let maxCount = 16
    private static let label = Array("workout key rotation v1".utf8) + [0]

    /// What the old key signs.
    package static func signedMessage(newKey: KeyFingerprint) -> [UInt8] {
        label + newKey.digest
    }

    /// An endorsement of `newKey`, signed by `oldKey`.
    package init(endorsing newKey: KeyFingerprint, by oldKey: P256.Signing.PrivateKey) throws {
        self.oldKey = Array(oldKey.publicKey.derRepresentation)
        self.newKey = newKey
        self.signature = Array(try oldKey.signature(for: Self.signedMessage(newKey: newKey)).derRepresentation)
    }

    /// An endorsement from its parts (decoded, not yet checked).
    package init(oldKey: [UInt8], newKey: KeyFingerprint, signature: [UInt8]) {
        self.oldKey = oldKey
        self.newKey = newKey
        self.signature = signature
    }

    /// The fingerprint of the old key.
    package var oldFingerprint: KeyFingerprint { KeyFingerprint(publicKey: oldKey) }

    /// Whether the signature is the old key's over the new key's fingerprint.
    package var isValid: Bool {
        guard let key = try? P256.Signing.PublicKey(derRepresentation: oldKey),
            let signature = try? P256.Signing.ECDSASignature(derRepresentation: signature)
        else { return false }
        return key.isValidSignature(signature, for: Self.signedMessage(newKey: newKey))
    }

    /// Whether `endorsements` lead from the pinned key `pinned` to `presented`: every link
    /// starts at the key the one before vouched for, and every signature is valid.
    package static func chain(_ endorsements: [KeyEndorsement], leadsFrom pinned: KeyFingerprint, to presented: KeyFingerprint) -> Bool {
        var current = pinned
        var steps = 0
        while current != presented {
            guard steps < maxCount, let link = endorsements.first(where: { $0.oldFingerprint == current }), link.isValid else {
                return false
            }
            current = link.newKey
            steps += 1
        }
        return steps > 0
    }

    // MARK: Encoding

    /// Encodes `endorsements` (at most ``maxCount``, the last ones kept) as described above.
    package static func encode(_ endorsements: [KeyEndorsement]) -> [UInt8] {
        let kept = endorsements.suffix(maxCount)
        var bytes: [UInt8] = [UInt8(kept.count)]
        for endorsement in kept {
            append(endorsement.oldKey, to: &bytes)
            bytes += endorsement.newKey.digest
            append(endorsement.signature, to: &bytes)
        }
        return bytes
    }

    /// Decodes what ``encode(_:)`` wrote; `nil` when it is malformed or longer than allowed.
    package static func decode(_ bytes: [UInt8]) -> [KeyEndorsement]? {
        var cursor = bytes[...]
        guard let count = cursor.popFirst(), Int(count) <= maxCount else { return nil }
        var endorsements: [KeyEndorsement] = []
        for _ in 0..<count {
            guard let oldKey = take(&cursor), cursor.count >= 32,
                let newKey = KeyFingerprint(digest: Array(cursor.prefix(32)))
            else { return nil }
            cursor = cursor.dropFirst(32)
            guard let signature = take(&cursor) else { return nil }
            endorsements.append(KeyEndorsement(oldKey: oldKey, newKey: newKey, signature: signature))
        }
        return cursor.isEmpty ? endorsements : nil
    }

    private static func append(_ field: [UInt8], to bytes: inout [UInt8]) {
        bytes.append(UInt8(field.count >> 8))
        bytes.append(UInt8(field.count & 0xFF))
        bytes += field
    }

    private static func take(_ cursor: inout ArraySlice<UInt8>) -> [UInt8]? {
        guard cursor.count >= 2 else { return nil }
        let length = Int(cursor[cursor.startIndex]) << 8 | Int(cursor[cursor.startIndex + 1])
        cursor = cursor.dropFirst(2)
        guard length > 0, length <= 512, cursor.count >= length else { return nil }
        defer { cursor = cursor.dropFirst(length) }
        return Array(cursor.prefix(length))
    }
}
