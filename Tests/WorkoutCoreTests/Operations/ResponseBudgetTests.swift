import Foundation
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

/// Issue 15: no query may have an answer that cannot be delivered. Every paged query ends a
/// page where the next record would not fit the client's max frame size; MealsOfDay pages a
/// day whose meals do not fit one frame, with the whole day's totals on every page.
@Suite("Answers that fit a frame")
struct ResponseBudgetTests {
    /// The smallest max frame size a client may announce.
    static let smallestFrame = 65_536
    /// 12:00 on 2026-06-01 in Berlin (the household's start).
    static let noon = householdStart

    /// A meal as large as the bounds allow: 100 items with 128-byte names and every figure set.
    static func largestMeal(at eatenAt: Int64, index: Int) -> Workout_V1_Meal {
        var meal = meal(at: eatenAt, type: .dinner, items: [])
        meal.name = String(repeating: "m", count: 124) + String(format: "%04d", index)
        meal.items = (0..<100).map { item in
            var food = Workout_V1_FoodItem()
            food.name = String(repeating: "f", count: 125) + String(format: "%03d", item)
            food.calories = 9_999.25
            food.proteinG = 999.5
            food.carbsG = 999.75
            food.fatG = 999.125
            food.servings = 99.5
            return food
        }
        return meal
    }

    /// Every meal of `day`, through its pages, with each page's encoded size and totals.
    static func pages(
        of day: LocalDay, _ store: HouseholdStore, _ member: Member, maxResponseBytes: Int
    ) throws -> [(size: Int, response: Workout_V1_MealsOfDayResponse)] {
        var request = Workout_V1_MealsOfDayRequest()
        request.day = day.wire
        request.timeZone = "Europe/Berlin"
        var pages: [(Int, Workout_V1_MealsOfDayResponse)] = []
        repeat {
            let encoded = try store.mealsOfDayEncoded(member.caller, request, maxResponseBytes: maxResponseBytes)
            let response = try Workout_V1_MealsOfDayResponse(serializedBytes: encoded)
            pages.append((encoded.count, response))
            request.pageToken = response.nextPageToken
            #expect(pages.count <= 100, "the pages never end")
        } while !request.pageToken.isEmpty && pages.count <= 100
        return pages
    }

    @Test("A day of 40 of the largest meals reads in pages under the smallest frame, whole and in order, totals whole on every page")
    func largeDayPages() async throws {
        try await withHousehold { household in
            let member = try await household.addMember("Gus")
            var logged: [Workout_V1_Meal] = []
            for index in 0..<40 {
                // Two meals share each instant: ties are ordered by id.
                let response = try await household.store.log(member, Self.largestMeal(at: Self.noon - Int64(index / 2) * 60_000, index: index))
                logged.append(response.meal)
            }
            // Another day's meal stays out.
            try await household.store.log(member, meal(at: Self.noon - 86_400_000))
            let expected = logged.sorted {
                $0.eatenAtMs != $1.eatenAtMs ? $0.eatenAtMs < $1.eatenAtMs : $0.id.lexicographicallyPrecedes($1.id)
            }
            let day = LocalDay("2026-06-01")
            let total = expected.map(\.totals.calories).reduce(0, +)

            let small = try Self.pages(of: day, household.store, member, maxResponseBytes: Self.smallestFrame)
            #expect(small.count > 10)
            for page in small {
                #expect(page.size <= Self.smallestFrame)
                #expect(!page.response.meals.isEmpty)
                #expect(page.response.totals.calories == total)
                #expect(page.response.dayStartMs == referenceInterval(day, "Europe/Berlin").lowerBound)
            }
            #expect(small.flatMap(\.response.meals) == expected)

            // The protocol's default frame takes the whole day at once.
            let whole = try Self.pages(of: day, household.store, member, maxResponseBytes: 4 << 20)
            #expect(whole.count == 1)
            #expect(whole[0].response.meals == expected)
            #expect(whole[0].response.nextPageToken.isEmpty)
        }
    }

