public import Foundation
import WorkoutProtocol

extension WorkoutClient {
    /// Adds foods to the household's library: one, or a list (at most 500 a call). Safe to
    /// retry: a food already stored with the same content comes back as stored.
    ///
    /// - Parameter foods: The foods.
    /// - Returns: The stored foods, in order, and how many of them were stored already.
    /// - Throws: ``WorkoutError``: `INVALID_ARGUMENT` naming the field (`foods[2].barcode` for a
    ///   wrong check digit); `ALREADY_EXISTS` for an id stored with other content, or a barcode
    ///   another food has.
    public func addFoods(_ foods: [Food]) async throws(WorkoutError) -> (foods: [Food], alreadyStored: Int) {
        var request = Workout_V1_AddFoodsRequest()
        request.foods = foods.map(\.wire)
        let answer = try await call(MethodCatalog.addFoods, request, idempotent: true)
        return (answer.foods.map(Food.init(wire:)), Int(answer.replayed))
    }

    /// Replaces a food's fields; meals logged from it keep their copies.
    ///
    /// - Parameters:
    ///   - food: The food, with its id.
    ///   - expectedRevision: When given, the change applies only to this revision (`ABORTED` otherwise).
    /// - Returns: The food after the change.
    /// - Throws: ``WorkoutError``: `PERMISSION_DENIED` unless the caller added it or is an admin;
    ///   `NOT_FOUND`; `ABORTED`; `INVALID_ARGUMENT`.
    public func updateFood(_ food: Food, expectedRevision: UInt64? = nil) async throws(WorkoutError) -> Food {
        var request = Workout_V1_UpdateFoodRequest()
        request.food = food.wire
        request.expectedRevision = expectedRevision ?? 0
        return Food(wire: try await call(MethodCatalog.updateFood, request, idempotent: expectedRevision == nil).food)
    }

    /// Deletes a food; meals logged from it keep their items.
    ///
    /// - Parameter id: The food's id.
    /// - Returns: Whether there was such a food.
    /// - Throws: ``WorkoutError``: `PERMISSION_DENIED` unless the caller added it or is an admin.
    public func deleteFood(_ id: UUID) async throws(WorkoutError) -> Bool {
        var request = Workout_V1_DeleteFoodRequest()
        request.id = id.wireBytes
        return try await call(MethodCatalog.deleteFood, request, idempotent: true).deleted
    }

    /// Foods whose name or brand has a word starting with each word of `query` ("yog" finds
    /// "Greek yogurt"; case and accents do not matter), or whose barcode `query` is: the
    /// caller's most logged first, then by name.
    ///
    /// - Parameters:
    ///   - query: 1...64 bytes, at most 8 words.
    ///   - limit: At most this many (1...50); the server's default (20) when `nil`.
    /// - Returns: The foods, and whether more matched.
    /// - Throws: ``WorkoutError``: `INVALID_ARGUMENT` for an empty or too long query.
    public func searchFoods(_ query: String, limit: Int? = nil) async throws(WorkoutError) -> (foods: [Food], more: Bool) {
        var request = Workout_V1_SearchFoodsRequest()
        request.query = query
        if let limit { request.pageSize = try WireCount.check(limit, field: "limit", wireField: "page_size", range: 1...50) }
        let answer = try await call(MethodCatalog.searchFoods, request, idempotent: true)
        return (answer.foods.map(Food.init(wire:)), answer.more)
    }

    /// The foods the caller logs: most recent first, and most often first.
    ///
    /// - Parameter limit: At most this many of each (1...50); 20 when `nil`.
    /// - Returns: Recent and frequent foods.
    /// - Throws: ``WorkoutError``.
    public func myFoods(limit: Int? = nil) async throws(WorkoutError) -> (recent: [Food], frequent: [Food]) {
        var request = Workout_V1_MyFoodsRequest()
        if let limit { request.pageSize = try WireCount.check(limit, field: "limit", wireField: "page_size", range: 1...50) }
        let answer = try await call(MethodCatalog.myFoods, request, idempotent: true)
        return (answer.recent.map(Food.init(wire:)), answer.frequent.map(Food.init(wire:)))
    }
}
