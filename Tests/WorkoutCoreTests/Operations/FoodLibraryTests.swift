// The household food library through the real store: items logged from a food equal the
// hand computation, logged meals never change when the food does, search finds foods by the
// start of any word through the word index, barcodes are checked by their check digit, and
// each member's recent and frequent foods follow what they log.

import Foundation
import Storage
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

@Suite("Food library")
struct FoodLibraryTests {
    static func food(
        _ name: String, brand: String = "", barcode: String = "", kcal: Double, protein: Double = 0, carbs: Double = 0, fat: Double = 0,
        servings: [(String, Double)] = []
    ) -> Workout_V1_Food {
        var food = Workout_V1_Food()
        food.id = newID()
        food.name = name
        food.brand = brand
        food.barcode = barcode
        food.per100G.calories = kcal
        food.per100G.proteinG = protein
        food.per100G.carbsG = carbs
        food.per100G.fatG = fat
        food.servings = servings.map { var serving = Workout_V1_Serving(); serving.name = $0.0; serving.grams = $0.1; return serving }
        return food
    }

    @discardableResult
    static func add(_ store: HouseholdStore, _ member: Member, _ foods: Workout_V1_Food...) async throws -> Workout_V1_AddFoodsResponse {
        var request = Workout_V1_AddFoodsRequest()
        request.foods = foods
        return try await store.addFoods(member.caller, request)
    }

    static func item(from food: Workout_V1_Food, grams: Double = 0, servings: Double = 0, serving: String = "") -> Workout_V1_FoodItem {
        var item = Workout_V1_FoodItem()
        item.foodID = food.id
        item.grams = grams
        item.servings = servings
        item.servingName = serving
        return item
    }

    static func search(_ store: HouseholdStore, _ member: Member, _ query: String) throws -> [String] {
        var request = Workout_V1_SearchFoodsRequest()
        request.query = query
        return try store.searchFoods(member.caller, request).foods.map(\.name)
    }

    @Test("An item from a food equals the hand computation for grams and for servings, and keeps its copy when the food changes or goes")
    func itemsFromFoods() async throws {
        try await withHousehold { household in
            let store = household.store
            let owner = household.owner
            let yogurt = Self.food("Greek yogurt", brand: "Fage", kcal: 97, protein: 9, carbs: 3.9, fat: 5, servings: [("pot", 170), ("spoon", 15)])
            try await Self.add(store, owner, yogurt)
            var lunch = meal(at: household.clock.nowMilliseconds(), items: [])
            lunch.items = [Self.item(from: yogurt, grams: 250), Self.item(from: yogurt, servings: 1.5), Self.item(from: yogurt, servings: 2, serving: "SPOON")]
            let logged = try await store.log(owner, lunch).meal
            // By hand: 250 g → 2.5 × per 100 g; 1.5 pots = 255 g; 2 spoons = 30 g.
            for (item, grams) in zip(logged.items, [250.0, 255, 30]) {
                #expect(item.name == "Greek yogurt" && item.grams == grams && item.foodID == yogurt.id)
                #expect(abs(item.calories - 97 * grams / 100) < 1e-9 && abs(item.proteinG - 9 * grams / 100) < 1e-9)
                #expect(abs(item.carbsG - 3.9 * grams / 100) < 1e-9 && abs(item.fatG - 5 * grams / 100) < 1e-9)
            }
            #expect(logged.items[1].servingName == "pot" && logged.items[1].servings == 1.5 && logged.items[2].servingName == "spoon")
            #expect(abs(logged.totals.calories - 97 * 535 / 100) < 1e-9)

            // The food changes: the logged meal does not; a retry of the same log is a replay.
            var richer = yogurt
            richer.per100G.calories = 130
            var update = Workout_V1_UpdateFoodRequest()
            update.food = richer
            let updated = try await store.updateFood(owner.caller, update)
            #expect(updated.food.revision == 2 && updated.food.timesLogged == 3)
            #expect(try await store.log(owner, lunch).replayed)
            // Editing the meal (its note) keeps the copies made from the old figures.
            var edit = Workout_V1_UpdateMealRequest()
            edit.meal = lunch
            edit.meal.name = "Lunch at home"
            let edited = try await store.updateMeal(owner.caller, edit).meal
            #expect(edited.items == logged.items)
            // A new item from the changed food uses its new figures.
            edit.meal.items.append(Self.item(from: yogurt, grams: 100))
            #expect(try await store.updateMeal(owner.caller, edit).meal.items.last?.calories == 130)

            var delete = Workout_V1_DeleteFoodRequest()
            delete.id = yogurt.id
            #expect(try await store.deleteFood(owner.caller, delete).deleted)
            #expect(try await store.deleteFood(owner.caller, delete).deleted == false)
            var day = Workout_V1_MealsOfDayRequest()
            day.day = LocalDay.containing(instant: lunch.eatenAtMs, in: TimeZone(identifier: "Europe/Berlin")!).wire
            let kept = try store.mealsOfDay(owner.caller, day).meals
            #expect(kept.first?.items.prefix(3) == logged.items.prefix(3))
            // Logging from the deleted food now names it.
            await expectDomainError(.notFound, field: "meal.items[0].food_id") {
                try await store.log(owner, { var m = meal(at: household.clock.nowMilliseconds(), items: []); m.items = [Self.item(from: yogurt, grams: 10)]; return m }())
            }
        }
    }

