// Templates through the real store: a saved meal or workout logged again in one call, a retry
// with the same record id storing one record, a copy of yesterday's lunch, and refusals in the
// request's words.

import Foundation
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

@Suite("Templates")
struct TemplatesTests {
    static func save(_ store: HouseholdStore, _ member: Member, _ name: String, id: Data = newID(),
                     _ fill: (inout Workout_V1_Template) -> Void) async throws -> Workout_V1_Template {
        var request = Workout_V1_SaveTemplateRequest()
        request.template.id = id
        request.template.name = name
        fill(&request.template)
        return try await store.saveTemplate(member.caller, request).template
    }

    static func log(_ store: HouseholdStore, _ member: Member, template: Data? = nil, meal: Data? = nil, workout: Data? = nil,
                    record: Data, at: Int64 = 0) async throws -> Workout_V1_LogTemplateResponse {
        var request = Workout_V1_LogTemplateRequest()
        if let template { request.templateID = template }
        if let meal { request.mealID = meal }
        if let workout { request.workoutID = workout }
        request.recordID = record
        request.atMs = at
        return try await store.logTemplate(member.caller, request)
    }

    @Test("A saved breakfast is logged in one call at today's time; the same record id twice stores one meal")
    func mealTemplate() async throws {
        try await withHousehold { household in
            let store = household.store
            let owner = household.owner
            var oats = Workout_V1_AddFoodsRequest()
            oats.foods = [{ var f = Workout_V1_Food(); f.id = newID(); f.name = "Oats"; f.per100G.calories = 379; f.per100G.proteinG = 13; return f }()]
            _ = try await store.addFoods(owner.caller, oats)
            let template = try await Self.save(store, owner, "My breakfast") { template in
                template.meal = meal(at: 0, type: .breakfast, items: [105])
                var fromFood = Workout_V1_FoodItem()
                fromFood.foodID = oats.foods[0].id
                fromFood.grams = 60
                template.meal.items.append(fromFood)
            }
            #expect(template.meal.items.count == 2 && abs(template.meal.items[1].calories - 227.4) < 1e-9, "the food item saved as a copy")
            let record = newID()
            let first = try await Self.log(store, owner, template: template.id, record: record)
            #expect(!first.meal.replayed && first.meal.meal.eatenAtMs == household.clock.nowMilliseconds())
            #expect(first.meal.meal.items == template.meal.items && first.meal.meal.mealType == .breakfast)
            // A retry a minute later (its answer was lost): the same meal, replayed.
            household.clock.advance(by: 60_000)
            let retry = try await Self.log(store, owner, template: template.id, record: record)
            #expect(retry.meal.replayed && retry.meal.meal == first.meal.meal)
            var day = Workout_V1_MealsOfDayRequest()
            day.day = LocalDay.containing(instant: household.clock.nowMilliseconds(), in: TimeZone(identifier: "Europe/Berlin")!).wire
            #expect(try store.mealsOfDay(owner.caller, day).meals.count == 1)
            // Another id is another meal.
            _ = try await Self.log(store, owner, template: template.id, record: newID())
            #expect(try store.mealsOfDay(owner.caller, day).meals.count == 2)
            #expect(try store.listTemplates(owner.caller).templates.map(\.name) == ["My breakfast"])
        }
    }

    @Test("Yesterday's lunch copied in one call; a workout template counts as a workout")
    func copiesAndWorkouts() async throws {
        try await withHousehold { household in
            let store = household.store
            let owner = household.owner
            let yesterday = household.clock.nowMilliseconds() - 86_400_000
            let lunch = try await store.log(owner, meal(at: yesterday, type: .lunch, items: [400, 250])).meal
            let copy = try await Self.log(store, owner, meal: lunch.id, record: newID())
            #expect(copy.meal.meal.items == lunch.items && copy.meal.meal.id != lunch.id && copy.meal.meal.eatenAtMs == household.clock.nowMilliseconds())

            let run = try await Self.save(store, owner, "Tuesday run, 45 min") { $0.workout = workout(at: 0, seconds: 2_700, calories: 450) }
            let record = newID()
            let logged = try await Self.log(store, owner, template: run.id, record: record, at: yesterday)
            #expect(logged.workout.workout.durationSeconds == 2_700 && logged.workout.totals.totalWorkouts == 1 && !logged.workout.replayed)
            #expect(try await Self.log(store, owner, template: run.id, record: record, at: yesterday).workout.replayed)
            #expect(try await Self.log(store, owner, workout: logged.workout.workout.id, record: newID()).workout.totals.totalWorkouts == 2)
        }
    }

    @Test("Names are unique, sources must be one's own, contents are checked as records, and deleting works")
    func refusals() async throws {
        try await withHousehold { household in
            let store = household.store
            let owner = household.owner
            let other = try await household.addMember("Mia")
            let saved = try await Self.save(store, owner, "Snack") { $0.meal = meal(at: 0, type: .snack, items: [100]) }
            await expectDomainError(.alreadyExists, field: "template.name") {
                try await Self.save(store, owner, "SNACK") { $0.meal = meal(at: 0, type: .snack, items: [90]) }
            }
            // Saving again under its own id replaces it.
            #expect(try await Self.save(store, owner, "Snack", id: saved.id) { $0.meal = meal(at: 0, type: .snack, items: [90]) }.meal.items[0].calories == 90)
            await expectDomainError(.invalidArgument, field: "template.meal.items[0].calories") {
                try await Self.save(store, owner, "Feast") { $0.meal = meal(at: 0, items: [50_000]) }
            }
            await expectDomainError(.invalidArgument, field: "template.name") { try await Self.save(store, owner, "") { $0.meal = meal(at: 0) } }
            await expectDomainError(.invalidArgument, field: "template.meal") {
                var request = Workout_V1_SaveTemplateRequest()
                request.template.id = newID()
                request.template.name = "Nothing"
                return try await store.saveTemplate(owner.caller, request)
            }
            await expectDomainError(.notFound, field: "template_id") { try await Self.log(store, other, template: saved.id, record: newID()) }
            await expectDomainError(.invalidArgument, field: "template_id") {
                var request = Workout_V1_LogTemplateRequest()
                request.recordID = newID()
                return try await store.logTemplate(owner.caller, request)
            }
            var delete = Workout_V1_DeleteTemplateRequest()
            delete.id = saved.id
            #expect(try await store.deleteTemplate(owner.caller, delete).deleted)
            #expect(try await store.deleteTemplate(owner.caller, delete).deleted == false)
            #expect(try store.listTemplates(owner.caller).templates.isEmpty)
        }
    }
}
