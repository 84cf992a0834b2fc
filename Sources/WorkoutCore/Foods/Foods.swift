import Foundation
import LMDB
import Storage
package import WorkoutProtocol
import WorkoutRules

/// The household's food library: adding (one food or a list), editing and deleting foods,
/// searching them by the start of any word, and each member's recent and frequent foods.
/// Foods belong to the household: every member sees them all; the member who added a food,
/// or an admin, may change it.
extension HouseholdStore {
    /// The most matching foods a search ranks (the first in word order).
    static let searchCandidates = 200
    /// The most word entries a search reads (a one-letter query over a large library).
    static let searchedWordEntries = 5_000

    /// Adds foods, idempotent by id: a food already stored with the same content is answered
    /// as stored (counted in `replayed`).
    ///
    /// - Throws: ``DomainError`` `invalidArgument` naming the field (`foods[2].barcode`),
    ///   `alreadyExists` for an id stored with other content or a barcode another food has.
    package func addFoods(_ caller: Caller, _ request: Workout_V1_AddFoodsRequest) async throws -> Workout_V1_AddFoodsResponse {
        let foods = try validatedFoods(request)
        let now = clock.nowMilliseconds()
        return try await write { [self] txn in
            _ = try authorize(caller, in: txn, now: now)
            return try storeFoods(foods, addedBy: caller.userID, now: now, in: &txn)
        }
    }

    /// The foods of an AddFoods request, each checked, ids and barcodes distinct.
    func validatedFoods(_ request: Workout_V1_AddFoodsRequest) throws -> [(id: UUID, food: Workout_V1_Food)] {
        guard (1...FoodLimits.mostFoodsPerCall).contains(request.foods.count) else {
            throw DomainError.invalid("foods", "foods must hold 1 to \(FoodLimits.mostFoodsPerCall) foods (got \(request.foods.count))")
        }
        var foods: [(id: UUID, food: Workout_V1_Food)] = []
        var ids: Set<UUID> = []
        var barcodes: [String: Int] = [:]
        for (index, food) in request.foods.enumerated() {
            let checked = try validatedFood(food, field: "foods[\(index)]")
            guard ids.insert(checked.id).inserted else {
                throw DomainError.invalid("foods[\(index)].id", "foods[\(index)].id repeats the id of an earlier food of the request")
            }
            if !checked.food.barcode.isEmpty {
                if let earlier = barcodes[checked.food.barcode] {
                    throw DomainError.invalid("foods[\(index)].barcode", "foods[\(index)].barcode \(checked.food.barcode) is also the barcode of foods[\(earlier)]")
                }
                barcodes[checked.food.barcode] = index
            }
            foods.append(checked)
        }
        return foods
    }

    /// Stores checked foods as `user` added them (a food already stored with the same content
    /// is answered as stored).
    func storeFoods(
        _ foods: [(id: UUID, food: Workout_V1_Food)], addedBy user: UUID, now: Int64, in txn: inout WriteTransaction
    ) throws -> Workout_V1_AddFoodsResponse {
        var response = Workout_V1_AddFoodsResponse()
        for (index, (id, food)) in foods.enumerated() {
            if let existing = try txn.get(id, from: tables.foods.table) {
                guard sameFood(existing, food) else {
                    throw DomainError.alreadyExists("a different food with this id exists", field: "foods[\(index)].id")
                }
                response.replayed += 1
                response.foods.append(try answered(existing, id: id, in: txn))
                continue
            }
            try refuseTakenBarcode(food.barcode, by: id, field: "foods[\(index)].barcode", in: txn)
            var stored = food
            stored.addedBy = user.data
            stored.createdAtMs = now
            stored.updatedAtMs = now
            stored.revision = 1
            _ = try txn.put(stored, forKey: id, in: tables.foods)
            response.foods.append(stored)
        }
        return response
    }

