import Foundation
import LMDB
import Storage
package import WorkoutProtocol
import WorkoutRules

/// Logging, editing and deleting meals. A meal holds its food items, so deleting the meal
/// deletes them with it. Item figures are for the portion eaten.
extension HouseholdStore {
    /// Validates a meal from a request and fills in its totals.
    func validatedMeal(_ meal: Workout_V1_Meal, now: Int64) throws -> (id: UUID, meal: Workout_V1_Meal) {
        let id = try Bounds.recordID(meal.id, field: "meal.id")
        switch meal.mealType {
        case .breakfast, .lunch, .dinner, .snack, .other: break
        default: throw DomainError.invalid("meal.meal_type", "meal.meal_type must be one of BREAKFAST, LUNCH, DINNER, SNACK, OTHER")
        }
        // An item from a library food is checked for its reference and amount here, and for
        // its figures once they are computed from the food (``resolveFoodItems``).
        for (index, item) in meal.items.enumerated() {
            if item.foodID.isEmpty {
                try FoodPortions.checkHandAmount(item, field: "meal.items[\(index)]")
            } else {
                try FoodPortions.checkReference(item, field: "meal.items[\(index)]")
            }
        }
        try RecordValidation.meal(
            eatenAtMs: meal.eatenAtMs, name: meal.name, timeZone: meal.timeZone,
            items: meal.items.map {
                $0.foodID.isEmpty
                    ? FoodItemFields(name: $0.name, calories: $0.calories, proteinG: $0.proteinG, carbsG: $0.carbsG, fatG: $0.fatG, servings: $0.servings)
                    : FoodItemFields(name: $0.name.isEmpty ? "-" : $0.name, calories: 0, proteinG: 0, carbsG: 0, fatG: 0, servings: 0)
            },
            names: RecordFieldNames(.wire, prefix: "meal"), now: now)
        var clean = Workout_V1_Meal()
        clean.id = id.data
        clean.mealType = meal.mealType
        clean.eatenAtMs = meal.eatenAtMs
        clean.timeZone = meal.timeZone
        clean.name = meal.name
        for item in meal.items {
            var cleanItem = Workout_V1_FoodItem()
            cleanItem.name = item.name
            cleanItem.calories = item.calories
            cleanItem.proteinG = item.proteinG
            cleanItem.carbsG = item.carbsG
            cleanItem.fatG = item.fatG
            cleanItem.servings = item.servings
            cleanItem.grams = item.grams
            if !item.foodID.isEmpty {
                // Figures come from the food; only the reference and the amount are kept.
                cleanItem = Workout_V1_FoodItem()
                cleanItem.name = item.name
                cleanItem.foodID = item.foodID
                cleanItem.grams = item.grams
                cleanItem.servings = item.servings
                cleanItem.servingName = item.servingName
            }
            clean.items.append(cleanItem)
        }
        clean.totals = Self.nutrition(of: clean.items)
        return (id, clean)
    }

    /// The sum of items' figures.
    static func nutrition(of items: [Workout_V1_FoodItem]) -> Workout_V1_NutritionTotals {
        var totals = Workout_V1_NutritionTotals()
        for item in items {
            totals.calories += item.calories
            totals.proteinG += item.proteinG
            totals.carbsG += item.carbsG
            totals.fatG += item.fatG
        }
        return totals
    }

    /// Whether a stored meal is what a request (before its library items are resolved) asks
    /// for: a library item matches the stored copy made from the same food and amount, even if
    /// the food changed since.
    private func sameContent(_ stored: Workout_V1_Meal, _ requested: Workout_V1_Meal) -> Bool {
        stored.mealType == requested.mealType && stored.eatenAtMs == requested.eatenAtMs && stored.timeZone == requested.timeZone
            && stored.name == requested.name && stored.items.count == requested.items.count
            && zip(stored.items, requested.items).allSatisfy { stored, requested in
                requested.foodID.isEmpty ? stored == requested : FoodPortions.isCopy(stored, of: requested)
            }
    }

    /// Adds (`sign` = 1) or removes (`sign` = -1) a meal's figures from its day.
    private func count(_ meal: Workout_V1_Meal, sign: Double, user: UUID, in txn: inout WriteTransaction) throws {
        guard let day = LocalDay(year: meal.localDay.year, month: meal.localDay.month, day: meal.localDay.day) else {
            throw DomainError(.internalError, "a stored meal has no valid local day")
        }
        try adjustDay(user: user, day: day, in: &txn) { figures in
            figures.caloriesEaten = max(0, figures.caloriesEaten + sign * meal.totals.calories)
            figures.proteinG = max(0, figures.proteinG + sign * meal.totals.proteinG)
            figures.carbsG = max(0, figures.carbsG + sign * meal.totals.carbsG)
            figures.fatG = max(0, figures.fatG + sign * meal.totals.fatG)
            if sign > 0 { figures.meals += 1 } else { figures.meals -= min(figures.meals, 1) }
        }
    }

