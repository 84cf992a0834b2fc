import ClientTestSupport
import Foundation
import ServerTestSupport
import TestSupport
import Testing
import WorkoutClient

/// The food library through `WorkoutClient`, end to end: add, search, log an item from a
/// food (the server computes its figures and keeps the copy), recent foods, edit and delete.
@Suite("Client food library, end to end")
struct FoodsClientTests {
    @Test("A food is added, found, logged from by grams and servings, edited without changing the meal, and deleted")
    func library() async throws {
        try await LiveServer.run { live in
            let owner = live.client()
            _ = try await owner.login(email: ownerEmail, password: ownerPassword)
            let yogurt = Food(name: "Greek yogurt", brand: "Fage", barcode: "5201054017524",
                              per100g: Nutrients(calories: 97, proteinG: 9, carbsG: 3.9, fatG: 5), servings: [Serving(name: "pot", grams: 170)])
            let added = try await owner.addFoods([yogurt])
            #expect(added.alreadyStored == 0 && added.foods.first?.revision == 1 && added.foods.first?.addedBy != nil)
            #expect(try await owner.addFoods([yogurt]).alreadyStored == 1)
            #expect(try await owner.searchFoods("yog").foods.map(\.id) == [yogurt.id])
            #expect(try await owner.searchFoods("5201054017524").foods.map(\.id) == [yogurt.id])

            let meal = Meal(mealType: .breakfast, eatenAt: Date().addingTimeInterval(-60), items: [
                .from(food: yogurt.id, grams: 200), .from(food: yogurt.id, servings: 1),
            ])
            let logged = try await owner.logMeal(meal).meal
            #expect(logged.items.map(\.name) == ["Greek yogurt", "Greek yogurt"])
            #expect(logged.items.map(\.grams) == [200, 170] && logged.items[1].servingName == "pot")
            #expect(abs(logged.items[0].calories - 194) < 1e-9 && abs(logged.totals.calories - 194 - 164.9) < 1e-9)
            #expect(try await owner.myFoods().recent.map(\.id) == [yogurt.id])

            var richer = yogurt
            richer.per100g.calories = 120
            #expect(try await owner.updateFood(richer, expectedRevision: 1).revision == 2)
            #expect(try await owner.mealsOfDay(LocalDate(logged.eatenAt, in: TimeZone(identifier: "UTC")!), timeZone: "UTC").meals.first { $0.id == logged.id }?.items == logged.items)
            let wrong = await failure { _ = try await owner.addFoods([Food(name: "Cola", barcode: "5449000000997", per100g: Nutrients(calories: 42))]) }
            #expect(wrong?.code == .invalidArgument && wrong?.field == "foods[0].barcode")
            #expect(try await owner.deleteFood(yogurt.id))
            #expect(try await owner.deleteFood(yogurt.id) == false)
        }
    }
}
