import Foundation
import Testing
@testable import WorkoutClient

@Suite("Session and page tokens")
struct SessionTokenTests {
    static let secret = Data((0..<32).map { UInt8($0 * 7 % 256) })

    @Test("A token survives base64 and JSON")
    func roundTrip() throws {
        let token = try #require(SessionToken(base64: Self.secret.base64EncodedString()))
        #expect(token.base64 == Self.secret.base64EncodedString())
        #expect(token.base64.count == 44)
        #expect(token.wire == Self.secret)
        #expect(SessionToken(wire: Self.secret) == token)

        let json = try JSONEncoder().encode([token])
        #expect(String(decoding: json, as: UTF8.self) == "[\"\(token.base64.replacingOccurrences(of: "/", with: "\\/"))\"]")
        #expect(try JSONDecoder().decode([SessionToken].self, from: json) == [token])
    }

    @Test("Only base64 of exactly 32 bytes is a token", arguments: [
        "", "not base64!", Data(count: 31).base64EncodedString(), Data(count: 33).base64EncodedString(),
        String(Data(count: 32).base64EncodedString().dropLast()),
    ])
    func invalid(text: String) {
        #expect(SessionToken(base64: text) == nil)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([SessionToken].self, from: Data("[\"\(text)\"]".utf8))
        }
    }

    @Test("Printing a token, or anything holding one, never shows the secret")
    func redacted() throws {
        let token = try #require(SessionToken(base64: Self.secret.base64EncodedString()))
        let signedIn = SignedIn(
            token: token, session: Fixtures.sessionInfo, profile: Fixtures.profile, totals: Fixtures.totals, revision: 1
        )
        var dumped = ""
        dump(signedIn, to: &dumped)
        var dumpedToken = ""
        dump(token, to: &dumpedToken)
        let outputs = [
            token.description, token.debugDescription, "\(token)", String(describing: token), String(reflecting: token),
            "\(signedIn)", String(reflecting: signedIn), "\([token])", dumped, dumpedToken,
        ]
        let hex = Self.secret.map { String($0) }
        for output in outputs {
            #expect(output.contains("SessionToken(••••)"))
            #expect(!output.contains(token.base64))
            #expect(!output.contains(String(token.base64.prefix(8))))
            // Neither the bytes as decimal numbers in a row.
            #expect(!output.contains(hex[1...4].joined(separator: ", ")))
            #expect(!output.contains("32 bytes"))
        }
        #expect(token.description == "SessionToken(••••)")
    }

    @Test("A page token is opaque bytes, base64 in JSON; empty bytes mean no next page")
    func pageToken() throws {
        let token = try #require(PageToken(wire: Data([0, 1, 2, 0xFF])))
        #expect(token.bytes == Data([0, 1, 2, 0xFF]))
        #expect(token.base64 == "AAEC/w==")
        #expect(PageToken(base64: "AAEC/w==") == token)
        #expect(PageToken(wire: Data()) == nil)
        #expect(PageToken(base64: "") == nil)
        let json = try JSONEncoder().encode(token)
        #expect(try JSONDecoder().decode(PageToken.self, from: json) == token)
    }
}
