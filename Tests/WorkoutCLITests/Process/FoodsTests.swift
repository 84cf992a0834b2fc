import Foundation
import Testing
import TestSupport

/// `workout foods` and `workout log meal --food` as a person uses them, against a real
/// `workoutd`: a list imported from CSV (twice, adding nothing the second time), a search by
/// the start of a word, a meal logged from library foods by grams and servings with the
/// figures computed by the server, and refusals naming what was typed.
@Suite("workout foods against workoutd", .serialized)
struct FoodsTests {
    @Test("import a CSV list, search it, log a meal from it, see recent foods; refusals name the option")
    func importSearchLog() async throws {
        try await CLIHousehold.with { household in
            try await household.login()
            let list = household.directory + "/foods.csv"
            try """
            name,brand,barcode,kcal,protein,carbs,fat,servings
            Greek yogurt,Fage,5201054017524,97,9,3.9,5,pot=170; spoon=15
            "Bread, rye",,,259,8.5,48,3.3,slice=30
            Crème fraîche,,,292,2.4,2.9,30,

            """.write(toFile: list, atomically: true, encoding: .utf8)
            #expect(try await household.succeed(["foods", "import", list]) == "Imported 3 foods from \(list): 3 added, 0 already in the library.\n")
            #expect(try await household.succeed(["foods", "import", list]).contains("0 added, 3 already in the library"))

            let found = try await household.succeed(["foods", "search", "yog"])
            #expect(found.contains("Greek yogurt, Fage") && found.contains("pot 170 g") && !found.contains("rye"), "\(found)")
            #expect(try await household.succeed(["foods", "search", "creme"]).contains("Crème fraîche"))

            let logged = try await household.succeed(["log", "meal", "--type", "breakfast", "--food", "greek yogurt=1x", "--food", "rye=2 slice",
                                                       "--food", "creme=20g", "--item", "coffee:2"])
            // 170 g × 97/100 = 164.9; 60 g × 259/100 = 155.4; 20 g × 292/100 = 58.4; + 2.
            for expected in ["Greek yogurt ×1  165 kcal", "Bread, rye ×2", "155 kcal", "Crème fraîche", "58 kcal", "Total", "381 kcal"] {
                #expect(logged.contains(expected), "missing \(expected) in:\n\(logged)")
            }
            let mine = try await household.succeed(["foods"])
            #expect(mine.hasPrefix("Recent") && mine.contains("Greek yogurt, Fage") && mine.contains("Most often"), "\(mine)")

            for (arguments, status, words) in [
                (["log", "meal", "--type", "snack", "--food", "yog=2 cup"], Int32(65), "--food #1 \"cup\" is not a serving of \"Greek yogurt\" (it has \"pot\", \"spoon\")"),
                (["log", "meal", "--type", "snack", "--food", "butter=10g"], 66, "no food of the library matches \"butter\""),
                (["log", "meal", "--type", "snack", "--food", "bread"], 64, "expected NAME=150g"),
                (["foods", "add", "Cola", "--kcal", "42", "--barcode", "5449000000997"], 65, "--barcode 5449000000997 has a wrong check digit: its last digit is 7, the others call for 6"),
                (["foods", "add", "Cola", "--kcal", "1200"], 65, "--kcal must be between 0 and 900 (got 1200)"),
            ] {
                let result = try await household.workout(arguments)
                #expect(result.status == status && result.error.contains(words), "\(arguments): \(result)")
            }
            let bad = household.directory + "/bad.csv"
            try "name,kcal\nApple,52\nPear,lots\n".write(toFile: bad, atomically: true, encoding: .utf8)
            let refused = try await household.workout(["foods", "import", bad])
            #expect(refused.status == 65 && refused.error.contains("line 3: kcal is not a number (\"lots\"); nothing was imported"), "\(refused)")
        }
    }
}
