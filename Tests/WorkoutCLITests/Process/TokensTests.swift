import Crypto
import Foundation
import Testing
import TestSupport

/// `tokens create`, `tokens list` and `tokens revoke` as processes against `workoutd`, and the
/// printed token used as an HTTP client uses it.
@Suite("workout makes, lists and revokes device tokens", .serialized)
struct TokensTests {
    /// Calls `Profile.GetProfile` on the server's HTTP face, on a connection of its own, with
    /// `Authorization: Bearer TOKEN`; the answer's status and body.
    private static func getProfile(port: Int, bearer token: String) async throws -> (status: Int, body: String) {
        try await blocking {
            let http = try HTTPTestClient(port: port)
            let answer = try http.request(
                "POST", "/workout.v1.ProfileService/GetProfile", body: Array("{}".utf8), headers: [("Authorization", "Bearer \(token)")])
            return (answer.status, answer.text)
        }
    }

    @Test("create prints the token once, list shows it, the token works as a bearer token until revoke, then list is empty")
    func lifecycle() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let created = try await household.succeed(["tokens", "create", "--name", "Home Assistant", "--scope", "read"])
            let tokenLine = try #require(created.split(separator: "\n").first { $0.hasPrefix("Token:") }, "\(created)")
            let token = tokenLine.dropFirst("Token:".count).trimmingCharacters(in: .whitespaces)
            #expect(Data(base64Encoded: token)?.count == 32, "\(created)")
            #expect(created.components(separatedBy: token).count == 2, "the token is printed once:\n\(created)")
            for expected in ["Name:    Home Assistant", "Scopes:  read", "cannot be shown again", "Authorization: Bearer <token>"] {
                #expect(created.contains(expected), "missing \(expected) in:\n\(created)")
            }

            let listed = try await household.jsonArray(["tokens", "list"])
            #expect(listed.count == 1)
            let id = try #require(listed.first?["id"] as? String)
            #expect(listed.first?["name"] as? String == "Home Assistant")
            #expect(listed.first?["scopes"] as? [String] == ["read"])
            #expect(listed.first?["lastUsedAt"] == nil, "never used yet")
            let table = try await household.succeed(["tokens"])
            for expected in ["ID", "Name", "Scopes", "Created", "Last used", id.lowercased(), "Home Assistant", "read", "never"] {
                #expect(table.contains(expected), "missing \(expected) in:\n\(table)")
            }

            let allowed = try await Self.getProfile(port: household.server.port, bearer: token)
            #expect(allowed.status == 200, "\(allowed)")
            #expect(allowed.body.contains(CLIHousehold.ownerEmail), "\(allowed)")
            #expect(try await household.jsonArray(["tokens", "list"]).first?["lastUsedAt"] is String, "used once now")

            let revoked = try await household.succeed(["tokens", "revoke", id])
            #expect(revoked == "Revoked device token \(id.lowercased()); it no longer works.\n")
            let refused = try await Self.getProfile(port: household.server.port, bearer: token)
            #expect(refused.status == 401, "\(refused)")
            #expect(try await household.jsonArray(["tokens", "list"]).isEmpty)
            #expect(try await household.succeed(["tokens", "list"]).hasPrefix("No device tokens."))

