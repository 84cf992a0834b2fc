import ClientTestSupport
import Foundation
import ServerTestSupport
import TestSupport
import Testing
import WorkoutClient
import WorkoutCore
import WorkoutProtocol

/// Issue 15, end to end: a member whose meals of one day are larger than a frame (the
/// smallest a client may announce, 64 KiB, and the default, 4 MiB) reads the whole day, and
/// syncs it through Changes and Watch, through the real client, server and store.
@Suite("A day larger than a frame")
struct LargeDayTests {
    /// The items of the largest meal the bounds allow (about 18 kB): 100 items with 128-byte names.
    static let largestItems = (0..<100).map { item in
        FoodItem(
            name: String(repeating: "f", count: 125) + String(format: "%03d", item),
            calories: 9_999.25, proteinG: 999.5, carbsG: 999.75, fatG: 999.125, servings: 99.5)
    }

    /// A meal as large as the bounds allow.
    static func largestMeal(at eatenAt: Date, index: Int) -> Meal {
        Meal(
            mealType: .dinner, eatenAt: eatenAt, timeZone: "Europe/Berlin",
            name: String(repeating: "m", count: 124) + String(format: "%04d", index), items: largestItems)
    }

    /// The day two days ago in Berlin, and its noon.
    static func pastDay() throws -> (day: LocalDate, noon: Date) {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let day = LocalDate.today(in: berlin).adding(days: -2)
        let noon = DateComponents(
            calendar: Calendar(identifier: .gregorian), timeZone: berlin, year: day.year, month: day.month, day: day.day, hour: 12, minute: 0)
        return (day, try #require(noon.date))
    }

    /// A client of `live` announcing `maxFrameSize`, signed in as the owner.
    static func client(_ live: LiveServer, maxFrameSize: Int) async throws -> WorkoutClient {
        let client = WorkoutClient(
            configuration: .init(
                address: live.address, deviceName: "frame \(maxFrameSize)", callTimeout: .seconds(120),
                transportSecurity: .plainTCP(), maxFrameSize: maxFrameSize))
        _ = try await client.login(email: ownerEmail, password: ownerPassword)
        return client
    }

    @Test("A day of 48 of the largest meals (0.9 MB) logged, read, synced and watched by a client announcing 64 KiB frames")
    func smallestFrame() async throws {
        try await LiveServer.run { live in
            let client = try await Self.client(live, maxFrameSize: 65_536)
            let (day, noon) = try Self.pastDay()
            let logged = try await withThrowingTaskGroup(of: Meal.self) { group in
                for index in 0..<48 {
                    group.addTask { try await client.logMeal(Self.largestMeal(at: noon.addingTimeInterval(Double(index) * 60), index: index)).meal }
                }
                return try await group.reduce(into: [Meal]()) { $0.append($1) }
            }
            let expected = logged.sorted { $0.eatenAt < $1.eatenAt }.map(\.id)

            let meals = try await client.mealsOfDay(day, timeZone: "Europe/Berlin")
            #expect(meals.meals.map(\.id) == expected)
            #expect(meals.meals.allSatisfy { $0.items.count == 100 })
            #expect(meals.totals.calories == logged.map(\.totals.calories).reduce(0, +))

            // Changes and Watch deliver the same day to a device that syncs from nothing.
            var changed: [UUID] = []
            var revision: UInt64 = 0
            var pages = 0
            while pages < 1_000 {
                let page = try await client.changes(since: revision, pageSize: 500)
                pages += 1
                for change in page.changes { if case .meal(let meal)? = change.item { changed.append(meal.id) } }
                revision = page.revision
                if !page.hasMore { break }
            }
            #expect(Set(changed) == Set(expected))
            #expect(changed.count == expected.count)
            #expect(pages > 10)

            var watched: [UUID] = []
            for try await event in client.watch(since: 0) {
                for change in event.changes { if case .meal(let meal)? = change.item { watched.append(meal.id) } }
                if event.caughtUp { break }
            }
            #expect(Set(watched) == Set(expected))
            #expect(watched.count == expected.count)
            client.close()
        }
    }

    @Test("A day of 240 of the largest meals (4.4 MB) reads whole with the default and with the smallest max frame size")
    func defaultFrame() async throws {
        try await LiveServer.run { live in
            // Logged through the store (the writes are not what this test is about).
            let owner = try await live.household.login(
                .with { $0.email = ownerEmail; $0.password = ownerPassword }, source: "127.0.0.1", agent: "tests")
            let (day, noon) = try Self.pastDay()
            let logged = try await withThrowingTaskGroup(of: Workout_V1_Meal.self) { group in
                for index in 0..<240 {
                    let meal = Self.largestMeal(at: noon.addingTimeInterval(Double(index) * 60), index: index)
                    let request = Workout_V1_LogMealRequest.with { $0.meal = meal.storeRequest }
                    group.addTask { try await live.household.logMeal(owner.caller, request).meal }
                }
                return try await group.reduce(into: [Workout_V1_Meal]()) { $0.append($1) }
            }
            let expected = logged.sorted { $0.eatenAtMs < $1.eatenAtMs }.map(\.id)
            let calories = logged.map(\.totals.calories).reduce(0, +)
            #expect(expected.count * 18_000 > 4 << 20)

            for maxFrameSize in [4 << 20, 65_536] {
                let client = try await Self.client(live, maxFrameSize: maxFrameSize)
                let meals = try await client.mealsOfDay(day, timeZone: "Europe/Berlin")
                #expect(meals.meals.map { withUnsafeBytes(of: $0.id.uuid) { Data($0) } } == expected, "max frame size \(maxFrameSize)")
                #expect(meals.totals.calories == calories, "max frame size \(maxFrameSize)")
                client.close()
            }
        }
    }
}

extension Meal {
    /// The meal as a LogMeal request carries it.
    fileprivate var storeRequest: Workout_V1_Meal {
        var meal = Workout_V1_Meal()
        meal.id = withUnsafeBytes(of: id.uuid) { Data($0) }
        meal.mealType = .dinner
        meal.eatenAtMs = Int64((eatenAt.timeIntervalSince1970 * 1_000).rounded())
        meal.timeZone = timeZone ?? ""
        meal.name = name
        meal.items = items.map { item in
            var food = Workout_V1_FoodItem()
            food.name = item.name
            food.calories = item.calories
            food.proteinG = item.proteinG
            food.carbsG = item.carbsG
            food.fatG = item.fatG
            food.servings = item.servings ?? 0
            return food
        }
        return meal
    }
}
