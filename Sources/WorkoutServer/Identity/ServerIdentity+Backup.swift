package import WorkoutCore
import WorkoutProtocol

/// The server identity in backups: an archive carries `identity/` beside the store, so that a
/// restored server keeps the key its devices pinned.
extension ServerIdentity {
    /// The entry name of the private key in an archive.
    package static let keyEntryName = folderName + "/key.pem"
    /// The entry name of the certificate in an archive.
    package static let certificateEntryName = folderName + "/certificate.pem"
    /// The entry name of the endorsements in an archive.
    package static let endorsementsEntryName = folderName + "/endorsements"

    /// The identity's files as an archive carries them: the certificate and endorsements (mode
    /// 0644), then the key (mode 0600).
    package var backupFiles: [BackupArchive.File] {
        [
            BackupArchive.File(name: Self.certificateEntryName, bytes: Array(certificatePEM.utf8), mode: 0o644),
            BackupArchive.File(name: Self.endorsementsEntryName, bytes: KeyEndorsement.encode(endorsements), mode: 0o644),
            BackupArchive.File(name: Self.keyEntryName, bytes: Array(privateKeyPEM.utf8), mode: 0o600),
        ]
    }

    /// The identity among an archive's files, or `nil` when the archive carries no key (an
    /// archive written before backups carried the identity).
    ///
    /// - Parameters:
    ///   - files: what ``BackupArchive/restore(archive:into:schema:replacing:)`` returned.
    ///   - archive: the archive's path, for errors.
    /// - Throws: ``IdentityError`` when the key is there without its certificate, or they do
    ///   not parse or belong together.
    package static func fromBackup(_ files: [BackupArchive.File], archive: String) throws(IdentityError) -> ServerIdentity? {
        func text(_ name: String) -> String? {
            files.first { $0.name == name }.map { String(decoding: $0.bytes, as: UTF8.self) }
        }
        guard let key = text(keyEntryName) else { return nil }
        guard let certificate = text(certificateEntryName) else {
            throw IdentityError("\(archive) holds \(keyEntryName) but not \(certificateEntryName)")
        }
        return try parse(
            privateKeyPEM: key, certificatePEM: certificate,
            endorsements: files.first { $0.name == endorsementsEntryName }?.bytes, source: archive)
    }

    /// Whether this identity is a later key that `earlier` vouched for, directly or through
    /// rotations in between (so it, not `earlier`, is what devices now pin).
    ///
    /// - Parameter earlier: an identity from before.
    package func succeeds(_ earlier: ServerIdentity) -> Bool {
        earlier.fingerprint != fingerprint
            && KeyEndorsement.chain(endorsements, leadsFrom: earlier.fingerprint, to: fingerprint)
    }
}