    @Test("Amounts and servings are refused in the request's words")
    func amountRefusals() async throws {
        try await withHousehold { household in
            let store = household.store
            let owner = household.owner
            let butter = Self.food("Butter", kcal: 717, fat: 81, servings: [("pat", 5)])
            try await Self.add(store, owner, butter)
            func refused(_ item: Workout_V1_FoodItem, _ field: String, _ words: String) async {
                var request = Workout_V1_LogMealRequest()
                request.meal = meal(at: household.clock.nowMilliseconds(), items: [])
                request.meal.items = [item]
                do {
                    _ = try await store.logMeal(owner.caller, request)
                    Issue.record("expected a refusal on \(field)")
                } catch let error as DomainError {
                    #expect(error.field == field && error.message.contains(words), "\(error)")
                } catch {
                    Issue.record("unexpected \(error)")
                }
            }
            await refused(Self.item(from: butter), "meal.items[0].grams", "needs an amount: grams or servings")
            await refused(Self.item(from: butter, grams: 10, servings: 1), "meal.items[0].servings", "both grams and servings")
            await refused(Self.item(from: butter, servings: 1, serving: "slice"), "meal.items[0].serving_name", "\"slice\" is not a serving of \"Butter\" (it has \"pat\")")
            await refused(Self.item(from: butter, grams: 2_000), "meal.items[0].grams", "2000 g of \"Butter\" is more than one item may hold")
            await refused(Self.item(from: butter, grams: 9_000), "meal.items[0].grams", "between 0.1 and 5000")
        }
    }

    @Test("Search finds a food by the start of any word of its name or brand, without accents or case, and by barcode")
    func search() async throws {
        try await withHousehold { household in
            let store = household.store
            let owner = household.owner
            let member = try await household.addMember("Mia")
            let yogurt = Self.food("Greek yogurt", brand: "Fage", barcode: "5201054017524", kcal: 97)
            let plain = Self.food("Yogurt, plain", kcal: 61)
            try await Self.add(store, owner, yogurt, plain, Self.food("Crème fraîche", kcal: 292), Self.food("Greek salad", kcal: 90),
                               Self.food("Rye bread", brand: "Harry's", kcal: 259))
            #expect(try Self.search(store, member, "yog") == ["Greek yogurt", "Yogurt, plain"])
            #expect(try Self.search(store, member, "gr YOG") == ["Greek yogurt"])
            #expect(try Self.search(store, member, "fage") == ["Greek yogurt"])
            #expect(try Self.search(store, member, "creme") == ["Crème fraîche"])
            #expect(try Self.search(store, member, "ogurt").isEmpty, "the start of a word, not any part")
            #expect(try Self.search(store, member, "5201054017524") == ["Greek yogurt"])
            #expect(try Self.search(store, member, "harry") == ["Rye bread"])
            // The caller's most logged food first.
            var breakfast = Workout_V1_LogMealRequest()
            breakfast.meal = meal(at: household.clock.nowMilliseconds(), items: [])
            breakfast.meal.items = [Self.item(from: plain, grams: 150)]
            _ = try await store.logMeal(member.caller, breakfast)
            #expect(try Self.search(store, member, "yog") == ["Yogurt, plain", "Greek yogurt"])
            #expect(try Self.search(store, owner, "yog") == ["Greek yogurt", "Yogurt, plain"])
            await expectDomainError(.invalidArgument, field: "query") { try Self.search(store, member, "  ,;  ") }
            await expectDomainError(.invalidArgument, field: "query") { try Self.search(store, member, "") }
        }
    }

