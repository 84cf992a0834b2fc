import Foundation
import Testing
import WorkoutClient

/// The invite codes of Protocol/vectors/security.json (PROTOCOL.md §3.4), read by ``InviteCode``.
@Suite("Invite codes with the server's fingerprint, as the golden values say")
struct InviteCodeVectorTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var code: String
        var fingerprint: String?
        var testDescription: String { name }
    }

    static let vectors: [Vector] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        guard let data = try? Data(contentsOf: root.appendingPathComponent("Protocol/vectors/security.json")),
            let file = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [] }
        return (file["invites"] as? [[String: Any]] ?? []).map {
            Vector(name: $0["name"] as! String, text: $0["text"] as! String, code: $0["code"] as! String,
                   fingerprint: $0["fingerprint"] as? String)
        }
    }()

    @Test("The vector file has invites with and without a fingerprint")
    func coverage() {
        #expect(Self.vectors.contains { $0.fingerprint != nil })
        #expect(Self.vectors.contains { $0.fingerprint == nil })
    }

    @Test("An invite's text parses to its code and fingerprint; the code alone fits Register's invite_code", arguments: vectors)
    func invite(_ vector: Vector) throws {
        let invite = try #require(InviteCode(vector.text))
        #expect(invite.code == vector.code)
        #expect(invite.serverFingerprint?.description == vector.fingerprint)
        #expect((1...64).contains(invite.code.utf8.count))
        // Written back: the code, and the fingerprint without dashes after an "@".
        let written = InviteCode(code: vector.code, serverFingerprint: invite.serverFingerprint).description
        #expect(InviteCode(written) == invite)
        if let fingerprint = vector.fingerprint {
            #expect(written == vector.code + "@" + fingerprint.replacingOccurrences(of: "-", with: ""))
            #expect(written.utf8.count > 64, "the whole text never fits invite_code, so it never travels")
        } else {
            #expect(written == vector.code)
        }
    }
}