    /// Replaces a food's fields. Meals logged from it keep their own copies.
    ///
    /// - Throws: ``DomainError`` `notFound`, `permissionDenied` (neither its adder nor an admin),
    ///   `aborted` (the revision moved on), `invalidArgument`, `alreadyExists` (barcode taken).
    package func updateFood(_ caller: Caller, _ request: Workout_V1_UpdateFoodRequest) async throws -> Workout_V1_UpdateFoodResponse {
        let (id, food) = try validatedFood(request.food, field: "food")
        let now = clock.nowMilliseconds()
        return try await write { [self] txn in
            let user = try authorize(caller, in: txn, now: now)
            guard let old = try txn.get(id, from: tables.foods.table) else { throw DomainError.notFound("the household has no food with this id") }
            try requireMayChange(old, user)
            if request.expectedRevision != 0, request.expectedRevision != old.revision {
                throw DomainError.aborted("the food changed meanwhile (revision \(old.revision), expected \(request.expectedRevision))")
            }
            try refuseTakenBarcode(food.barcode, by: id, field: "food.barcode", in: txn)
            var stored = food
            stored.addedBy = old.addedBy
            stored.createdAtMs = old.createdAtMs
            stored.updatedAtMs = now
            stored.revision = old.revision + 1
            _ = try txn.put(stored, forKey: id, in: tables.foods)
            var response = Workout_V1_UpdateFoodResponse()
            response.food = try answered(stored, id: id, in: txn)
            return response
        }
    }

    /// Deletes a food (idempotent). Meals logged from it keep their items; members' uses of it go.
    package func deleteFood(_ caller: Caller, _ request: Workout_V1_DeleteFoodRequest) async throws -> Workout_V1_DeleteFoodResponse {
        let id = try Bounds.recordID(request.id, field: "id")
        let now = clock.nowMilliseconds()
        return try await write { [self] txn in
            let user = try authorize(caller, in: txn, now: now)
            var response = Workout_V1_DeleteFoodResponse()
            guard let old = try txn.get(id, from: tables.foods.table) else { return response }
            try requireMayChange(old, user)
            _ = try txn.delete(id, from: tables.foods)
            for (_, useKey) in try txn.scan(tables.foodUsers, ScanRequest(range: .prefix(id.orderedKey))).elements {
                _ = try txn.delete(useKey, from: tables.foodUses)
            }
            response.deleted = true
            return response
        }
    }

    /// Foods whose name or brand has a word starting with each query word (or, for a query of
    /// 8 to 14 digits, the food with that barcode): the caller's most logged first, then by name
    /// (lower-cased, in Unicode order). The candidates and their names come from the word index;
    /// only the foods answered are read.
    package func searchFoods(_ caller: Caller, _ request: Workout_V1_SearchFoodsRequest) throws -> Workout_V1_SearchFoodsResponse {
        try Workout_V1_SearchFoodsResponse(serializedBytes: searchFoodsEncoded(caller, request))
    }

