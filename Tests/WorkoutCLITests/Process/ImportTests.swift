import Foundation
import Testing
import TestSupport
import WorkoutClient
import WorkoutRules

/// `workout import` as a process against a `workoutd` process.
@Suite("workout imports a history", .serialized)
struct ImportTests {
    @Test("Apple Health: the dry run says what and writes nothing; skipped lines by number; the import; run again it changes nothing; --strict refuses")
    func appleHealth() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let file = household.directory + "/export.xml"
            let fixture = try HealthExportFixture.write(to: file, activityTypes: HealthWorkoutTypes.table.keys.sorted())

            let dry = try await household.workout(["import", file, "--dry-run", "--show-skipped", "100"])
            #expect(dry.status == 0, "\(dry)")
            #expect(dry.output.contains("Read \(fixture.workouts) workouts, \(fixture.meals) meals, \(fixture.weights) weigh-ins, \(fixture.stepsReports) steps reports from 2024-01-01 to "), "\(dry.output)")
            #expect(dry.output.contains("Dry run: nothing was written."))
            for (line, _) in fixture.skippedLines {
                #expect(dry.error.contains("\(file): line \(line): "), "line \(line) in:\n\(dry.error)")
            }
            #expect(dry.error.contains("durationSeconds must be between 1 and 86400 (got 324000)"))
            #expect(try await household.json(["whoami"])["totals"].flatMap { ($0 as? [String: Any])?["totalWorkouts"] as? Int } == 0)

            let first = try await household.workout(["import", file])
            #expect(first.status == 0, "\(first)")
            #expect(first.output.contains("Imported \(fixture.workouts) workouts, \(fixture.meals) meals, \(fixture.weights) weigh-ins, \(fixture.stepsReports) steps reports in "), "\(first.output)")
            #expect(first.output.contains("records/s") && first.output.contains("Unlocked: "))
            let totals = try #require(try await household.json(["whoami"])["totals"] as? [String: Any])
            #expect(totals["totalWorkouts"] as? Int == fixture.workouts)

            let report = try await household.json(["import", file])
            #expect((report["stored"] as? [String: Int])?.values.reduce(0, +) == 0)
            #expect(report["unchanged"] as? Int == fixture.workouts + fixture.meals + fixture.weights + fixture.stepsReports)
            #expect(try #require(try await household.json(["whoami"])["totals"] as? [String: Any])["points"] as? Int == totals["points"] as? Int)