    @Test("A page token of one day is refused for another day, and a token altered is refused")
    func foreignToken() async throws {
        try await withHousehold { household in
            let member = try await household.addMember("Ida")
            for index in 0..<6 {
                try await household.store.log(member, Self.largestMeal(at: Self.noon + Int64(index) * 1_000, index: index))
            }
            var request = Workout_V1_MealsOfDayRequest()
            request.day = LocalDay("2026-06-01").wire
            let first = try household.store.mealsOfDay(member.caller, request, maxResponseBytes: Self.smallestFrame)
            #expect(!first.nextPageToken.isEmpty)
            var otherDay = request
            otherDay.day = LocalDay("2026-06-02").wire
            otherDay.pageToken = first.nextPageToken
            await expectDomainError(.invalidArgument, field: "page_token") {
                try household.store.mealsOfDay(member.caller, otherDay)
            }
            var altered = request
            altered.pageToken = first.nextPageToken
            altered.pageToken[altered.pageToken.count - 1] ^= 1
            await expectDomainError(.invalidArgument, field: "page_token") {
                try household.store.mealsOfDay(member.caller, altered)
            }
            // Another member cannot continue it either.
            let other = try await household.addMember("Jo")
            var stolen = request
            stolen.pageToken = first.nextPageToken
            await expectDomainError(.invalidArgument, field: "page_token") {
                try household.store.mealsOfDay(other.caller, stolen)
            }
        }
    }

    @Test("Changes pages end at the smallest frame with has_more, and together hold every change once")
    func changesPages() async throws {
        try await withHousehold { household in
            let member = try await household.addMember("Kai")
            var ids: Set<Data> = []
            for index in 0..<12 {
                ids.insert(try await household.store.log(member, Self.largestMeal(at: Self.noon + Int64(index), index: index)).meal.id)
            }
            var request = Workout_V1_ChangesRequest()
            request.pageSize = 500
            var meals: [Data] = []
            var pages = 0
            while pages < 100 {
                let response = try household.store.changes(member.caller, request, maxResponseBytes: Self.smallestFrame)
                pages += 1
                #expect((try response.serializedBytes() as [UInt8]).count <= Self.smallestFrame)
                meals += response.changes.compactMap { if case .meal(let meal)? = $0.item { meal.id } else { nil } }
                request.sinceRevision = response.revision
                if !response.hasMore_p { break }
                #expect(!response.changes.isEmpty)
            }
            #expect(pages > 3)
            #expect(meals.count == 12)
            #expect(Set(meals) == ids)
        }
    }

    @Test("WorkoutHistory and WeightProgress pages end at the frame before page_size, and continue")
    func historyPages() async throws {
        try await withHousehold { household in
            let member = try await household.addMember("Lu")
            var longest = workout(at: Self.noon, notes: String(repeating: "n", count: 1_000))
            longest.workoutType = String(repeating: "t", count: 64)
            for index in 0..<100 {
                longest.id = newID()
                longest.performedAtMs = Self.noon - Int64(index) * 60_000
                try await household.store.log(member, longest)
            }
            // 100 workouts of about 1.2 kB do not fit 64 KiB: pages are cut by bytes.
            var request = Workout_V1_WorkoutHistoryRequest()
            request.pageSize = 100
            var workouts: [Workout_V1_Workout] = []
            var pages = 0
            repeat {
                let encoded = try household.store.workoutHistoryEncoded(member.caller, request, maxResponseBytes: Self.smallestFrame)
                #expect(encoded.count <= Self.smallestFrame)
                let page = try Workout_V1_WorkoutHistoryResponse(serializedBytes: encoded)
                workouts += page.workouts
                request.pageToken = page.nextPageToken
                pages += 1
            } while !request.pageToken.isEmpty && pages < 100
            #expect(pages == 2)
            #expect(workouts.count == 100)
            #expect(workouts.map(\.performedAtMs) == workouts.map(\.performedAtMs).sorted(by: >))

            for index in 0..<400 {
                try await household.store.log(member, weightEntry(kg: 70, at: Self.noon - Int64(index) * 60_000, note: String(repeating: "w", count: 256)))
            }
            var weights = Workout_V1_WeightProgressRequest()
            weights.pageSize = 1_000
            var entries = 0
            pages = 0
            repeat {
                let encoded = try household.store.weightProgressEncoded(member.caller, weights, maxResponseBytes: Self.smallestFrame)
                #expect(encoded.count <= Self.smallestFrame)
                let page = try Workout_V1_WeightProgressResponse(serializedBytes: encoded)
                entries += page.entries.count
                weights.pageToken = page.nextPageToken
                pages += 1
            } while !weights.pageToken.isEmpty && pages < 100
            // 400 entries of about 300 bytes do not fit 64 KiB either.
            #expect(pages >= 2)
            #expect(entries == 400)
        }
    }
}
