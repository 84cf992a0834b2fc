import Foundation
import Testing

/// `edit` and `delete` of workouts, meals and weigh-ins by ID or prefix, as processes.
@Suite("workout edits and deletes records", .serialized)
struct RecordEditTests {
    @Test("A workout is edited by a prefix of its ID: only the options given change; then deleted, its points taken back")
    func workout() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let logged = try await household.json(["log", "workout", "running", "--minutes", "30", "--calories", "280", "--notes", "park"])
            let id = try #require((logged["workout"] as? [String: Any])?["id"] as? String)
            let prefix = String(id.prefix(13))

            let edited = try await household.json(["edit", "workout", prefix, "--minutes", "45", "--type", "cycling"])
            let workout = try #require(edited["workout"] as? [String: Any])
            #expect(workout["id"] as? String == id)
            #expect(workout["durationSeconds"] as? Int == 2700)
            #expect(workout["type"] as? String == "cycling")
            #expect(workout["caloriesBurned"] as? Double == 280, "not given, so kept")
            #expect(workout["notes"] as? String == "park")

            let text = try await household.succeed(["edit", "workout", id.lowercased(), "--notes", "", "--calories", "300"])
            #expect(text.hasPrefix("Updated the workout \(id.lowercased()): cycling, 45 min, "), "\(text)")
            #expect(text.contains("Now level"), "\(text)")
            let history = try await household.json(["history", "--type", "cycling"])
            let listed = try #require((history["workouts"] as? [[String: Any]])?.first)
            #expect(listed["notes"] as? String == "" && listed["caloriesBurned"] as? Double == 300)

            let refused = try await household.workout(["edit", "workout", prefix, "--type", ""])
            #expect(refused.status == 65, "\(refused)")
            #expect(refused.error.hasPrefix("workout: invalid input: --type must be"), "\(refused)")
            let nothing = try await household.workout(["edit", "workout", prefix])
            #expect(nothing.status == 64, "\(nothing)")

