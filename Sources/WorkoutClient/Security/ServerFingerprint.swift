import WorkoutProtocol

/// The fingerprint of a Workout server's key, what a client pins: SHA-256 of the key, written
/// in 13 groups of 4 base32 characters (`BDKF-BXMF-…-CZCQ`), as `workoutd fingerprint`
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

    /// The text form, e.g. `BDKF-BXMF-3AR5-DQVV-VZZU-E4YJ-EMBT-M3PJ-JBBG-HL76-ASCE-VRVP-CZCQ`.
    public var description: String { value.description }
}
