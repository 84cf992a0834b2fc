import Foundation
import Testing
import TestSupport

/// `workout goals` as a person uses it, against a real `workoutd`: set goals in people's units,
/// see today's progress with what remains, clear some, refusals naming the option; a member
/// under 18 refused a deficit and a target weight, which an admin then sets with `--member`.
@Suite("workout goals against workoutd", .serialized)
struct GoalsTests {
    @Test("set, show with today's progress, clear; bad values are refused naming the option")
    func setShowClear() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            #expect(try await household.succeed(["goals"]).hasPrefix("No goals set."))
            let set = try await household.succeed(["goals", "set", "--energy", "2000", "--protein", "25%", "--steps", "8000", "--workouts", "3"])
            for expected in ["Goals set from", "Energy          2,000 kcal a day", "Protein         25 % of energy a day", "Steps           8,000 a day", "Workouts        3 workouts a week"] {
                #expect(set.contains(expected), "missing \(expected) in:\n\(set)")
            }
            _ = try await household.succeed(["log", "steps", "9500"])
            _ = try await household.succeed(["log", "meal", "--type", "lunch", "--item", "pasta:1200:40:150:30"])
            let shown = try await household.succeed(["goals"])
            for expected in ["Energy: 1,200 kcal of 2,000 kcal (800 kcal to go)", "Protein: 40 g of 125 g (85 g to go)",
                             "✓ Steps: 9,500 of 8,000 (1,500 over)", "Workouts: 0 of 3 (3 to go)", "Steps: met on 1 of 1 day"] {
                #expect(shown.contains(expected), "missing \(expected) in:\n\(shown)")
            }
            let json = try await household.json(["goals", "show"])
            let goals = try #require(json["goals"] as? [String: Any])
            #expect((goals["goals"] as? [String: Any])?["dailySteps"] as? Int == 8_000, "\(json)")
            #expect((json["progress"] as? [String: Any])?["day"] != nil, "\(json)")

            let cleared = try await household.succeed(["goals", "clear", "steps", "protein"])
            #expect(cleared.contains("Goals cleared from") && !cleared.contains("Steps") && cleared.contains("Energy"), "\(cleared)")
            let again = try await household.succeed(["goals", "clear", "steps"])
            #expect(again.hasPrefix("Nothing to clear"), "\(again)")

            for (arguments, status, words) in [
                (["goals", "set", "--energy", "300"], Int32(65), "workout: invalid input: --energy must be between 800 and 10000 (got 300)"),
                (["goals", "set", "--steps", "-5"], 65, "workout: invalid input: --steps must be between 100 and 100000 (got -5)"),
                (["goals", "set", "--protein", "60%", "--carbs", "50%"], 65, "add up to 110 %"),
                (["goals", "set", "--from", "2099-01-01", "--steps", "5000"], 65, "--from must not be after today"),
                (["goals", "set", "--by", "2027-01-01"], 64, "--by needs --weight"),
                (["goals", "clear", "sleep"], 64, "unknown goal 'sleep'"),
            ] {
                let result = try await household.workout(arguments)
                #expect(result.status == status && result.error.contains(words), "\(arguments): \(result)")
            }
        }
    }

    @Test("three days meeting the steps goal: the third report says which achievement it unlocked")
    func stepsGoalStreak() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            // The owner's zone is Berlin's; two days before today there.
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
            let parts = calendar.dateComponents([.year, .month, .day], from: calendar.date(byAdding: .day, value: -2, to: Date())!)
            let twoDaysAgo = String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
            _ = try await household.succeed(["goals", "set", "--steps", "8000", "--from", twoDaysAgo])
            let first = try await household.succeed(["log", "steps", "9000", "--day", twoDaysAgo])
            let second = try await household.succeed(["log", "steps", "8000", "--day", "yesterday"])
            #expect(!first.contains("Achievement") && !second.contains("Achievement"), "\(first)\(second)")
            let third = try await household.succeed(["log", "steps", "12000"])
            #expect(third.contains("Achievement unlocked: Steps goal, 3 days (+100 points): Meet your daily steps goal 3 days in a row"), "\(third)")
            let listed = try await household.succeed(["achievements"])
            #expect(listed.contains("Steps goal, 3 days"), "\(listed)")
        }
    }

    @Test("a member under 18 is refused a deficit and a target weight; an admin sets it with --member and sees it")
    func child() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let invite = try await household.json(["admin", "invite"])
            let code = try #require(invite["code"] as? String)
            let lena = household.directory + "/lena"
            let joined = try await household.workout(
                ["register", "--server", household.address, "--invite", code, "--email", "lena@example.com", "--first-name", "Lena",
                 "--password-stdin"], input: "lenas long password\n", configDirectory: lena)
            #expect(joined.status == 0, "\(joined)")
            _ = try await household.succeed(["profile", "set", "--age", "15", "--weight", "50", "--height", "160"], configDirectory: lena)

            let deficit = try await household.workout(["goals", "set", "--energy", "1500"], configDirectory: lena)
            #expect(deficit.status == 65, "\(deficit)")
            #expect(deficit.error.contains("--energy must be at least 2010 kcal for a member under 18"), "\(deficit)")
            let weight = try await household.workout(["goals", "set", "--weight", "45"], configDirectory: lena)
            #expect(weight.status != 0 && weight.error.contains("not allowed: only an admin may set a target weight for a member under 18"), "\(weight)")
            let own = try await household.succeed(["goals", "set", "--energy", "2200", "--steps", "10000"], configDirectory: lena)
            #expect(own.contains("Energy          2,200 kcal a day"), "\(own)")

            let byAdmin = try await household.succeed(["goals", "set", "--member", "lena@example.com", "--weight", "52"])
            #expect(byAdmin.contains("Weight          52 kg") && byAdmin.contains("Steps           10,000 a day"), "\(byAdmin)")
            let seen = try await household.succeed(["goals", "--member", "lena@example.com"])
            #expect(seen.contains("Goals of lena@example.com") && seen.contains("Under 18: energy targets start at 2,010 kcal"), "\(seen)")
            // The child's own view shows the weight goal the admin set.
            #expect(try await household.succeed(["goals"], configDirectory: lena).contains("Weight          52 kg"))
            // Nobody sees an adult's goals through --member, nor a member anyone's.
            let adult = try await household.workout(["goals", "--member", CLIHousehold.ownerEmail], configDirectory: lena)
            #expect(adult.status != 0 && adult.error.contains("only household admins"), "\(adult)")

            // An admin's mark keeps the rules when the stated age says adult; lifting it ends them.
            _ = try await household.succeed(["profile", "set", "--age", "30"], configDirectory: lena)
            let marked = try await household.succeed(["admin", "mark-child", "lena@example.com"])
            #expect(marked.contains("Lena is marked a child: the household's rules for children apply."), "\(marked)")
            let members = try await household.succeed(["admin", "members"])
            #expect(members.contains("Child") && members.contains("marked"), "\(members)")
            #expect(try await household.succeed(["goals", "--member", "lena@example.com"]).contains("Goals of lena@example.com"))
            let lifted = try await household.succeed(["admin", "mark-child", "lena@example.com", "--off"])
            #expect(lifted.contains("Lifted the mark: Lena is not a child."), "\(lifted)")
            let notAdmin = try await household.workout(["goals", "--member", "lena@example.com"])
            #expect(notAdmin.status != 0, "\(notAdmin)")
            let owner = try await household.workout(["admin", "mark-child", CLIHousehold.ownerEmail])
            #expect(owner.status != 0 && owner.error.contains("the household's admins are its adults"), "\(owner)")
        }
    }
}
