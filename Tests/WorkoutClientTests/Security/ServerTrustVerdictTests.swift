import Testing
import WorkoutProtocol
import WorkoutServer
@testable import WorkoutClient

/// What ``ServerTrust`` decides about a presented key from the pins alone, as a table.
@Suite("The server key check's verdict")
struct ServerTrustVerdictTests {
    /// Three keys rotated one after the other (1 → 2 → 3), and a stranger's.
    struct Keys: Sendable {
        let one: ServerFingerprint
        let two: ServerFingerprint
        let three: ServerFingerprint
        let stranger: ServerFingerprint
        /// 1 → 2, signed by key 1.
        let oneToTwo: KeyEndorsement
        /// 2 → 3, signed by key 2.
        let twoToThree: KeyEndorsement
        /// The stranger's key "endorsing" key 2.
        let strangerToTwo: KeyEndorsement

        init() throws {
            let (first, firstKey) = try ServerIdentity.generate()
            let (second, secondKey) = try ServerIdentity.generate()
            let (third, _) = try ServerIdentity.generate()
            let (other, otherKey) = try ServerIdentity.generate()
            one = ServerFingerprint(first.fingerprint)
            two = ServerFingerprint(second.fingerprint)
            three = ServerFingerprint(third.fingerprint)
            stranger = ServerFingerprint(other.fingerprint)
            oneToTwo = try KeyEndorsement(endorsing: second.fingerprint, by: firstKey)
            twoToThree = try KeyEndorsement(endorsing: third.fingerprint, by: secondKey)
            strangerToTwo = try KeyEndorsement(endorsing: second.fingerprint, by: otherKey)
        }
    }

    static let keys = try! Keys()
    static let address = ServerAddress(host: "home.local", port: 7420)

    struct Row: CustomStringConvertible, Sendable {
        var name: String
        var presented: ServerFingerprint
        var endorsements: [UInt8]?
        var pinned: ServerFingerprint?
        var expected: ServerFingerprint?
        var verdict: ServerTrust.Verdict

        var description: String { name }
    }

    static var rows: [Row] {
        let k = keys
        var forged = k.oneToTwo
        forged.signature[forged.signature.count - 1] ^= 1
        func refuse(_ kind: TrustFailure.Kind, pinned: ServerFingerprint? = nil, expected: ServerFingerprint? = nil) -> ServerTrust.Verdict {
            .refuse(TrustFailure(kind, address: address, presented: k.two, pinned: pinned, expected: expected))
        }
        return [
            Row(name: "The pinned key is accepted", presented: k.two, pinned: k.two, verdict: .accept),
            Row(
                name: "A rotation the pinned key vouched for is pinned", presented: k.two,
                endorsements: KeyEndorsement.encode([k.oneToTwo]), pinned: k.one, verdict: .pin),
            Row(
                name: "Two rotations are followed from the pin", presented: k.three,
                endorsements: KeyEndorsement.encode([k.oneToTwo, k.twoToThree]), pinned: k.one, verdict: .pin),
            Row(name: "Another key without endorsements has changed", presented: k.two, pinned: k.one, verdict: refuse(.keyChanged, pinned: k.one)),
            Row(
                name: "An endorsement by another key than the pinned one does not vouch", presented: k.two,
                endorsements: KeyEndorsement.encode([k.strangerToTwo]), pinned: k.one, verdict: refuse(.keyChanged, pinned: k.one)),
            Row(
                name: "An endorsement from the pinned key with a broken signature is invalid", presented: k.two,
                endorsements: KeyEndorsement.encode([forged]), pinned: k.one, verdict: refuse(.endorsementInvalid, pinned: k.one)),
            Row(
                name: "A malformed endorsement extension is invalid", presented: k.two, endorsements: [2, 0, 1],
                pinned: k.one, verdict: refuse(.endorsementInvalid, pinned: k.one)),
            Row(name: "Not pinned, the expected key is pinned", presented: k.two, expected: k.two, verdict: .pin),
            Row(
                name: "Not pinned, a key the expected one vouched for is pinned (a rotation since the fingerprint was given)",
                presented: k.two, endorsements: KeyEndorsement.encode([k.oneToTwo]), expected: k.one, verdict: .pin),
            Row(
                name: "Not pinned, another key than the expected one is refused", presented: k.two, expected: k.stranger,
                verdict: refuse(.unexpectedKey, expected: k.stranger)),
            Row(name: "Not pinned and nothing expected: the app is asked", presented: k.two, verdict: .ask),
        ]
    }

    @Test("Each presented key gets its verdict", arguments: rows)
    func verdict(row: Row) {
        let verdict = ServerTrust.verdict(
            presented: row.presented, endorsements: row.endorsements, pinned: row.pinned, expected: row.expected, address: Self.address)
        #expect(verdict == row.verdict)
    }
}
