import Foundation
import Testing

/// `workout export` as a process: the JSON object and the CSV table.
@Suite("workout exports everything", .serialized)
struct ExportTests {
    @Test("JSON to a file and CSV to standard output hold every record")
    func export() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            _ = try await household.succeed(["log", "workout", "running", "--minutes", "30", "--notes", "hills, \"steep\""])
            _ = try await household.succeed(["log", "meal", "--type", "lunch", "--item", "bread, rye:180:6:33:2", "--item", "soup:120"])
            _ = try await household.succeed(["log", "weight", "72.4"])
            _ = try await household.succeed(["log", "steps", "8500", "--source", "phone"])

            let file = household.directory + "/export.json"
            let summary = try await household.succeed(["export", "--format", "json", "--output", file])
            #expect(summary.contains("Exported 1 workout, 1 meal, 1 weigh-in, 1 day of steps, 1 achievement to \(file)"), "\(summary)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
            #expect(Set(object.keys) == ["achievements", "exportedAt", "goals", "meals", "profile", "revision", "steps", "totals", "weights", "workouts"])
            #expect((object["profile"] as? [String: Any])?["email"] as? String == "ada@example.com")
            #expect((object["workouts"] as? [[String: Any]])?.first?["notes"] as? String == "hills, \"steep\"")
            #expect(((object["meals"] as? [[String: Any]])?.first?["items"] as? [Any])?.count == 2)
            #expect((object["weights"] as? [[String: Any]])?.first?["weightKg"] as? Double == 72.4)
            #expect((object["steps"] as? [[String: Any]])?.first?["steps"] as? Int == 8500)

            let csv = try await household.succeed(["export", "--format", "csv"])
            let records = csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(records.first == "kind,id,parent_id,time,day,type,name,amount,unit,duration_seconds,calories,protein_g,carbs_g,fat_g,exercises,points,note,time_zone,distance_m,elevation_gain_m,average_heart_rate,max_heart_rate,steps,location")
            #expect(records.map { $0.prefix { $0 != "," } } == ["kind", "profile", "totals", "workout", "meal", "food_item", "food_item", "weight", "steps", "achievement"])
            #expect(records.contains { $0.hasPrefix("workout,") && $0.contains(",\"hills, \"\"steep\"\"\",") }, "\(csv)")
            #expect(records.contains { $0.hasPrefix("food_item,1,") && $0.contains(",\"bread, rye\",,,,180,6,33,2,") }, "\(csv)")
            #expect(records.contains { $0.hasPrefix("steps,") && $0.contains(",8500,steps,") && $0.hasSuffix(",phone=8500,,,,,,,") }, "\(csv)")
            #expect(!csv.contains("\n") || csv.components(separatedBy: "\n").dropLast().allSatisfy { $0.hasSuffix("\r") }, "CRLF line ends")
        }
    }
}
