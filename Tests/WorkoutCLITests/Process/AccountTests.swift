import Foundation
import Testing

/// `profile`, `profile set`, `password` and `account delete` as processes against `workoutd`.
@Suite("workout shows and changes the member's account", .serialized)
struct AccountTests {
    @Test("profile shows the profile as text and JSON; profile set changes only the fields given, and none clears one")
    func profile() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let shown = try await household.succeed(["profile"])
            for expected in ["Ada Lovelace <ada@example.com>, owner, on \(household.address)", "First name:  Ada", "Last name:   Lovelace",
                             "Age:         not stated", "Goal:        not stated", "Time zone:   Europe/Berlin"] {
                #expect(shown.contains(expected), "missing \(expected) in:\n\(shown)")
            }
            let before = try await household.json(["profile"])
            let beforeProfile = try #require(before["profile"] as? [String: Any])
            #expect(beforeProfile["email"] as? String == "ada@example.com")
            #expect(beforeProfile["age"] == nil)

            let set = try await household.succeed(
                ["profile", "set", "--age", "36", "--height", "168.5", "--weight", "61.2", "--goal", "improve-endurance", "--zone", "Asia/Tokyo"])
            for expected in ["Profile updated.", "Age:         36", "Height:      168.5 cm", "Weight:      61.2 kg", "Goal:        improve-endurance",
                             "Time zone:   Asia/Tokyo", "First name:  Ada"] {
                #expect(set.contains(expected), "missing \(expected) in:\n\(set)")
            }

            let renamed = try await household.json(["profile", "set", "--first-name", "Augusta", "--age", "none"])
            let profile = try #require(renamed["profile"] as? [String: Any])
            #expect(profile["firstName"] as? String == "Augusta")
            #expect(profile["lastName"] as? String == "Lovelace", "fields not given stay")
            #expect(profile["age"] == nil, "none clears the age")
            #expect(profile["heightCm"] as? Double == 168.5)
            #expect(profile["fitnessGoal"] as? String == "improveEndurance")
            #expect(profile["timeZone"] as? String == "Asia/Tokyo")
            let again = try #require(try await household.json(["profile", "show"])["profile"] as? [String: Any])
            #expect(again["firstName"] as? String == "Augusta")

