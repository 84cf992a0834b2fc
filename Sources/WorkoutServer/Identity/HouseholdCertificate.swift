package import Foundation
package import WorkoutProtocol
package import WorkoutTLS
import X509

/// The household's own certificate chain and key, served instead of the self-made identity:
/// for browsers that give no click-through and apps that trust only the system's store (the
/// household's CA installed on its phones, or a reverse proxy's ACME certificate).
///
/// Devices still pin the key: its fingerprint is the leaf certificate's SubjectPublicKeyInfo
/// hashed as the self-made key's is, so `workout` and the apps work unchanged.
package struct HouseholdCertificate: Sendable {
    /// The TLS context presenting the chain.
    package let context: TLSContext
    /// The fingerprint of the leaf's key, what devices pin.
    package let fingerprint: KeyFingerprint
    /// When the leaf certificate stops being valid.
    package let notValidAfter: Date

    /// Loads the chain in `chainPath` (PEM, the leaf first) and its key in `keyPath`.
    ///
    /// - Throws: ``IdentityError`` when a file does not load, the key is readable by others, or
    ///   they do not belong together.
    package init(chainPath: String, keyPath: String) throws(IdentityError) {
        var status = stat()
        guard stat(keyPath, &status) == 0 else { throw IdentityError("cannot read \(keyPath): \(String(cString: strerror(errno)))") }
        guard status.st_mode & 0o007 == 0 else {
            throw IdentityError("\(keyPath) is readable or writable by every user (mode \(String(status.st_mode & 0o777, radix: 8))); a private key must not be (chmod o-rwx)")
        }
        let (leafFingerprint, expiry) = try Self.leaf(in: chainPath)
        do {
            context = try TLSContext.server(certificateChainFile: chainPath, privateKeyFile: keyPath)
        } catch {
            throw IdentityError(error.message)
        }
        fingerprint = leafFingerprint
        notValidAfter = expiry
    }

    /// The fingerprint of the key of the first certificate in `chainPath` (PEM), what devices
    /// pin, and when that certificate stops being valid: the certificate alone, no private key.
    ///
    /// - Throws: ``IdentityError`` when the file does not read or holds no certificate that parses.
    package static func leaf(in chainPath: String) throws(IdentityError) -> (fingerprint: KeyFingerprint, notValidAfter: Date) {
        let chainText: String
        do {
            chainText = try String(contentsOfFile: chainPath, encoding: .utf8)
        } catch {
            throw IdentityError("cannot read \(chainPath): \(error)")
        }
        let marker = "-----END CERTIFICATE-----"
        guard let end = chainText.range(of: marker) else {
            throw IdentityError("\(chainPath) holds no PEM certificate")
        }
        let leaf: Certificate
        do {
            leaf = try Certificate(pemEncoded: String(chainText[..<end.upperBound]))
        } catch {
            throw IdentityError("the first certificate in \(chainPath) does not parse: \(error)")
        }
        let spki: [UInt8]
        do {
            spki = try leaf.publicKey.serializeAsPEM().derBytes
        } catch {
            throw IdentityError("the key of the certificate in \(chainPath) cannot be encoded: \(error)")
        }
        return (KeyFingerprint(publicKey: spki), leaf.notValidAfter)
    }
}
