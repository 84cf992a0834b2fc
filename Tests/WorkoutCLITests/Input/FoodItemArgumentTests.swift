import ArgumentParser
import Testing
import WorkoutClient
@testable import workout

/// `--item name:calories[:protein:carbs:fat]`.
@Suite("Food item arguments (--item)")
struct FoodItemArgumentTests {
    @Test("Name and calories, or name, calories and macros", arguments: [
        ("banana:105", FoodItem(name: "banana", calories: 105)),
        ("oats:380:13:60:7", FoodItem(name: "oats", calories: 380, proteinG: 13, carbsG: 60, fatG: 7)),
        ("Greek yogurt : 150.5", FoodItem(name: "Greek yogurt", calories: 150.5)),
        ("Soup: tomato:120", FoodItem(name: "Soup: tomato", calories: 120)),
        ("a:b:c:1:2:3:4", FoodItem(name: "a:b:c", calories: 1, proteinG: 2, carbsG: 3, fatG: 4)),
        ("tea:0", FoodItem(name: "tea", calories: 0)),
    ])
    func accepted(text: String, expected: FoodItem) throws {
        #expect(try FoodItemArgument.parse(text) == expected)
    }

    @Test("Missing parts, non-numbers and negative numbers are refused", arguments: [
        "banana", ":105", "banana:", "banana:lots", "banana:-5", "banana:nan", "banana:inf", "oats:380:13:sixty:7", "oats:380:13:7", "x:1:2:3", "",
    ])
    func refused(text: String) {
        #expect {
            try FoodItemArgument.parse(text)
        } throws: { error in
            (error as? ValidationError)?.message.contains("name:calories") == true
        }
    }
}