    /// ``searchFoods(_:_:)`` as the encoded `SearchFoodsResponse`, the hot path of a type-ahead:
    /// the caller's counts come from one scan of their uses by count (keys only) when they
    /// logged no more foods than there are candidates, and each food answered is its stored
    /// encoding copied into the reply, with its use figures appended as fields of their own
    /// (a stored food holds neither, so the reply decodes as the food with them set).
    ///
    /// - Parameter maxResponseBytes: The client's largest frame: foods beyond it are left off,
    ///   with `more` set.
    package func searchFoodsEncoded(
        _ caller: Caller, _ request: Workout_V1_SearchFoodsRequest, maxResponseBytes: Int = ResponseBudget.largestReply
    ) throws -> [UInt8] {
        try Bounds.text(request.query, field: "query", bytes: FoodLimits.queryBytes)
        let size = try Bounds.pageSize(request.pageSize, field: "page_size", maximum: 50, defaultSize: 20)
        let words = FoodWords.words(of: request.query)
        guard !words.isEmpty else {
            throw DomainError.invalid("query", "query must have a letter or a digit to search by (got \"\(request.query)\")")
        }
        guard words.count <= FoodLimits.mostQueryWords else {
            throw DomainError.invalid("query", "query may have at most \(FoodLimits.mostQueryWords) words (got \(words.count))")
        }
        let now = clock.nowMilliseconds()
        return try store.read { txn in
            _ = try authorize(caller, in: txn, now: now)
            // Candidates with the (lower-cased) name they rank by, read from the index alone. A
            // food two of whose words match comes twice; the ranking keeps it once.
            var found: [(id: UUID, name: String)] = []
            found.reserveCapacity(Self.searchCandidates)
            let trimmed = request.query.trimmingCharacters(in: .whitespaces)
            if Barcode.lengths.contains(trimmed.utf8.count), trimmed.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
               let id = try txn.get(trimmed, fromIndex: tables.foodsByBarcode), let food = try txn.get(id, from: tables.foods.table) {
                found.append((id, food.name.lowercased()))
            }
            // The longest word narrows most; the others are checked on each candidate.
            let narrowest = words.max { $0.utf8.count < $1.utf8.count }!
            var scanned = 0
            var cutShort = false
            _ = try txn.scanRawPage(tables.foodWords.database, ScanRequest(range: FoodWordKey.range(wordsStartingWith: narrowest))) { key, _ in
                scanned += 1
                guard found.count < Self.searchCandidates, scanned <= Self.searchedWordEntries else {
                    cutShort = true
                    return scanned == 1 ? .take : .stop
                }
                let entry = try FoodWordKey.nameAndFood(decodingKey: key)
                // The entry's word starts with the narrowest query word; the others are checked
                // against the food's words (a one-word query needs no check, nor the food).
                if words.count > 1 {
                    guard let food = try txn.get(entry.food, from: tables.foods.table),
                          FoodWords.matches(query: words, words: FoodWords.indexWords(name: food.name, brand: food.brand)) else { return .take }
                }
                found.append((entry.food, entry.name))
                return .take
            }
            let counts = found.isEmpty ? [:] : try loggedCounts(of: caller.userID, atMost: found.count, in: txn)
            var ranked = try found.map { id, name in
                let count = try counts.map { $0[id] ?? 0 }
                    ?? txn.get(UserRecordKey(user: caller.userID, id: id), from: tables.foodUses.table)?.timesLogged ?? 0
                return (id: id, name: name, count: count)
            }
            ranked.sort { a, b in
                if a.count != b.count { return a.count > b.count }
                if a.name != b.name { return a.name < b.name }
                return a.id.bytes.lexicographicallyPrecedes(b.id.bytes)
            }
            // A food found twice has the same name and count both times: the copies are neighbours.
            var kept = 0
            for index in ranked.indices where kept == 0 || ranked[index].id != ranked[kept - 1].id {
                ranked[kept] = ranked[index]
                kept += 1
            }
            ranked.removeLast(ranked.count - kept)
            var budget = ResponseBudget(maxBytes: maxResponseBytes, used: 2)
            var encoded: [UInt8] = []
            encoded.reserveCapacity(min(ranked.count, size) * 160)
            var answered = 0
            for candidate in ranked.prefix(size) {
                guard try appendAnsweredFood(candidate.id, to: &encoded, budget: &budget, in: txn) else { break }
                answered += 1
            }
            if ranked.count > answered || cutShort { encoded += [UInt8(searchMoreField << 3), 1] }
            return encoded
        }
    }

    /// The times `user` logged each food they logged, from their uses by count (the count is
    /// in the key: nothing is decoded), when they logged at most `limit` foods; else `nil`,
    /// and the caller looks each candidate up instead.
    private func loggedCounts(of user: UUID, atMost limit: Int, in txn: borrowing some TransactionReading & ~Copyable) throws -> [UUID: UInt32]? {
        var counts: [UUID: UInt32] = [:]
        var tooMany = false
        _ = try txn.scanRawPage(tables.foodUsesByCount.database, ScanRequest(range: .prefix(user.orderedKey))) { key, _ in
            guard counts.count < limit else {
                tooMany = true
                return .stop
            }
            let entry = try UserTimeKey(decodingKey: key)
            counts[entry.id] = UInt32(clamping: entry.time)
            return .take
        }
        return tooMany ? nil : counts
    }