            // `register` names the option --time-zone, and the help said so here too: both work.
            let moved = try await household.json(["profile", "set", "--time-zone", "Europe/Lisbon"])
            #expect((moved["profile"] as? [String: Any])?["timeZone"] as? String == "Europe/Lisbon")
        }
    }

    @Test("profile set --share changes whether the household sees you, and household says who it leaves out")
    func share() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let hidden = try await household.succeed(["profile", "set", "--share", "no"])
            #expect(hidden.contains("Shares with the household: no"), "\(hidden)")
            let board = try await household.succeed(["household"])
            #expect(board.contains("Members who do not share are not listed."), "\(board)")
            #expect(board.contains("You do not share: the others do not see you here"), "\(board)")
            let shown = try await household.succeed(["profile", "set", "--share", "yes"])
            #expect(shown.contains("Shares with the household: yes"), "\(shown)")
            #expect(!(try await household.succeed(["household"])).contains("You do not share"))
            #expect(try await household.workout(["profile", "set", "--share", "maybe"]).status == 64)
        }
    }

    @Test("profile set: values the server refuses exit 65 naming the option; malformed ones exit 64; nothing changes")
    func profileBadInput() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            for (arguments, option) in [
                (["--age", "300"], "--age must be"), (["--height", "20"], "--height must be"), (["--weight", "5000"], "--weight must be"),
                (["--zone", "Mars/Olympus_Mons"], "--zone must be an IANA time zone"), (["--first-name", ""], "--first-name must be"),
            ] {
                let result = try await household.workout(["profile", "set"] + arguments)
                #expect(result.status == 65, "\(arguments): \(result)")
                #expect(result.error.hasPrefix("workout: invalid input: \(option)"), "\(arguments): \(result)")
                #expect(!result.error.contains("height_cm") && !result.error.contains("time_zone") && !result.error.contains("first_name"))
            }
            for arguments in [["--age", "old"], ["--goal", "fame"], [], ["--height", "nan"]] {
                let result = try await household.workout(["profile", "set"] + arguments)
                #expect(result.status == 64, "\(arguments): \(result)")
                #expect(result.error.contains("Error:"), "\(arguments): \(result)")
            }
            let profile = try #require(try await household.json(["profile"])["profile"] as? [String: Any])
            #expect(profile["age"] == nil && profile["timeZone"] as? String == "Europe/Berlin" && profile["firstName"] as? String == "Ada")
        }
    }

    @Test("password changes the password (two lines of standard input); a wrong current one exits 77; a short new one 65")
    func password() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let other = household.directory + "/laptop"
            let laptop = try await household.workout(
                ["login", "--server", household.address, "--email", CLIHousehold.ownerEmail, "--password-stdin"],
                input: CLIHousehold.ownerPassword + "\n", configDirectory: other)
            #expect(laptop.status == 0, "\(laptop)")

            let wrong = try await household.workout(["password", "--password-stdin"], input: "not my password\nanother long password\n")
            #expect(wrong.status == 77, "\(wrong)")
            #expect(wrong.error == "workout: wrong password; nothing was changed\n")
            let short = try await household.workout(["password", "--password-stdin"], input: CLIHousehold.ownerPassword + "\nshort\n")
            #expect(short.status == 65, "\(short)")
            #expect(short.error.hasPrefix("workout: invalid input: the new password must be 8 to 256 bytes long"), "\(short)")
            let missing = try await household.workout(["password", "--password-stdin"], input: CLIHousehold.ownerPassword + "\n")
            #expect(missing.status == 64, "\(missing)")

            let changed = try await household.succeed(
                ["password", "--password-stdin", "--json"], input: CLIHousehold.ownerPassword + "\nthe new long password\n")
                .jsonObject()
            #expect(changed["revokedSessions"] as? Int == 1, "the laptop's session ends")
            #expect(try await household.workout(["whoami"], configDirectory: other).status == 77)
            #expect(try await household.workout(["whoami"]).status == 0, "this session goes on")

            let old = try await household.workout(
                ["login", "--server", household.address, "--email", CLIHousehold.ownerEmail, "--password-stdin"],
                input: CLIHousehold.ownerPassword + "\n", configDirectory: other)
            #expect(old.status == 77, "\(old)")
            let new = try await household.workout(
                ["login", "--server", household.address, "--email", CLIHousehold.ownerEmail, "--password-stdin"],
                input: "the new long password\n", configDirectory: other)
            #expect(new.status == 0, "\(new)")
            let text = try await household.succeed(["password", "--password-stdin"], input: "the new long password\nyet another password\n")
            #expect(text == "Password changed; 1 other device was signed out.\n")
        }
    }

    @Test("account delete needs the member's email typed: a wrong one, none, or a wrong password deletes nothing; the right ones delete")
    func deleteAccount() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let invite = try await household.json(["admin", "invite"])
            let code = try #require(invite["code"] as? String)
            let bob = household.directory + "/bob"
            let password = "bobs long password\n"
            let joined = try await household.workout(
                ["register", "--server", household.address, "--invite", code, "--email", "bob@example.com", "--first-name", "Bob",
                 "--password-stdin"], input: password, configDirectory: bob)
            #expect(joined.status == 0, "\(joined)")
            _ = try await household.succeed(["log", "workout", "running", "--minutes", "20"], configDirectory: bob)

            let unconfirmed = try await household.workout(["account", "delete", "--password-stdin"], input: password, configDirectory: bob)
            #expect(unconfirmed.status == 64, "\(unconfirmed)")
            #expect(unconfirmed.error.contains("--confirm bob@example.com"), "\(unconfirmed)")
            let mistyped = try await household.workout(
                ["account", "delete", "--confirm", "ada@example.com", "--password-stdin"], input: password, configDirectory: bob)
            #expect(mistyped.status == 1, "\(mistyped)")
            #expect(mistyped.error == "workout: \"ada@example.com\" is not your account's email (bob@example.com); nothing was deleted\n")
            let wrongPassword = try await household.workout(
                ["account", "delete", "--confirm", "bob@example.com", "--password-stdin"], input: "not bobs password\n", configDirectory: bob)
            #expect(wrongPassword.status == 77, "\(wrongPassword)")
            #expect(wrongPassword.error == "workout: wrong password; nothing was changed\n")
            #expect(try await household.jsonArray(["admin", "members"]).count == 2, "nothing was deleted")

            // The owner cannot leave a household without another admin.
            let owner = try await household.workout(
                ["account", "delete", "--confirm", "ada@example.com", "--password-stdin"], input: CLIHousehold.ownerPassword + "\n")
            #expect(owner.status == 1, "\(owner)")
            #expect(owner.error.hasPrefix("workout: refused: "), "\(owner)")

            let deleted = try await household.workout(
                ["account", "delete", "--confirm", "BOB@example.com", "--password-stdin", "--json"], input: password, configDirectory: bob)
            #expect(deleted.status == 0, "\(deleted)")
            let report = try deleted.output.jsonObject()
            #expect(report["email"] as? String == "bob@example.com")
            #expect(!FileManager.default.fileExists(atPath: bob + "/credentials.json"), "the dead session is forgotten")
            let members = try await household.jsonArray(["admin", "members"])
            #expect(members.compactMap { $0["email"] as? String } == ["ada@example.com"])
            let signIn = try await household.workout(
                ["login", "--server", household.address, "--email", "bob@example.com", "--password-stdin"], input: password,
                configDirectory: bob)
            #expect(signIn.status == 77, "\(signIn)")
        }
    }

    @Test("profile set --steps-sources chooses which source a day counts; log steps says which; a repeated source exits 65 naming the option")
    func stepsSources() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            _ = try await household.succeed(["log", "steps", "9000", "--source", "phone"])
            let watch = try await household.succeed(["log", "steps", "7000", "--source", "watch"])
            #expect(watch.contains("9,000 steps counted (watch reported 7,000, the day counts phone's)"), "\(watch)")
            let set = try await household.succeed(["profile", "set", "--steps-sources", "watch, phone"])
            #expect(set.contains("Steps count: watch, phone, the first that reported (else the largest)"), "\(set)")
            let again = try await household.succeed(["log", "steps", "7100", "--source", "watch"])
            #expect(again.contains("7,100 steps counted (watch reported 7,100)"), "\(again)")
            let repeated = try await household.workout(["profile", "set", "--steps-sources", "watch,watch"])
            #expect(repeated.status == 65 && repeated.error.contains("--steps-sources"), "\(repeated)")
            let cleared = try await household.succeed(["profile", "set", "--steps-sources", ""])
            #expect(cleared.contains("Steps count: each day's largest source"), "\(cleared)")
        }
    }
}