            let again = try await household.workout(["tokens", "revoke", id])
            #expect(again.status == 66, "\(again)")
            #expect(again.error.hasPrefix("workout: not found: no device token"), "\(again)")
        }
    }

    @Test("create needs a name and at least one scope of read, log and import", arguments: [
        (["--name", "x"], "at least one --scope"), (["--name", "x", "--scope", "write"], "expected read, log or import"),
        (["--scope", "read"], "--name"), (["--name", "x", "--scope", "read", "--signed"], "--scope import and no other"),
        (["--name", "x", "--scope", "import", "--scope", "log", "--signed"], "--scope import and no other"),
    ])
    func createUsage(arguments: [String], message: String) async throws {
        let result = try await CLIHousehold.workout(
            ["tokens", "create"] + arguments, environment: ["WORKOUT_CONFIG_DIR": NSTemporaryDirectory() + "workout-tokens-usage"])
        #expect(result.status == 64, "\(result)")
        #expect(result.error.contains(message), "\(result)")
    }

    @Test("create --signed prints a signing secret once; the phone's post signed with it is stored, one signed otherwise is refused; list marks it signed")
    func signed() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let created = try await household.succeed(["tokens", "create", "--name", "Pixel 8", "--scope", "import", "--signed"])
            func field(_ name: String) throws -> String {
                let line = try #require(created.split(separator: "\n").first { $0.hasPrefix("\(name):") }, "\(created)")
                return line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
            }
            let token = try field("Token")
            let secret = try field("Secret")
            #expect(secret.count == 40 && created.components(separatedBy: secret).count == 2, "\(created)")
            #expect(created.contains("X-Signature: sha256="), "\(created)")
            let body = Array(#"{"steps": [{"count": 1234, "start_time": "2026-11-02T09:00:00Z", "end_time": "2026-11-02T10:00:00Z"}]}"#.utf8)
            func post(signedWith key: String) async throws -> (status: Int, text: String) {
                let mac = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Array(key.utf8)))
                let signature = "sha256=" + mac.map { String(format: "%02x", $0) }.joined()
                return try await blocking {
                    let http = try HTTPTestClient(port: household.server.port)
                    let answer = try http.request("POST", "/ingest/health-connect", body: body,
                                                  headers: [("Authorization", "Bearer \(token)"), ("X-Signature", signature)])
                    return (answer.status, answer.text)
                }
            }
            let forged = try await post(signedWith: String(secret.reversed()))
            #expect(forged.status == 401, "\(forged)")
            let stored = try await post(signedWith: secret)
            #expect(stored.status == 200 && stored.text.contains(#""stepsSamples":1"#), "\(stored)")
            let listed = try await household.jsonArray(["tokens", "list"])
            #expect(listed.first?["signed"] as? Bool == true, "\(listed)")
            #expect(try await household.succeed(["tokens"]).contains("import (signed)"))
        }
    }

    @Test("a member cannot list or revoke the owner's tokens; the owner lists and revokes the member's with --member")
    func adminView() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let ownerToken = try await household.json(["tokens", "create", "--name", "Shortcut", "--scope", "log", "--scope", "log"])
            let ownerTokenInfo = try #require(ownerToken["deviceToken"] as? [String: Any])
            #expect(ownerTokenInfo["scopes"] as? [String] == ["log"], "a repeated scope is sent once")
            #expect((ownerToken["token"] as? String).flatMap { Data(base64Encoded: $0) }?.count == 32)
            let ownerTokenID = try #require(ownerTokenInfo["id"] as? String)

            let code = try #require(try await household.json(["admin", "invite"])["code"] as? String)
            let bob = household.directory + "/bob"
            let joined = try await household.workout(
                ["register", "--server", household.address, "--invite", code, "--email", "bob@example.com", "--first-name", "Bob",
                 "--password-stdin"], input: "bobs long password\n", configDirectory: bob)
            #expect(joined.status == 0, "\(joined)")
            let bobToken = try await household.json(
                ["tokens", "create", "--name", "Health Auto Export", "--scope", "import"], configDirectory: bob)
            let bobTokenID = try #require((bobToken["deviceToken"] as? [String: Any])?["id"] as? String)

            let peek = try await household.workout(["tokens", "list", "--member", CLIHousehold.ownerEmail], configDirectory: bob)
            #expect(peek.status == 77, "\(peek)")
            #expect(peek.error == "workout: only household admins can list other members' device tokens\n", "\(peek)")
            let steal = try await household.workout(["tokens", "revoke", ownerTokenID], configDirectory: bob)
            #expect(steal.status == 66, "\(steal)")
            #expect(try await household.jsonArray(["tokens", "list"]).count == 1, "the owner's token stays")

            let bobs = try await household.succeed(["tokens", "list", "--member", "BOB@example.com"])
            #expect(bobs.contains("Health Auto Export") && bobs.contains("import"), "\(bobs)")
            #expect(!bobs.contains("Shortcut"), "only Bob's: \(bobs)")
            let unknown = try await household.workout(["tokens", "list", "--member", "nobody@example.com"])
            #expect(unknown.status == 66, "\(unknown)")

            _ = try await household.succeed(["tokens", "revoke", bobTokenID])
            #expect(try await household.succeed(["tokens", "list", "--member", "bob@example.com"]) == "Bob <bob@example.com> has no device tokens.\n")
            #expect(try await household.succeed(["tokens", "list"], configDirectory: bob).hasPrefix("No device tokens."))
        }
    }
}