    /// Appends food `id` to a `SearchFoodsResponse` being encoded, as ``answered(_:id:in:)``
    /// answers it, if the reply has room.
    ///
    /// - Returns: `false` when the reply is full (nothing appended); `true` otherwise, also for
    ///   a food deleted since the index was read (nothing appended either).
    private func appendAnsweredFood(
        _ id: UUID, to encoded: inout [UInt8], budget: inout ResponseBudget, in txn: borrowing some TransactionReading & ~Copyable
    ) throws -> Bool {
        var figures = Workout_V1_Food()
        (figures.timesLogged, figures.loggedMostBy) = try useFigures(of: id, in: txn)
        let extra: [UInt8] = try figures.serializedBytes()
        let keyBytes = id.orderedKey.bytes
        return try txn.withValue(in: tables.foods.table.database, forKey: keyBytes) { stored in
            guard RawProtobuf.isWellFormed(stored) else {
                throw StorageError(.corruptValue, "the food stored under \(OrderedKey(bytes: keyBytes)) is not a well-formed Food")
            }
            guard budget.admit(encodedBytes: stored.count + extra.count) else { return false }
            RawProtobuf.appendVarint(UInt64(searchFoodsField << 3 | 2), to: &encoded)
            RawProtobuf.appendVarint(UInt64(stored.count + extra.count), to: &encoded)
            encoded.append(contentsOf: stored)
            encoded.append(contentsOf: extra)
            return true
        } ?? true
    }

    /// The caller's recent and frequent foods: two reverse range scans of their uses.
    package func myFoods(_ caller: Caller, _ request: Workout_V1_MyFoodsRequest) throws -> Workout_V1_MyFoodsResponse {
        let size = try Bounds.pageSize(request.pageSize, field: "page_size", maximum: 50, defaultSize: 20)
        let now = clock.nowMilliseconds()
        return try store.read { txn in
            _ = try authorize(caller, in: txn, now: now)
            let prefix = ScanRequest(range: .prefix(caller.userID.orderedKey), direction: .backward, limit: size)
            var response = Workout_V1_MyFoodsResponse()
            for (index, list) in [tables.foodUsesByTime, tables.foodUsesByCount].enumerated() {
                let foods = try txn.scan(list, prefix).elements.compactMap { entry -> Workout_V1_Food? in
                    guard let food = try txn.get(entry.primaryKey.id, from: tables.foods.table) else { return nil }
                    return try answered(food, id: entry.primaryKey.id, in: txn)
                }
                if index == 0 { response.recent = foods } else { response.frequent = foods }
            }
            return response
        }
    }

    /// Counts one more item logged from `food` by `user` at `now`.
    func noteFoodLogged(_ food: UUID, by user: UUID, now: Int64, in txn: inout WriteTransaction) throws {
        let key = UserRecordKey(user: user, id: food)
        var use = try txn.get(key, from: tables.foodUses.table) ?? Workout_V1_FoodUser()
        use.userID = user.data
        use.timesLogged &+= 1
        use.lastLoggedAtMs = max(use.lastLoggedAtMs, now)
        _ = try txn.put(use, forKey: key, in: tables.foodUses)
    }

    /// A food as answers show it: with who logged it most.
    private func answered(_ food: Workout_V1_Food, id: UUID, in txn: borrowing some TransactionReading & ~Copyable) throws -> Workout_V1_Food {
        var answer = food
        (answer.timesLogged, answer.loggedMostBy) = try useFigures(of: id, in: txn)
        return answer
    }

    /// How often the household logged food `id`, and the (at most three) members who logged it
    /// most, the most recent first among equals.
    private func useFigures(of id: UUID, in txn: borrowing some TransactionReading & ~Copyable) throws -> (UInt32, [Workout_V1_FoodUser]) {
        let uses = try txn.scanRecords(tables.foodUsers, in: tables.foodUses, ScanRequest(range: .prefix(id.orderedKey))).elements.map(\.value)
        let times = uses.reduce(0) { $0 &+ $1.timesLogged }
        return (times, Array(uses.sorted { ($0.timesLogged, $0.lastLoggedAtMs) > ($1.timesLogged, $1.lastLoggedAtMs) }.prefix(3)))
    }