    /// Logs a meal with its food items (idempotent by its client id).
    package func logMeal(_ caller: Caller, _ request: Workout_V1_LogMealRequest) async throws -> Workout_V1_LogMealResponse {
        let now = clock.nowMilliseconds()
        let (id, requested) = try validatedMeal(request.meal, now: now)
        return try await write(notifying: caller.userID) { [self] txn in
            var user = try authorize(caller, in: txn, now: now)
            let logged = try insertMeal(requested, id: id, user: &user, now: now, in: &txn)
            if !logged.replayed { try saveUser(&user, profileChanged: false, now: now, in: &txn) }
            var response = Workout_V1_LogMealResponse()
            response.meal = logged.meal
            response.replayed = logged.replayed
            return response
        }
    }

    /// Applies a validated meal to `user` inside `txn`: the record, its day's figures and the
    /// change log. The caller stores `user` afterwards unless `replayed`.
    ///
    /// - Returns: the stored meal (the earlier one when replayed) and whether it was a replay.
    ///
    /// - Parameter copies: Items from library foods already copied (a template's, or a meal's
    ///   being copied): an item of the meal that is one of them keeps it, rather than being
    ///   computed from the food again.
    func insertMeal(
        _ requested: Workout_V1_Meal, id: UUID, user: inout Workout_Store_V1_StoredUser, now: Int64, in txn: inout WriteTransaction,
        keepingCopies copies: [Workout_V1_FoodItem] = []
    ) throws -> (meal: Workout_V1_Meal, replayed: Bool) {
        let userID = UUID(bytes: user.userID)
        var meal = requested
        let zone = try recordZone(meal.timeZone, field: "meal.time_zone", user: user)
        meal.timeZone = zone.name
        let key = UserRecordKey(user: userID, id: id)
        if let existing = try txn.get(key, from: tables.meals.table) {
            guard sameContent(existing, meal) else {
                throw DomainError.alreadyExists("a different meal with this id exists", field: "meal.id")
            }
            return (existing, true)
        }
        try refuseTombstoned(.meal, user: userID, id: id, field: "meal.id", in: txn)
        try resolveFoodItems(&meal, keeping: copies, user: userID, now: now, in: &txn)
        meal.localDay = LocalDay.containing(instant: meal.eatenAtMs, in: zone.zone).wire
        meal.createdAtMs = now
        meal.updatedAtMs = now
        try count(meal, sign: 1, user: userID, in: &txn)
        meal.revision = try fileRecordChange(.meal, id: id, previousRevision: nil, user: &user, now: now, in: &txn)
        try txn.put(meal, forKey: key, in: tables.meals)
        return (meal, false)
    }

    /// Replaces a meal (all its items) and moves its figures between days as needed.
    package func updateMeal(_ caller: Caller, _ request: Workout_V1_UpdateMealRequest) async throws -> Workout_V1_UpdateMealResponse {
        let now = clock.nowMilliseconds()
        let (id, requested) = try validatedMeal(request.meal, now: now)
        return try await write(notifying: caller.userID) { [self] txn in
            var user = try authorize(caller, in: txn, now: now)
            let key = UserRecordKey(user: caller.userID, id: id)
            guard let old = try txn.get(key, from: tables.meals.table) else {
                throw DomainError.notFound("you have no meal with this id")
            }
            if request.expectedRevision != 0, request.expectedRevision != old.revision {
                throw DomainError.aborted("the meal changed meanwhile (revision \(old.revision), expected \(request.expectedRevision))")
            }
            var meal = requested
            let zone = try recordZone(meal.timeZone, field: "meal.time_zone", user: user)
            meal.timeZone = zone.name
            // Items the meal already had keep their copies: editing a meal never re-reads a food.
            try resolveFoodItems(&meal, keeping: old.items, user: caller.userID, now: now, in: &txn)
            meal.localDay = LocalDay.containing(instant: meal.eatenAtMs, in: zone.zone).wire
            meal.createdAtMs = old.createdAtMs
            meal.updatedAtMs = now
            try count(old, sign: -1, user: caller.userID, in: &txn)
            try count(meal, sign: 1, user: caller.userID, in: &txn)
            meal.revision = try fileRecordChange(.meal, id: id, previousRevision: old.revision, user: &user, now: now, in: &txn)
            try txn.put(meal, forKey: key, in: tables.meals)
            try saveUser(&user, profileChanged: false, now: now, in: &txn)
            var response = Workout_V1_UpdateMealResponse()
            response.meal = meal
            return response
        }
    }

    /// Deletes a meal and its items (idempotent).
    package func deleteMeal(_ caller: Caller, _ request: Workout_V1_DeleteMealRequest) async throws -> Workout_V1_DeleteMealResponse {
        let id = try Bounds.recordID(request.id, field: "id")
        let now = clock.nowMilliseconds()
        return try await write(notifying: caller.userID) { [self] txn in
            var user = try authorize(caller, in: txn, now: now)
            var response = Workout_V1_DeleteMealResponse()
            guard let old = try txn.delete(UserRecordKey(user: caller.userID, id: id), from: tables.meals) else { return response }
            try count(old, sign: -1, user: caller.userID, in: &txn)
            try fileTombstone(.meal, id: id, previousRevision: old.revision, user: &user, now: now, in: &txn)
            try saveUser(&user, profileChanged: false, now: now, in: &txn)
            response.deleted = true
            return response
        }
    }
}
