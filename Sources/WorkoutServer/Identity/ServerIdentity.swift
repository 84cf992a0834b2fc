package import Crypto
import Foundation
import SwiftASN1
import SystemCalls
package import WorkoutProtocol
package import WorkoutTLS
import X509
#if canImport(Glibc)
import Glibc
#endif

/// The server's own key and self-signed certificate, which clients pin by the key's
/// fingerprint (trust on first use; no certificate authority).
///
/// Kept in the data directory's `identity/` folder (mode 0700):
///
/// - `key.pem`: the P-256 private key, PKCS#8 PEM, mode 0600;
/// - `certificate.pem`: the self-signed certificate for it, carrying the key's endorsements;
/// - `endorsements`: the rotations so far (``KeyEndorsement``'s encoding), oldest first.
///
/// P-256 rather than Ed25519: every TLS stack accepts it, Apple's included.
package struct ServerIdentity: Sendable {
    /// The private key, PKCS#8 PEM.
    package let privateKeyPEM: String
    /// The self-signed certificate, PEM.
    package let certificatePEM: String
    /// The fingerprint of the public key, what clients pin.
    package let fingerprint: KeyFingerprint
    /// The statements of the earlier keys vouching for their successors, oldest first.
    package let endorsements: [KeyEndorsement]

    /// The folder in a data directory that holds the identity.
    package static let folderName = "identity"

    /// A new identity: a fresh key and its self-signed certificate carrying `endorsements`.
    ///
    /// - Parameter endorsements: the rotations so far (the last of which vouches for this key).
    /// - Throws: when the certificate cannot be made (a bug; nothing outside is read).
    package static func generate(endorsements: [KeyEndorsement] = []) throws -> (ServerIdentity, P256.Signing.PrivateKey) {
        let key = P256.Signing.PrivateKey()
        return (try make(key: key, endorsements: endorsements), key)
    }

    private static func make(key: P256.Signing.PrivateKey, endorsements: [KeyEndorsement]) throws -> ServerIdentity {
        let fingerprint = KeyFingerprint(publicKey: Array(key.publicKey.derRepresentation))
        let name = try DistinguishedName {
            CommonName("Workout server \(fingerprint.description.prefix(9))")
        }
        var extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            KeyUsage(digitalSignature: true)
        }
        if !endorsements.isEmpty {
            try extensions.append(Certificate.Extension(
                oid: ASN1ObjectIdentifier(dotRepresentation: KeyEndorsement.extensionOID),
                critical: false, value: ArraySlice(KeyEndorsement.encode(endorsements))))
        }
        let now = Date()
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3_600),
            notValidAfter: now.addingTimeInterval(100 * 365 * 86_400),
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions,
            issuerPrivateKey: .init(key))
        return ServerIdentity(
            privateKeyPEM: key.pemRepresentation,
            certificatePEM: try certificate.serializeAsPEM().pemString,
            fingerprint: fingerprint,
            endorsements: endorsements)
    }

    /// The TLS context serving this identity.
    ///
    /// - Throws: ``TLSError`` when OpenSSL refuses the key or certificate.
    package func makeTLSContext() throws(TLSError) -> TLSContext {
        try TLSContext.server(certificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM)
    }

    // MARK: In the data directory

    /// The identity in `dataDirectory`, or `nil` when there is none yet.
    ///
    /// - Throws: ``IdentityError`` when the files are there but unreadable, malformed, do not
    ///   belong together, or the key file is readable by others.
    package static func load(from dataDirectory: String) throws(IdentityError) -> ServerIdentity? {
        let folder = folder(in: dataDirectory)
        let keyPath = folder + "/key.pem"
        guard FileManager.default.fileExists(atPath: keyPath) else { return nil }
        var status = stat()
        guard stat(keyPath, &status) == 0 else { throw IdentityError("cannot read \(keyPath): \(String(cString: strerror(errno)))") }
        guard status.st_mode & 0o077 == 0 else {
            throw IdentityError("\(keyPath) is readable or writable by others (mode \(String(status.st_mode & 0o777, radix: 8))); the server's private key must be mode 600")
        }
        let keyPEM: String
        let certificatePEM: String
        do {
            keyPEM = try String(contentsOfFile: keyPath, encoding: .utf8)
            certificatePEM = try String(contentsOfFile: folder + "/certificate.pem", encoding: .utf8)
        } catch {
            throw IdentityError("the server identity in \(folder) does not load: \(error)")
        }
        return try parse(
            privateKeyPEM: keyPEM, certificatePEM: certificatePEM,
            endorsements: FileManager.default.contents(atPath: folder + "/endorsements").map(Array.init), source: folder)
    }

    /// An identity from its files' contents, checked: the key and certificate parse and belong
    /// together, the endorsements (`nil`: none) are well formed.
    ///
    /// - Parameter source: where the files came from, for errors (a folder or an archive).
    /// - Throws: ``IdentityError`` naming `source`.
    package static func parse(
        privateKeyPEM keyPEM: String, certificatePEM: String, endorsements encodedEndorsements: [UInt8]?, source: String
    ) throws(IdentityError) -> ServerIdentity {
        do {
            let key = try P256.Signing.PrivateKey(pemRepresentation: keyPEM)
            let certificate = try Certificate(pemEncoded: certificatePEM)
            guard certificate.publicKey == Certificate.PublicKey(key.publicKey) else {
                throw IdentityError("\(source): certificate.pem is not the certificate of key.pem")
            }
            var endorsements: [KeyEndorsement] = []
            if let encodedEndorsements {
                guard let decoded = KeyEndorsement.decode(encodedEndorsements) else {
                    throw IdentityError("\(source): endorsements is malformed")
                }
                endorsements = decoded
            }
            return ServerIdentity(
                privateKeyPEM: keyPEM, certificatePEM: certificatePEM,
                fingerprint: KeyFingerprint(publicKey: Array(key.publicKey.derRepresentation)), endorsements: endorsements)
        } catch let error as IdentityError {
            throw error
        } catch {
            throw IdentityError("the server identity in \(source) does not load: \(error)")
        }
    }

    /// The identity in `dataDirectory`, made and stored first when there is none.
    ///
    /// A certificate that does not belong to `key.pem` (a crash between ``store(_:in:)``'s
    /// renames, which put the certificate first) is made again from the key, and `repaired`
    /// is told so: the key is what clients pinned, the certificate only presents it.
    ///
    /// - Parameter repaired: Told what was repaired, for the log.
    /// - Returns: The identity, and whether it was made now.
    /// - Throws: ``IdentityError``.
    package static func loadOrCreate(
        in dataDirectory: String, repaired: (String) -> Void = { _ in }
    ) throws(IdentityError) -> (identity: ServerIdentity, created: Bool) {
        if let message = try repairCertificate(in: dataDirectory) { repaired(message) }
        if let identity = try load(from: dataDirectory) { return (identity, false) }
        let identity: ServerIdentity
        do {
            identity = try generate().0
        } catch {
            throw IdentityError("cannot make the server's key and certificate: \(error)")
        }
        try store(identity, in: dataDirectory)
        return (identity, true)
    }

    /// Replaces the identity in `dataDirectory` with a new key, whose certificate carries the
    /// old key's endorsement of it (so clients that pinned the old key accept the new one).
    ///
    /// - Returns: The old identity and the new one.
    /// - Throws: ``IdentityError`` when there is no identity yet, or files cannot be written.
    package static func rotate(in dataDirectory: String) throws(IdentityError) -> (old: ServerIdentity, new: ServerIdentity) {
        guard let old = try load(from: dataDirectory) else {
            throw IdentityError("\(folder(in: dataDirectory)) has no server key yet; `workoutd serve` makes one on its first start")
        }
        let new: ServerIdentity
        do {
            let oldKey = try P256.Signing.PrivateKey(pemRepresentation: old.privateKeyPEM)
            let key = P256.Signing.PrivateKey()
            let endorsement = try KeyEndorsement(endorsing: KeyFingerprint(publicKey: Array(key.publicKey.derRepresentation)), by: oldKey)
            new = try make(key: key, endorsements: Array((old.endorsements + [endorsement]).suffix(KeyEndorsement.maxCount)))
        } catch {
            throw IdentityError("cannot make the new key: \(error)")
        }
        try store(new, in: dataDirectory)
        return (old, new)
    }

    /// When `key.pem` is there and sound but `certificate.pem` is missing, does not parse, or
    /// is another key's, makes a new self-signed certificate for the key and stores it with the
    /// endorsements that lead to this key (those after it belonged to a rotation that did not
    /// finish).
    ///
    /// - Returns: What was repaired, or `nil` when nothing needed it.
    /// - Throws: ``IdentityError`` when the key itself is unsound or the files cannot be written.
    private static func repairCertificate(in dataDirectory: String) throws(IdentityError) -> String? {
        let folder = folder(in: dataDirectory)
        let keyPath = folder + "/key.pem"
        guard FileManager.default.fileExists(atPath: keyPath) else { return nil }
        var status = stat()
        // A key with loose permissions is refused by load, not repaired here.
        guard stat(keyPath, &status) == 0, status.st_mode & 0o077 == 0,
            let keyPEM = try? String(contentsOfFile: keyPath, encoding: .utf8),
            let key = try? P256.Signing.PrivateKey(pemRepresentation: keyPEM)
        else { return nil }
        if let certificatePEM = try? String(contentsOfFile: folder + "/certificate.pem", encoding: .utf8),
            let certificate = try? Certificate(pemEncoded: certificatePEM),
            certificate.publicKey == Certificate.PublicKey(key.publicKey)
        {
            return nil
        }
        let fingerprint = KeyFingerprint(publicKey: Array(key.publicKey.derRepresentation))
        let recorded = FileManager.default.contents(atPath: folder + "/endorsements").flatMap { KeyEndorsement.decode(Array($0)) } ?? []
        let kept = recorded.lastIndex { $0.newKey == fingerprint }.map { Array(recorded[...$0]) } ?? []
        let identity: ServerIdentity
        do {
            identity = try make(key: key, endorsements: kept)
        } catch {
            throw IdentityError("cannot make a certificate for \(keyPath): \(error)")
        }
        try write(Array(identity.certificatePEM.utf8), to: folder + "/certificate.pem", mode: 0o644)
        try write(KeyEndorsement.encode(identity.endorsements), to: folder + "/endorsements", mode: 0o644)
        return "\(folder)/certificate.pem did not belong to key.pem (a key rotation or restore that did not finish?); "
            + "made a new self-signed certificate for the key \(fingerprint) with \(kept.count) of \(recorded.count) endorsements"
    }

    private static func folder(in dataDirectory: String) -> String {
        (dataDirectory.hasSuffix("/") ? String(dataDirectory.dropLast()) : dataDirectory) + "/" + folderName
    }

    /// Writes the identity's files into `dataDirectory`'s `identity/` (made mode 0700), each
    /// atomically (`SystemCall.replaceFile`: a temporary file, fsync, rename, the directory
    /// synced); the certificate and endorsements first,
    /// the key last (mode 0600), so that a crash leaves either the old key or a complete new
    /// identity (load checks the pair matches). What `rotate-key` and `restore` use.
    ///
    /// - Throws: ``IdentityError`` naming the file that cannot be written.
    package static func store(_ identity: ServerIdentity, in dataDirectory: String) throws(IdentityError) {
        let folder = folder(in: dataDirectory)
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw IdentityError("cannot make \(folder): \(String(cString: strerror(errno)))")
        }
        try write(Array(identity.certificatePEM.utf8), to: folder + "/certificate.pem", mode: 0o644)
        try write(KeyEndorsement.encode(identity.endorsements), to: folder + "/endorsements", mode: 0o644)
        try write(Array(identity.privateKeyPEM.utf8), to: folder + "/key.pem", mode: 0o600)
    }

    /// Replaces the file at `path` with `bytes` (mode `mode`), atomically and durably.
    private static func write(_ bytes: [UInt8], to path: String, mode: mode_t) throws(IdentityError) {
        do throws(SystemCallError) {
            try SystemCall.replaceFile(at: path, with: bytes, permissions: mode)
        } catch {
            throw IdentityError("cannot write \(path): \(error)")
        }
    }
}

/// The server identity cannot be loaded or stored.
package struct IdentityError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, naming the file.
    package var message: String

    /// Makes an error.
    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