    /// A food from a request, checked and with only its input fields.
    private func validatedFood(_ food: Workout_V1_Food, field: String) throws -> (id: UUID, food: Workout_V1_Food) {
        let id = try Bounds.recordID(food.id, field: "\(field).id")
        try Bounds.text(food.name, field: "\(field).name", bytes: FoodLimits.nameBytes)
        try Bounds.text(food.brand, field: "\(field).brand", bytes: FoodLimits.brandBytes)
        if !food.barcode.isEmpty { try Barcode.check(food.barcode, field: "\(field).barcode") }
        guard food.hasPer100G else { throw DomainError.invalid("\(field).per_100g", "\(field).per_100g is required: the food's figures per 100 g") }
        let per = food.per100G
        try Bounds.number(per.calories, field: "\(field).per_100g.calories", range: FoodLimits.caloriesPer100g)
        try Bounds.number(per.proteinG, field: "\(field).per_100g.protein_g", range: FoodLimits.gramsPer100g)
        try Bounds.number(per.carbsG, field: "\(field).per_100g.carbs_g", range: FoodLimits.gramsPer100g)
        try Bounds.number(per.fatG, field: "\(field).per_100g.fat_g", range: FoodLimits.gramsPer100g)
        guard per.proteinG + per.carbsG + per.fatG <= 100 else {
            throw DomainError.invalid("\(field).per_100g", "\(field).per_100g holds more than 100 g of protein, carbs and fat in 100 g (got \(Bounds.formatted(per.proteinG + per.carbsG + per.fatG)) g)")
        }
        guard food.servings.count <= FoodLimits.mostServings else {
            throw DomainError.invalid("\(field).servings", "\(field).servings may hold at most \(FoodLimits.mostServings) servings (got \(food.servings.count))")
        }
        var names: Set<String> = []
        for (index, serving) in food.servings.enumerated() {
            try Bounds.text(serving.name, field: "\(field).servings[\(index)].name", bytes: FoodLimits.servingNameBytes)
            try Bounds.number(serving.grams, field: "\(field).servings[\(index)].grams", range: FoodLimits.portionGrams)
            guard names.insert(serving.name.lowercased()).inserted else {
                throw DomainError.invalid("\(field).servings[\(index)].name", "\(field).servings[\(index)].name \"\(serving.name)\" repeats an earlier serving's name")
            }
        }
        var clean = Workout_V1_Food()
        clean.id = id.data
        clean.name = food.name
        clean.brand = food.brand
        clean.barcode = food.barcode
        clean.per100G = per
        clean.servings = food.servings
        return (id, clean)
    }

    private func sameFood(_ a: Workout_V1_Food, _ b: Workout_V1_Food) -> Bool {
        a.name == b.name && a.brand == b.brand && a.barcode == b.barcode && a.per100G == b.per100G && a.servings == b.servings
    }

    private func refuseTakenBarcode(_ barcode: String, by id: UUID, field: String, in txn: borrowing some TransactionReading & ~Copyable) throws {
        guard !barcode.isEmpty, let holder = try txn.get(barcode, fromIndex: tables.foodsByBarcode), holder != id else { return }
        let name = try txn.get(holder, from: tables.foods.table)?.name ?? "another food"
        throw DomainError.alreadyExists("\(field) \(barcode) is already the barcode of \"\(name)\" in the library", field: field)
    }

    private func requireMayChange(_ food: Workout_V1_Food, _ user: Workout_Store_V1_StoredUser) throws {
        guard isAdmin(user) || food.addedBy == user.userID else {
            throw DomainError.permissionDenied("only the member who added a food, or an admin, may change or delete it")
        }
    }
}

/// `SearchFoodsResponse.foods`.
private let searchFoodsField = 1
/// `SearchFoodsResponse.more`.
private let searchMoreField = 2