            let strict = try await household.workout(["import", file, "--strict"])
            #expect(strict.status == 65 && strict.error.contains("--strict: \(fixture.skippedLines.count + 1) lines cannot be imported; nothing was written"), "\(strict)")
            // What was read and skipped, but no dry run's words: none was asked for.
            #expect(strict.output.hasPrefix("Read ") && !strict.output.contains("Dry run"), "\(strict)")
        }
    }

    @Test("The spreadsheet CSV: a header line per kind, meals from their food rows, a bad line reported by number and the rest imported")
    func spreadsheet() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let file = household.directory + "/sheet.csv"
            try """
                #workout,time,type,minutes,calories,time_zone,notes
                workout,2025-03-10 07:30,running,30,280,,Park run
                workout,2025-03-11 07:30,running,5400,280,,far too long
                workout,2025-03-12T18:00:00+09:00,yoga,45,120,Asia/Tokyo,
                #meal,time,type,name,food,calories,protein_g,carbs_g,fat_g,servings
                meal,2025-03-10 08:00,breakfast,Porridge,oats,380,13,60,7,
                meal,2025-03-10 08:00,breakfast,Porridge,banana,105,1,27,0,1.5
                #weight,time,kg,lb
                weight,2025-03-10 07:00,72.4,
                weight,2025-03-11 07:00,,160
                #steps,day,steps,source
                steps,2025-03-10,8500,phone
                steps,2025-03-10,-5,watch

                """.write(toFile: file, atomically: true, encoding: .utf8)
            let result = try await household.workout(["import", file])
            #expect(result.status == 0, "\(result)")
            #expect(result.error.contains("sheet.csv: line 3: durationSeconds must be between 1 and 86400 (got 324000)"), "\(result.error)")
            #expect(result.error.contains("sheet.csv: line 13: steps must be between 0 and 200000 (got -5)"), "\(result.error)")
            #expect(result.output.contains("Imported 2 workouts, 1 meal, 2 weigh-ins, 1 steps report"), "\(result.output)")
            // A sheet's figures are per serving: 1.5 bananas of 105 kcal count 157.5, and show their servings.
            let day = try await household.json(["today", "--day", "2025-03-10"])
            let items = try #require((day["meals"] as? [[String: Any]])?.first?["items"] as? [[String: Any]])
            #expect(items.map { $0["calories"] as? Double } == [380, 157.5] && items.last?["servings"] as? Double == 1.5, "\(items)")
            #expect((day["nutrition"] as? [String: Any])?["calories"] as? Double == 537.5, "\(day)")
            let table = try await household.succeed(["today", "--day", "2025-03-10"])
            #expect(table.contains("banana ×1.5") && table.contains("158 kcal"), "\(table)")
            let history = try #require(try await household.json(["history", "--all"])["workouts"] as? [[String: Any]])
            #expect(history.map { $0["type"] as? String } == ["yoga", "running"])
            #expect(history.first?["timeZone"] as? String == "Asia/Tokyo" && history.last?["timeZone"] as? String == "Europe/Berlin")
            let again = try await household.workout(["import", file])
            #expect(again.output.contains("Imported nothing") && again.output.contains("6 were there already"), "\(again.output)")
        }
    }

    /// A member's records as `workout export --format json` has them, without what a second
    /// account gives them anew (revisions, creation times, the unlock times of achievements).
    static func comparable(_ file: String) throws -> [String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        func strip(_ value: Any?, _ keys: Set<String>, sortedBy key: String? = nil) -> String {
            var records = value as? [[String: Any]] ?? []
            if let key { records.sort { "\($0[key] ?? "")" < "\($1[key] ?? "")" } }
            let list = records.map { record in
                var record = record.filter { !keys.contains($0.key) }
                if let sources = record["sources"] as? [[String: Any]] {
                    record["sources"] = sources.map { $0.filter { !keys.contains($0.key) } }
                }
                return record
            }
            return String(decoding: try! JSONSerialization.data(withJSONObject: list, options: [.sortedKeys]), as: UTF8.self)
        }
        var totals = object["totals"] as? [String: Any] ?? [:]
        totals.removeValue(forKey: "currentStreakDays")
        return [
            strip(object["workouts"], ["revision", "createdAt", "updatedAt"]),
            strip(object["meals"], ["revision", "createdAt", "updatedAt"]),
            strip(object["weights"], ["revision", "createdAt"]),
            strip(object["steps"], ["revision", "reportedAt"]),
            // Achievements unlocked by one batch share their time, so their order may differ.
            strip(object["achievements"], ["unlockedAt"], sortedBy: "id"),
            String(decoding: try JSONSerialization.data(withJSONObject: totals, options: [.sortedKeys]), as: UTF8.self),
        ]
    }

    @Test("Round trip: export (JSON and CSV), import into a fresh account: the same records, totals and achievements")
    func roundTrip() async throws {
        try await withTemporaryDirectory { directory in
            let json = directory + "/mine.json"
            let csv = directory + "/mine.csv"
            try await CLIHousehold.with { household in
                try await household.login()
                for day in 1...4 {
                    _ = try await household.succeed(["log", "workout", "running", "--minutes", "\(20 + day)", "--calories", "\(200 + day)", "--at", "2025-06-0\(day)T07:30"])
                }
                _ = try await household.succeed(["log", "workout", "yoga", "--minutes", "40", "--at", "2025-06-05T21:30:00-07:00"], environment: ["TZ": "America/Los_Angeles"])
                _ = try await household.succeed(["log", "meal", "--type", "lunch", "--name", "Soup, hot", "--item", "bread, rye:180:6:33:2", "--item", "soup:120", "--at", "2025-06-02T12:30"])
                _ = try await household.succeed(["log", "weight", "72.4", "--at", "2025-06-03T07:00"])
                _ = try await household.succeed(["log", "weight", "71.9"])  // now: a time with milliseconds
                _ = try await household.succeed(["log", "steps", "8500", "--source", "phone", "--day", "2025-06-03"])
                _ = try await household.succeed(["log", "steps", "9100", "--source", "watch", "--day", "2025-06-03"])
                _ = try await household.succeed(["export", "--format", "json", "--output", json])
                _ = try await household.succeed(["export", "--format", "csv", "--output", csv])
            }
            let original = try Self.comparable(json)
            for file in [json, csv] {
                try await CLIHousehold.with { household in
                    try await household.login()
                    let result = try await household.workout(["import", file])
                    #expect(result.status == 0 && result.output.contains("Imported 5 workouts, 1 meal, 2 weigh-ins, 2 steps reports"), "\(file): \(result)")
                    #expect(result.error.contains("computed by the server from the records, not imported") == file.hasSuffix(".csv"), "\(result.error)")
                    let again = directory + "/again.json"
                    _ = try await household.succeed(["export", "--format", "json", "--output", again])
                    let imported = try Self.comparable(again)
                    for (index, (expected, actual)) in zip(original, imported).enumerated() {
                        #expect(actual == expected, "\(file), part \(index)")
                    }
                }
            }
        }
    }
}