    @Test("A barcode with a wrong check digit is refused in the person's words; one barcode names one food")
    func barcodes() async throws {
        try await withHousehold { household in
            let store = household.store
            let owner = household.owner
            do {
                try await Self.add(store, owner, Self.food("Cola", barcode: "5449000000997", kcal: 42))
                Issue.record("a wrong check digit was accepted")
            } catch let error as DomainError {
                #expect(error.field == "foods[0].barcode")
                #expect(error.message == "foods[0].barcode 5449000000997 has a wrong check digit: its last digit is 7, the others call for 6; check the number on the pack")
            }
            await expectDomainError(.invalidArgument, field: "foods[0].barcode") { try await Self.add(store, owner, Self.food("Cola", barcode: "54490001", kcal: 42)) }
            await expectDomainError(.invalidArgument, field: "foods[0].barcode") { try await Self.add(store, owner, Self.food("Cola", barcode: "12345", kcal: 42)) }
            await expectDomainError(.invalidArgument, field: "foods[0].barcode") { try await Self.add(store, owner, Self.food("Cola", barcode: "5449-000", kcal: 42)) }
            for barcode in ["5449000000996", "036000291452", "96385074"] {
                try await Self.add(store, owner, Self.food("Food \(barcode)", barcode: barcode, kcal: 42))
            }
            await expectDomainError(.alreadyExists, field: "foods[0].barcode") { try await Self.add(store, owner, Self.food("Other cola", barcode: "5449000000996", kcal: 40)) }
            await expectDomainError(.invalidArgument, field: "foods[0].per_100g") {
                try await Self.add(store, owner, Self.food("Impossible", kcal: 400, protein: 60, carbs: 50))
            }
        }
    }

    @Test("Adding is idempotent by id; only the adder or an admin changes a food; recent and frequent follow what a member logs")
    func ownershipAndMyFoods() async throws {
        try await withHousehold { household in
            let store = household.store
            let owner = household.owner
            let member = try await household.addMember("Mia")
            let other = try await household.addMember("Ben")
            let oats = Self.food("Oats", kcal: 379, protein: 13, carbs: 68, fat: 7)
            let milk = Self.food("Milk", kcal: 64, protein: 3.4, carbs: 4.8, fat: 3.6, servings: [("glass", 250)])
            let added = try await Self.add(store, member, oats, milk)
            #expect(added.replayed == 0 && added.foods.allSatisfy { $0.addedBy == member.userID.data })
            #expect(try await Self.add(store, member, oats).replayed == 1)
            var changed = oats
            changed.name = "Rolled oats"
            await expectDomainError(.alreadyExists, field: "foods[0].id") { try await Self.add(store, member, changed) }
            var update = Workout_V1_UpdateFoodRequest()
            update.food = changed
            await expectDomainError(.permissionDenied) { try await store.updateFood(other.caller, update) }
            update.expectedRevision = 7
            await expectDomainError(.aborted) { try await store.updateFood(member.caller, update) }
            update.expectedRevision = 1
            #expect(try await store.updateFood(owner.caller, update).food.name == "Rolled oats")

            for (minutes, food) in [(0, oats), (1, milk), (2, oats), (3, oats)] {
                household.clock.advance(by: 60_000)
                var request = Workout_V1_LogMealRequest()
                request.meal = meal(at: household.clock.nowMilliseconds() - Int64(minutes), items: [])
                request.meal.items = [Self.item(from: food, grams: food.id == milk.id ? 0 : 50, servings: food.id == milk.id ? 1 : 0)]
                _ = try await store.logMeal(member.caller, request)
            }
            var mine = Workout_V1_MyFoodsRequest()
            mine.pageSize = 10
            let foods = try store.myFoods(member.caller, mine)
            #expect(foods.recent.map(\.id) == [oats.id, milk.id])
            #expect(foods.frequent.map(\.id) == [oats.id, milk.id])
            #expect(foods.frequent.first?.timesLogged == 3 && foods.frequent.first?.loggedMostBy.first?.userID == member.userID.data)
            #expect(try store.myFoods(other.caller, mine).recent.isEmpty)
        }
    }