            let deleted = try await household.succeed(["delete", "workout", String(id.prefix(8))])
            #expect(deleted.hasPrefix("Deleted the workout \(id.lowercased()): cycling, 45 min"), "\(deleted)")
            #expect(deleted.contains("0 workouts in all"), "the totals no longer count it: \(deleted)")
            let gone = try await household.workout(["delete", "workout", id])
            #expect(gone.status == 66, "\(gone)")
            #expect(gone.error.contains("no workout of yours has an ID that starts or ends with"), "\(gone)")
        }
    }

    @Test("A meal and a weigh-in are edited and deleted by ID, as text and JSON")
    func mealAndWeight() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let meal = try await household.json(["log", "meal", "--type", "lunch", "--name", "Soup", "--item", "soup:250", "--item", "bread:150"])
            let mealID = try #require((meal["meal"] as? [String: Any])?["id"] as? String)
            let edited = try await household.json(["edit", "meal", mealID, "--type", "dinner", "--item", "stew:600:30:40:20"])
            #expect(edited["mealType"] as? String == "dinner")
            #expect(edited["name"] as? String == "Soup")
            #expect((edited["items"] as? [[String: Any]])?.map { $0["name"] as? String } == ["stew"])
            #expect((edited["totals"] as? [String: Any])?["calories"] as? Double == 600)
            let text = try await household.succeed(["edit", "meal", String(mealID.prefix(20)), "--name", "Stew"])
            #expect(text.contains("Updated the meal \(mealID.lowercased())") && text.contains("dinner: Stew") && text.contains("600 kcal"), "\(text)")

            let weight = try await household.json(["log", "weight", "72.4"])
            let weightID = try #require((weight["entry"] as? [String: Any])?["id"] as? String)
            let changed = try await household.json(["edit", "weight", weightID, "--weight", "71.9", "--note", "after a run"])
            #expect((changed["entry"] as? [String: Any])?["weightKg"] as? Double == 71.9)
            #expect(changed["profileWeightKg"] as? Double == 71.9, "the newest weigh-in is the profile's weight")
            let heavy = try await household.workout(["edit", "weight", weightID, "--weight", "5000"])
            #expect(heavy.status == 65, "\(heavy)")
            #expect(heavy.error.hasPrefix("workout: invalid input: --weight must be between 10 and 500"), "\(heavy)")

            let removed = try await household.json(["delete", "weight", weightID])
            #expect(removed["kind"] as? String == "weight")
            #expect((removed["deleted"] as? [String: Any])?["weightKg"] as? Double == 71.9)
            #expect(try await household.succeed(["delete", "meal", mealID]).hasPrefix("Deleted the meal \(mealID.lowercased()): dinner \"Stew\", 600 kcal"))
            let today = try await household.json(["today"])
            #expect((today["meals"] as? [Any])?.isEmpty == true)
            #expect((try await household.json(["weight"])["entries"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("An ambiguous prefix lists the candidates (exit 64); an unknown one says none matched (66); a malformed one exits 64; kinds do not mix")
    func prefixes() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            var ids: [String] = []
            for type in ["yoga", "rowing"] {
                let logged = try await household.json(["log", "workout", type, "--minutes", "20"])
                ids.append(try #require((logged["workout"] as? [String: Any])?["id"] as? String).lowercased())
            }
            // Time-ordered ids logged a moment apart share their first digits.
            let shared = String(zip(ids[0], ids[1]).prefix { $0 == $1 }.map(\.0))
            try #require(shared.filter(\.isHexDigit).count >= 4, "\(ids)")
            let ambiguous = try await household.workout(["delete", "workout", shared])
            #expect(ambiguous.status == 64, "\(ambiguous)")
            #expect(ambiguous.error.hasPrefix("workout: \"\(shared)\" matches 2 workouts; give more of the ID:"), "\(ambiguous)")
            #expect(ambiguous.error.contains("\(ids[0])  yoga, 20 min") && ambiguous.error.contains("\(ids[1])  rowing, 20 min"), "\(ambiguous)")
            #expect((try await household.json(["history"])["workouts"] as? [Any])?.count == 2, "nothing was deleted")
            // Their last digits are random: six of them name one.
            let last = String(ids[0].filter(\.isHexDigit).suffix(6))
            let edited = try await household.workout(["edit", "workout", last, "--minutes", "25"])
            #expect(edited.status == 0 && edited.output.contains(ids[0]), "\(edited)")

            let unknown = try await household.workout(["edit", "workout", "ffffffff", "--minutes", "10"])
            #expect(unknown.status == 66, "\(unknown)")
            #expect(unknown.error == "workout: no workout of yours has an ID that starts or ends with \"ffffffff\"; `workout history --json` lists their IDs\n")
            let otherKind = try await household.workout(["delete", "meal", ids[0]])
            #expect(otherKind.status == 66, "a workout's ID is no meal's: \(otherKind)")

            // The short IDs history shows tell the two apart, and delete takes them.
            let history = try await household.succeed(["history"])
            let shown = history.split(separator: "\n").dropFirst().map { String($0.prefix { $0 != " " }) }
            #expect(shown.count == 2 && Set(shown).count == 2 && shown.allSatisfy { $0.count >= 12 }, "\(history)")
            #expect(shown.first.map { first in ids[1].filter { $0 != "-" }.hasPrefix(first) } == true, "the newest first: \(history)")
            let deleted = try await household.succeed(["delete", "workout", try #require(shown.first)])
            #expect(deleted.hasPrefix("Deleted the workout \(ids[1]): rowing"), "\(deleted)")
            let today = try await household.succeed(["today"])
            #expect(today.contains("  ID"), "today's workouts show their IDs too: \(today)")

            for malformed in [["delete", "workout", "abc"], ["delete", "workout", "xyz123"], ["delete", "run", ids[0]], ["edit", "meal", "12"]] {
                let result = try await household.workout(malformed)
                #expect(result.status == 64, "\(malformed): \(result)")
                #expect(result.error.contains("Error:"), "\(malformed): \(result)")
            }
        }
    }
}
