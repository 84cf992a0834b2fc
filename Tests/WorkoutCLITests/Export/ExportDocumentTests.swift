import Foundation
import Testing
import WorkoutClient
@testable import workout

/// Merging export chunks, and the CSV layout.
@Suite("Export document")
struct ExportDocumentTests {
    static let at = Date(timeIntervalSince1970: 1_748_755_800)  // 2025-06-01T05:30:00Z
    static let day = LocalDate(year: 2025, month: 6, day: 1)!
    static let mealID = UUID(uuidString: "0190A5B2-7C3E-7D4F-9A1B-2C3D4E5F6A7B")!
    static let workoutID = UUID(uuidString: "0190A5B2-7C3E-7D4F-9A1B-2C3D4E5F6A7C")!
    static let userID = UUID(uuidString: "0190A5B2-7C3E-7D4F-9A1B-2C3D4E5F6A7D")!

    static var document: ExportDocument {
        var document = ExportDocument()
        let profile = Profile(
            id: userID, email: "ada@example.com", firstName: "Ada", lastName: "Lovelace", timeZone: "Europe/Berlin",
            role: .owner, createdAt: at)
        document.merge(ExportChunk(
            profile: profile, totals: Totals(totalWorkouts: 1, totalCaloriesBurned: 280, points: 150, level: 1, currentStreakDays: 1, longestStreakDays: 1, totalActiveSeconds: 1800),
            revision: 5,
            workouts: [Workout(id: workoutID, type: "running", durationSeconds: 1800, caloriesBurned: 280, exercisesCompleted: 3, performedAt: at, notes: "easy, with \"hills\"", localDay: day)],
            exportedAt: at))
        document.merge(ExportChunk(
            revision: 5,
            meals: [Meal(id: mealID, mealType: .breakfast, eatenAt: at, name: "Porridge", items: [
                FoodItem(name: "oats", calories: 380, proteinG: 13, carbsG: 60, fatG: 7),
                FoodItem(name: "banana, ripe", calories: 105.5, servings: 1.5),
            ], localDay: day)],
            steps: [StepsDay(day: day, sources: [StepsReport(day: day, source: "phone", steps: 8500), StepsReport(day: day, source: "cli", steps: 8000)])],
            achievements: [Achievement(id: "workout_1", title: "First workout", details: "Complete your first workout", points: 100, unlocked: true, unlockedAt: at, progress: 1, target: 1)],
            exportedAt: at.addingTimeInterval(1)))
        return document
    }

    @Test("Chunks merge into one document: records appended, the first chunk's profile, totals and time kept")
    func merge() {
        let document = Self.document
        #expect(document.profile?.email == "ada@example.com")
        #expect(document.totals?.points == 150)
        #expect(document.exportedAt == Self.at)
        #expect(document.revision == 5)
        #expect(document.workouts.count == 1 && document.meals.count == 1 && document.steps.count == 1 && document.achievements.count == 1)
        #expect(document.summary == "1 workout, 1 meal, 0 weigh-ins, 1 day of steps, 1 achievement")
    }

    @Test("CSV: a header, one row per record with its kind, food items as rows of their meal")
    func csv() {
        let lines = Self.document.csv().components(separatedBy: "\r\n")
        #expect(lines == [
            "kind,id,parent_id,time,day,type,name,amount,unit,duration_seconds,calories,protein_g,carbs_g,fat_g,exercises,points,note,time_zone,distance_m,elevation_gain_m,average_heart_rate,max_heart_rate,steps,location",
            "profile,0190a5b2-7c3e-7d4f-9a1b-2c3d4e5f6a7d,,2025-06-01T05:30:00Z,,owner,Ada Lovelace,,Europe/Berlin,,,,,,,,ada@example.com,,,,,,,",
            "totals,,,,,,,1,level,1800,280,,,,1,150,current streak 1 day; longest 1 day,,,,,,,",
            "workout,0190a5b2-7c3e-7d4f-9a1b-2c3d4e5f6a7c,,2025-06-01T05:30:00Z,2025-06-01,running,,,,1800,280,,,,3,,\"easy, with \"\"hills\"\"\",,,,,,,",
            "meal,0190a5b2-7c3e-7d4f-9a1b-2c3d4e5f6a7b,,2025-06-01T05:30:00Z,2025-06-01,breakfast,Porridge,,,,485.5,13,60,7,,,,,,,,,,",
            "food_item,1,0190a5b2-7c3e-7d4f-9a1b-2c3d4e5f6a7b,2025-06-01T05:30:00Z,2025-06-01,,oats,,,,380,13,60,7,,,,,,,,,,",
            "food_item,2,0190a5b2-7c3e-7d4f-9a1b-2c3d4e5f6a7b,2025-06-01T05:30:00Z,2025-06-01,,\"banana, ripe\",1.5,servings,,105.5,0,0,0,,,,,,,,,,",
            "steps,,,,2025-06-01,,,8500,steps,,,,,,,,phone=8500; cli=8000,,,,,,,",
            "achievement,workout_1,,2025-06-01T05:30:00Z,,unlocked,First workout,1,of 1,,,,,,,100,Complete your first workout,,,,,,,",
            "",
        ])
    }

    @Test("JSON: one object with every kind of record, dates in ISO 8601")
    func json() throws {
        let text = try Output.json(Self.document)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["exportedAt", "revision", "profile", "totals", "workouts", "meals", "weights", "steps", "achievements", "goals"])
        #expect(object["exportedAt"] as? String == "2025-06-01T05:30:00Z")
        let meals = try #require(object["meals"] as? [[String: Any]])
        #expect((meals.first?["items"] as? [Any])?.count == 2)
    }
}
