import WorkoutProtocol

/// The fingerprint of a Workout server's key, what a client pins: SHA-256 of the key, written
/// in 13 groups of 4 base32 characters (`MFRG-GZDF-…-IVDE`), as `workoutd fingerprint`
/// prints it. Parsing ignores case, dashes and spaces.
public struct ServerFingerprint: Hashable, Sendable, CustomStringConvertible, LosslessStringConvertible {
    let value: KeyFingerprint

    init(_ value: KeyFingerprint) {
        self.value = value
    }

    /// Parses the text form; `nil` when it is not a fingerprint.
    public init?(_ description: String) {
        guard let value = KeyFingerprint(description) else { return nil }
        self.value = value
    }

    /// The fingerprint of a public key given as DER SubjectPublicKeyInfo.
    public init(publicKey: [UInt8]) {
        value = KeyFingerprint(publicKey: publicKey)
    }

    /// The text form, e.g. `MFRG-GZDF-MZTW-Q2LK-NNWG-23TP-OBYX-E43U-OV3H-O6DZ-PJAU-EQ2E-IVDE`.
    public var description: String { value.description }
}