    @Test("Search ranks the caller's most logged first, then by name, whether they logged fewer foods than match or more; the figures equal MyFoods'; a small frame leaves foods off with more set")
    func searchRanking() async throws {
        try await withHousehold { household in
            let store = household.store
            let owner = household.owner
            let member = try await household.addMember("Mia")
            let breads = ["Rye bread", "Brown bread", "White bread", "Banana bread"].map { Self.food($0, kcal: 250) }
            let others = ["Oats", "Milk", "Apple", "Pear", "Tea"].map { Self.food($0, kcal: 50) }
            for food in breads + others { try await Self.add(store, owner, food) }
            func log(_ caller: Member, _ food: Workout_V1_Food, times: Int) async throws {
                for _ in 0..<times {
                    household.clock.advance(by: 60_000)
                    var request = Workout_V1_LogMealRequest()
                    request.meal = meal(at: household.clock.nowMilliseconds(), items: [])
                    request.meal.items = [Self.item(from: food, grams: 100)]
                    _ = try await store.logMeal(caller.caller, request)
                }
            }
            // A food two of whose words start with the query is listed once.
            let sticks = Self.food("Bread sticks", brand: "Breadline", kcal: 400)
            try await Self.add(store, owner, sticks)
            #expect(try Self.search(store, member, "bread") == ["Banana bread", "Bread sticks", "Brown bread", "Rye bread", "White bread"])
            var deleteSticks = Workout_V1_DeleteFoodRequest()
            deleteSticks.id = sticks.id
            _ = try await store.deleteFood(owner.caller, deleteSticks)
            // Mia logged one bread twice: fewer foods than the four that match "bread".
            try await log(member, breads[2], times: 2)
            try await log(owner, breads[2], times: 3)
            let named = ["White bread", "Banana bread", "Brown bread", "Rye bread"]
            #expect(try Self.search(store, member, "bread") == named)
            // Now she logged more foods than match: each candidate is looked up, the same order.
            try await log(member, breads[0], times: 1)
            for food in others { try await log(member, food, times: 1) }
            #expect(try Self.search(store, member, "bread") == ["White bread", "Rye bread", "Banana bread", "Brown bread"])
            // The owner's order is their own.
            #expect(try Self.search(store, owner, "bread") == ["White bread", "Banana bread", "Brown bread", "Rye bread"])

            // Each answered food carries the household's figures, as MyFoods answers them.
            var request = Workout_V1_SearchFoodsRequest()
            request.query = "white"
            let found = try #require(try store.searchFoods(member.caller, request).foods.first)
            var mine = Workout_V1_MyFoodsRequest()
            mine.pageSize = 20
            let listed = try #require(try store.myFoods(member.caller, mine).frequent.first { $0.id == breads[2].id })
            #expect(found == listed && found.timesLogged == 5 && found.loggedMostBy.map(\.userID) == [owner.userID.data, member.userID.data])

            // A frame with room for about two foods: two answered, more set.
            request.query = "bread"
            let small = try Workout_V1_SearchFoodsResponse(serializedBytes: store.searchFoodsEncoded(member.caller, request, maxResponseBytes: 200))
            #expect(small.foods.count < 4 && !small.foods.isEmpty && small.more)
            #expect(small.foods.map(\.name) == Array(["White bread", "Rye bread", "Banana bread", "Brown bread"].prefix(small.foods.count)))
        }
    }
}
