import Foundation
import Testing

/// `workout admin invites`: IDs shown by their shortest unique prefix, which `revoke-invite` takes.
@Suite("workout admin invites", .serialized)
struct AdminInvitesTests {
    @Test("The list shows each invite by the shortest prefix unique among all invites, and revoke-invite takes it")
    func shortIDs() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            for note in ["for Bob", "for Cleo"] {
                _ = try await household.json(["admin", "invite", "--note", note])
            }
            let invites = try await household.jsonArray(["admin", "invites"])
            let bobs = try #require(invites.first { $0["note"] as? String == "for Bob" }?["id"] as? String)
            let hex = bobs.lowercased().filter { $0 != "-" }
            let table = try await household.succeed(["admin", "invites"])
            let shown = try #require(
                table.split(separator: "\n").lazy.compactMap { line in
                    line.split(separator: " ").first { $0.count >= 4 && hex.hasPrefix($0) }
                }.first,
                "\(table)")
            #expect(shown.count < 32, "a prefix, not the whole ID: \(table)")

            let revoked = try await household.succeed(["admin", "revoke-invite", String(shown)])
            #expect(revoked == "Invite \(bobs.lowercased()) is now revoked.\n", "\(revoked)")
            #expect(try await household.jsonArray(["admin", "invites"]).count == 1)
            let all = try await household.succeed(["admin", "invites", "--all"])
            #expect(all.contains(String(shown)) && all.contains("revoked"), "\(all)")
            // Four times a hex digit no invite's ID starts with.
            let firsts = Set(invites.compactMap { ($0["id"] as? String)?.lowercased().first })
            let digit = try #require("0123456789abcdef".first { !firsts.contains($0) })
            let none = try await household.workout(["admin", "revoke-invite", String(repeating: digit, count: 4)])
            #expect(none.status == 66 && none.error.hasPrefix("workout: not found: no invite has an ID that starts or ends with"), "\(none)")
        }
    }
}
