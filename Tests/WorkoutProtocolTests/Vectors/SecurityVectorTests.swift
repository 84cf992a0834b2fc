import Foundation
import Testing
import WorkoutProtocol

/// Protocol/vectors/security.json: the golden values of PROTOCOL.md §3 (fingerprints, their
/// spellings, key endorsements), checked both ways against the Swift code.
struct SecurityVectors: Sendable {
    struct Fingerprint: Sendable, CustomTestStringConvertible {
        var name: String
        var spki: [UInt8]
        var digest: [UInt8]
        var text: String
        var testDescription: String { name }
    }

    struct Spelling: Sendable, CustomTestStringConvertible {
        var text: String
        var why: String?
        var testDescription: String { why.map { "\($0): \(text.debugDescription)" } ?? text.debugDescription }
    }

    struct Endorsement: Sendable, CustomTestStringConvertible {
        var name: String
        var oldKey: [UInt8]
        var newKeyDigest: [UInt8]
        var signedMessage: [UInt8]
        var signature: [UInt8]
        var testDescription: String { name }
    }

    struct Extension: Sendable {
        var endorsements: [String]
        var value: [UInt8]
        var presented: [UInt8]
        var leadsFrom: [[UInt8]]
    }

    var fingerprints: [Fingerprint] = []
    var canonical = ""
    var readAsSame: [Spelling] = []
    var refused: [Spelling] = []
    var endorsements: [Endorsement] = []
    var extensions: [Extension] = []

    static func bytes(_ hex: Any?) -> [UInt8] {
        let characters = Array(((hex as? String) ?? "").utf8)
        return stride(from: 0, to: characters.count - 1, by: 2).map {
            UInt8(String(decoding: characters[$0..<$0 + 2], as: UTF8.self), radix: 16)!
        }
    }

    static let file: SecurityVectors = {
        let url = repositoryRoot.appendingPathComponent("Protocol/vectors/security.json")
        guard let data = try? Data(contentsOf: url),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return SecurityVectors() }
        var vectors = SecurityVectors()
        for entry in root["fingerprints"] as? [[String: Any]] ?? [] {
            vectors.fingerprints.append(Fingerprint(
                name: entry["name"] as! String, spki: bytes(entry["spki_hex"]), digest: bytes(entry["digest_hex"]),
                text: entry["fingerprint"] as! String))
        }
        let spellings = root["fingerprint_spellings"] as? [String: Any] ?? [:]
        vectors.canonical = spellings["fingerprint"] as? String ?? ""
        vectors.readAsSame = (spellings["read_as_same"] as? [String] ?? []).map { Spelling(text: $0) }
        vectors.refused = (spellings["refused"] as? [[String: Any]] ?? []).map {
            Spelling(text: $0["text"] as! String, why: $0["why"] as? String)
        }
        for entry in root["endorsements"] as? [[String: Any]] ?? [] {
            vectors.endorsements.append(Endorsement(
                name: entry["name"] as! String, oldKey: bytes(entry["old_key_spki_hex"]),
                newKeyDigest: bytes(entry["new_key_digest_hex"]), signedMessage: bytes(entry["signed_message_hex"]),
                signature: bytes(entry["signature_hex"])))
        }
        for entry in root["extensions"] as? [[String: Any]] ?? [] {
            vectors.extensions.append(Extension(
                endorsements: entry["endorsements"] as! [String], value: bytes(entry["value_hex"]),
                presented: bytes(entry["presented_key_digest_hex"]),
                leadsFrom: (entry["leads_to_presented_from"] as! [String]).map { bytes($0) }))
        }
        return vectors
    }()
}

@Suite("Golden values of §3: fingerprints and key endorsements")
struct SecurityVectorTests {
    static let vectors = SecurityVectors.file

    @Test("The vector file is there with every kind of value")
    func coverage() {
        #expect(Self.vectors.fingerprints.count >= 3)
        #expect(Self.vectors.readAsSame.count >= 3)
        #expect(Self.vectors.refused.count >= 5)
        #expect(Self.vectors.endorsements.count >= 2)
        #expect(Self.vectors.extensions.count >= 1)
    }

    @Test("A key's fingerprint is SHA-256 of its SPKI as the certificate carries it, and its text form reads back", arguments: vectors.fingerprints)
    func fingerprint(_ vector: SecurityVectors.Fingerprint) throws {
        let fingerprint = KeyFingerprint(publicKey: vector.spki)
        #expect(fingerprint.digest == vector.digest)
        #expect(fingerprint.description == vector.text)
        #expect(KeyFingerprint(vector.text) == fingerprint)
        #expect(vector.text.last == "A" || vector.text.last == "Q", "the last 4 bits are zero")
    }

    @Test("Every listed spelling reads as the same fingerprint", arguments: vectors.readAsSame)
    func spellingRead(_ spelling: SecurityVectors.Spelling) throws {
        let canonical = try #require(KeyFingerprint(Self.vectors.canonical))
        #expect(KeyFingerprint(spelling.text) == canonical)
    }

    @Test("Every listed text is refused as a fingerprint", arguments: vectors.refused)
    func spellingRefused(_ spelling: SecurityVectors.Spelling) {
        #expect(KeyFingerprint(spelling.text) == nil)
    }

    @Test("An endorsement's signed message and signature are what §3.3 says, and valid", arguments: vectors.endorsements)
    func endorsement(_ vector: SecurityVectors.Endorsement) throws {
        let newKey = try #require(KeyFingerprint(digest: vector.newKeyDigest))
        #expect(KeyEndorsement.signedMessage(newKey: newKey) == vector.signedMessage)
        let endorsement = KeyEndorsement(oldKey: vector.oldKey, newKey: newKey, signature: vector.signature)
        #expect(endorsement.isValid)
        // The same signature does not vouch for another key.
        let other = try #require(KeyFingerprint(digest: vector.newKeyDigest.map { $0 ^ 1 }))
        #expect(!KeyEndorsement(oldKey: vector.oldKey, newKey: other, signature: vector.signature).isValid)
    }

    @Test("The extension value decodes to its endorsements, encodes back to the same bytes, and leads each old pin to the key presented")
    func extensionValue() throws {
        for vector in Self.vectors.extensions {
            let decoded = try #require(KeyEndorsement.decode(vector.value))
            let expected = vector.endorsements.map { name in Self.vectors.endorsements.first { $0.name == name }! }
            #expect(decoded.map(\.oldKey) == expected.map(\.oldKey))
            #expect(decoded.map(\.newKey.digest) == expected.map(\.newKeyDigest))
            #expect(decoded.map(\.signature) == expected.map(\.signature))
            #expect(KeyEndorsement.encode(decoded) == vector.value)
            let presented = try #require(KeyFingerprint(digest: vector.presented))
            for pinned in vector.leadsFrom {
                #expect(KeyEndorsement.chain(decoded, leadsFrom: try #require(KeyFingerprint(digest: pinned)), to: presented))
            }
            // Not backwards, and not from the presented key to itself.
            let first = try #require(KeyFingerprint(digest: vector.leadsFrom[0]))
            #expect(!KeyEndorsement.chain(decoded, leadsFrom: presented, to: first))
            #expect(!KeyEndorsement.chain(decoded, leadsFrom: presented, to: presented))
            // Cut short, or with a byte after the last endorsement: malformed.
            #expect(KeyEndorsement.decode(Array(vector.value.dropLast())) == nil)
            #expect(KeyEndorsement.decode(vector.value + [0]) == nil)
        }
    }
}
