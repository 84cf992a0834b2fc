import Foundation
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

/// The range queries (workout history, meals of a day, weight progress, summaries) agree
/// with a brute-force filter over what was logged: randomized records of several members in
/// several zones, across daylight-saving changes, with edits and deletions, read back
/// through every page.
@Suite("Range queries against a brute-force model")
struct RangeQueryTests {
    /// Zones records are logged in: whole-, half- and odd-offset zones, both DST hemispheres,
    /// and the extremes (UTC+14, UTC-11).
    static let zones = [
        "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago",
    ]
    /// When records happen: around the spring changes (US 2026-03-08 is before, EU
    /// 2026-03-29, Lord Howe 2026-04-05) and the autumn ones (EU 2026-10-25, US 2026-11-01).
    static let windows: [Range<Int64>] = [
        instant("2026-03-20T00:00:00Z")..<instant("2026-04-12T00:00:00Z"),
        instant("2026-10-15T00:00:00Z")..<instant("2026-11-02T00:00:00Z"),
    ]
    /// The server's time during the test.
    static let now = instant("2026-11-03T00:00:00Z")

    /// What one member logged, as the store answered it: the model the queries are checked against.
    struct Model {
        var profileZone: String
        var workouts: [Data: Workout_V1_Workout] = [:]
        var meals: [Data: Workout_V1_Meal] = [:]
        var weights: [Data: Workout_V1_WeightEntry] = [:]
        /// The latest report per (day, source).
        var steps: [String: Workout_V1_StepsReport] = [:]

        func zone(_ name: String) -> String { name.isEmpty ? profileZone : name }
    }

    /// One logged record, for collecting a task group's results.
    enum Logged: Sendable {
        case workout(Workout_V1_Workout)
        case meal(Workout_V1_Meal)
        case weight(Workout_V1_WeightEntry)
        case steps(Workout_V1_StepsReport)
    }

    static func randomInstant(_ generator: inout SeededGenerator) -> Int64 {
        let window = windows[Int(generator.next() % UInt64(windows.count))]
        let time = Int64.random(in: window, using: &generator)
        guard generator.next() % 8 == 0 else { return time }
        // Exactly on, or just before, a midnight somewhere.
        let zone = zones.randomElement(using: &generator)!
        let start = referenceInterval(referenceDay(time, zone), zone).lowerBound
        return Bool.random(using: &generator) ? start : start - 1
    }

    static func randomZone(_ generator: inout SeededGenerator) -> String {
        generator.next() % 3 == 0 ? "" : zones.randomElement(using: &generator)!
    }

    /// Logs a randomized history for `member` (concurrently, so writes share commits) and
    /// returns the model of it.
    static func populate(_ store: HouseholdStore, _ member: Member, profileZone: String, seed: UInt64) async throws -> Model {
        var generator = SeededGenerator(seed: seed)
        var requests: [Logged] = []
        for _ in 0..<50 {
            requests.append(.workout(workout(
                at: randomInstant(&generator), zone: randomZone(&generator), seconds: .random(in: 60...7_200, using: &generator),
                calories: Double(Int.random(in: 0...900, using: &generator)))))
            requests.append(.meal(meal(
                at: randomInstant(&generator), zone: randomZone(&generator), type: .dinner,
                items: (0..<Int.random(in: 0...4, using: &generator)).map { _ in Double(Int.random(in: 0...700, using: &generator)) })))
        }
        for _ in 0..<25 {
            requests.append(.weight(weightEntry(
                kg: Double(Int.random(in: 500...1_200, using: &generator)) / 10, at: randomInstant(&generator), zone: randomZone(&generator))))
        }
        for index in 0..<40 {
            let day = referenceDay(randomInstant(&generator), "UTC")
            let source = ["phone", "watch", "ring"].randomElement(using: &generator)!
            // Distinct report times (the index in the low digits), so "latest wins" has one answer.
            let reportedAt = randomInstant(&generator) / 1_000 * 1_000 + Int64(index)
            requests.append(.steps(stepsReport(day: day, source: source, steps: .random(in: 0...30_000, using: &generator), reportedAt: reportedAt)))
        }
        let logged = try await withThrowingTaskGroup(of: Logged.self) { group in
            for request in requests {
                group.addTask {
                    switch request {
                    case .workout(let workout): .workout(try await store.log(member, workout).workout)
                    case .meal(let meal): .meal(try await store.log(member, meal).meal)
                    case .weight(let entry): .weight(try await store.log(member, entry).entry)
                    case .steps(let report):
                        try await store.report(member, report).applied ? .steps(report) : .steps(Workout_V1_StepsReport())
                    }
                }
            }
            return try await group.reduce(into: [Logged]()) { $0.append($1) }
        }
        var model = Model(profileZone: profileZone)
        for item in logged {
            switch item {
            case .workout(let workout): model.workouts[workout.id] = workout
            case .meal(let meal): model.meals[meal.id] = meal
            case .weight(let entry): model.weights[entry.id] = entry
            case .steps: break
            }
        }
        for case .steps(let report) in requests {
            let key = "\(report.day.localDay.epochDay)|\(report.source)"
            if model.steps[key].map({ $0.reportedAtMs < report.reportedAtMs }) ?? true { model.steps[key] = report }
        }

        // Edits and deletions, one by one.
        for id in model.workouts.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }).prefix(10) {
            if generator.next() % 2 == 0 {
                var moved = model.workouts[id]!
                moved.performedAtMs = randomInstant(&generator)
                moved.timeZone = zones.randomElement(using: &generator)!
                moved.caloriesBurned = Double(Int.random(in: 0...900, using: &generator))
                model.workouts[id] = try await store.update(member, moved).workout
            } else {
                #expect(try await store.deleteWorkout(member, id: id).deleted)
                model.workouts[id] = nil
            }
        }
        for id in model.meals.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }).prefix(10) {
            if generator.next() % 2 == 0 {
                var moved = model.meals[id]!
                moved.eatenAtMs = randomInstant(&generator)
                moved.items = meal(at: 0, items: [Double(Int.random(in: 0...700, using: &generator))]).items
                var request = Workout_V1_UpdateMealRequest()
                request.meal = moved
                model.meals[id] = try await store.updateMeal(member.caller, request).meal
            } else {
                #expect(try await store.deleteMeal(member, id: id).deleted)
                model.meals[id] = nil
            }
        }
        for id in model.weights.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }).prefix(4) {
            #expect(try await store.deleteWeight(member, id: id).deleted)
            model.weights[id] = nil
        }
        return model
    }

    /// `(time, id)` ascending, the order of the time indexes.
    static func precedes(_ a: (Int64, Data), _ b: (Int64, Data)) -> Bool {
        a.0 != b.0 ? a.0 < b.0 : a.1.lexicographicallyPrecedes(b.1)
    }

    @Test("Workout history, meals of a day, weight progress and summaries agree with a brute-force filter", arguments: [UInt64(11), 22, 33])
    func queriesAgreeWithTheModel(seed: UInt64) async throws {
        try await withHousehold(now: Self.now) { household in
            let store = household.store
            var generator = SeededGenerator(seed: seed)
            var members: [(Member, Model)] = []
            for (index, zone) in ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe"].enumerated() {
                let member = try await household.addMember("M\(index)", timeZone: zone)
                members.append((member, try await Self.populate(store, member, profileZone: zone, seed: seed &* 31 &+ UInt64(index))))
            }
            for (member, model) in members {
                try checkHistory(store, member, model, &generator)
                try checkWeights(store, member, model, &generator)
                try checkMeals(store, member, model, &generator)
                try checkSummaries(store, member, model)
            }
        }
    }

    func checkHistory(_ store: HouseholdStore, _ member: Member, _ model: Model, _ generator: inout SeededGenerator) throws {
        let expected = model.workouts.values.sorted { Self.precedes(($1.performedAtMs, $1.id), ($0.performedAtMs, $0.id)) }
        for workout in expected {
            #expect(workout.localDay.localDay == referenceDay(workout.performedAtMs, model.zone(workout.timeZone)))
        }
        let pageSize = UInt32.random(in: 1...9, using: &generator)
        #expect(try store.allWorkouts(member, pageSize: pageSize) == expected, "page size \(pageSize)")
        #expect(try store.allWorkouts(member) == expected)
        for _ in 0..<6 {
            let a = Self.randomInstant(&generator), b = Self.randomInstant(&generator)
            guard a != b else { continue }
            let (from, to) = (min(a, b), max(a, b))
            let filtered = expected.filter { (from..<to).contains($0.performedAtMs) }
            #expect(try store.allWorkouts(member, pageSize: UInt32.random(in: 1...5, using: &generator), from: from, to: to) == filtered)
            #expect(try store.allWorkouts(member, from: from) == expected.filter { $0.performedAtMs >= from })
            #expect(try store.allWorkouts(member, to: to) == expected.filter { $0.performedAtMs < to })
        }
    }

    func checkWeights(_ store: HouseholdStore, _ member: Member, _ model: Model, _ generator: inout SeededGenerator) throws {
        let expected = model.weights.values.sorted { Self.precedes(($0.measuredAtMs, $0.id), ($1.measuredAtMs, $1.id)) }
        for entry in expected {
            #expect(entry.localDay.localDay == referenceDay(entry.measuredAtMs, model.zone(entry.timeZone)))
        }
        #expect(try store.allWeights(member, pageSize: UInt32.random(in: 1...6, using: &generator)) == expected)
        #expect(try store.allWeights(member) == expected)
        for _ in 0..<6 {
            let a = Self.randomInstant(&generator), b = Self.randomInstant(&generator)
            guard a != b else { continue }
            let (from, to) = (min(a, b), max(a, b))
            #expect(try store.allWeights(member, pageSize: 2, from: from, to: to) == expected.filter { (from..<to).contains($0.measuredAtMs) })
        }
        // The newest entry sets the profile's weight.
        #expect(try store.profile(member).profile.weightKg == expected.last?.weightKg ?? 0)
    }

    func checkMeals(_ store: HouseholdStore, _ member: Member, _ model: Model, _ generator: inout SeededGenerator) throws {
        let byTime = model.meals.values.sorted { Self.precedes(($0.eatenAtMs, $0.id), ($1.eatenAtMs, $1.id)) }
        for meal in byTime {
            #expect(meal.localDay.localDay == referenceDay(meal.eatenAtMs, model.zone(meal.timeZone)))
        }
        let firstDays = [LocalDay("2026-03-19"), LocalDay("2026-10-14")]
        let lastDays = [LocalDay("2026-04-13"), LocalDay("2026-11-03")]
        for (first, last) in zip(firstDays, lastDays) {
            var day = first
            while day <= last {
                for zone in ["", "Europe/Berlin", Self.zones.randomElement(using: &generator)!] {
                    let effective = model.zone(zone)
                    let window = referenceInterval(day, effective)
                    var request = Workout_V1_MealsOfDayRequest()
                    request.day = day.wire
                    request.timeZone = zone
                    let response = try store.mealsOfDay(member.caller, request)
                    let expected = byTime.filter { window.contains($0.eatenAtMs) }
                    #expect(response.meals == expected, "\(day) in \(effective)")
                    #expect(response.timeZone == effective)
                    #expect(response.dayStartMs == window.lowerBound, "\(day) in \(effective)")
                    #expect(response.dayEndMs == window.upperBound, "\(day) in \(effective)")
                    #expect(response.totals.calories == expected.map(\.totals.calories).reduce(0, +))
                    #expect(response.totals.proteinG == expected.flatMap(\.items).map(\.proteinG).reduce(0, +))
                    #expect(response.totals.carbsG == expected.flatMap(\.items).map(\.carbsG).reduce(0, +))
                    #expect(response.totals.fatG == expected.flatMap(\.items).map(\.fatG).reduce(0, +))
                }
                day = day.adding(days: 1)
            }
        }
    }

    func checkSummaries(_ store: HouseholdStore, _ member: Member, _ model: Model) throws {
        // Reference figures per local day, from the records themselves.
        var days: [Int32: Workout_V1_PeriodSummary] = [:]
        for workout in model.workouts.values {
            let day = referenceDay(workout.performedAtMs, model.zone(workout.timeZone)).epochDay
            days[day, default: .init()].workouts += 1
            days[day, default: .init()].caloriesBurned += workout.caloriesBurned
            days[day, default: .init()].activeSeconds += workout.durationSeconds
        }
        for meal in model.meals.values {
            let day = referenceDay(meal.eatenAtMs, model.zone(meal.timeZone)).epochDay
            days[day, default: .init()].meals += 1
            for item in meal.items {
                days[day, default: .init()].caloriesEaten += item.calories
                days[day, default: .init()].proteinG += item.proteinG
                days[day, default: .init()].carbsG += item.carbsG
                days[day, default: .init()].fatG += item.fatG
            }
        }
        for report in model.steps.values {
            let day = report.day.localDay.epochDay
            days[day, default: .init()].steps = max(days[day, default: .init()].steps, report.steps)
        }
        func add(_ figures: Workout_V1_PeriodSummary, into sum: inout Workout_V1_PeriodSummary) {
            sum.workouts += figures.workouts
            sum.caloriesBurned += figures.caloriesBurned
            sum.activeSeconds += figures.activeSeconds
            sum.meals += figures.meals
            sum.caloriesEaten += figures.caloriesEaten
            sum.proteinG += figures.proteinG
            sum.carbsG += figures.carbsG
            sum.fatG += figures.fatG
            sum.steps += figures.steps
        }
        let ranges = [
            (LocalDay("2026-03-18"), LocalDay("2026-04-14")),
            (LocalDay("2026-10-13"), LocalDay("2026-11-04")),
            (LocalDay("2026-03-01"), LocalDay("2026-11-30")),
            (LocalDay("2026-03-29"), LocalDay("2026-03-29")),
        ]
        for (from, to) in ranges {
            for granularity in [Workout_V1_Granularity.day, .week] {
                // ISO weeks: Monday to Sunday (1970-01-01 was a Thursday, so epoch day 4 a Monday).
                func periodStart(_ epochDay: Int32) -> Int32 {
                    granularity == .day ? epochDay : epochDay - Int32(((Int(epochDay) - 4) % 7 + 7) % 7)
                }
                let length: Int32 = granularity == .day ? 1 : 7
                var expected: [Workout_V1_PeriodSummary] = []
                var start = periodStart(from.epochDay)
                while start <= to.epochDay {
                    var period = Workout_V1_PeriodSummary()
                    period.start = LocalDay(epochDay: start).wire
                    period.end = LocalDay(epochDay: start + length - 1).wire
                    for day in start..<(start + length) { if let figures = days[day] { add(figures, into: &period) } }
                    expected.append(period)
                    start += length
                }
                var request = Workout_V1_SummariesRequest()
                request.fromDay = from.wire
                request.toDay = to.wire
                request.granularity = granularity
                let periods = try store.summaries(member.caller, request).periods
                #expect(periods.count == expected.count, "\(from)...\(to) by \(granularity)")
                for (got, want) in zip(periods, expected) {
                    #expect(got == want, "\(from)...\(to) by \(granularity)")
                }
            }
        }
    }

    @Test("Meals of a Berlin DST day span 23 and 25 hours and hold exactly the meals in them", arguments: [
        ("2026-03-29", Int64(23)), ("2026-10-25", 25), ("2026-03-28", 24), ("2026-10-26", 24),
    ])
    func mealsOnDaylightSavingDays(day text: String, hours: Int64) async throws {
        try await withHousehold(now: Self.now) { household in
            let store = household.store
            let member = try await household.addMember("Fe", timeZone: "Europe/Berlin")
            let traveller = try await household.addMember("Gu", timeZone: "America/New_York")
            let day = LocalDay(text)
            let window = referenceInterval(day, "Europe/Berlin")
            #expect(window.upperBound - window.lowerBound == hours * hour)
            // Just outside, the first and last millisecond, and every hour inside.
            var times = [window.lowerBound - 1, window.upperBound, window.lowerBound, window.upperBound - 1]
            var middle = window.lowerBound + hour / 2
            while middle < window.upperBound {
                times.append(middle)
                middle += hour
            }
            var inside: [Workout_V1_Meal] = []
            for time in times {
                let logged = try await store.log(member, meal(at: time, items: [100])).meal
                if window.contains(time) { inside.append(logged) }
                // The traveller logs in Berlin's zone explicitly.
                try await store.log(traveller, meal(at: time, zone: "Europe/Berlin", items: [100]))
            }
            var request = Workout_V1_MealsOfDayRequest()
            request.day = day.wire
            let response = try store.mealsOfDay(member.caller, request)
            #expect(response.dayEndMs - response.dayStartMs == hours * hour)
            #expect(response.meals == inside.sorted { $0.eatenAtMs < $1.eatenAtMs })
            #expect(response.meals.count == Int(hours) + 2)
            #expect(response.totals.calories == Double(100 * (hours + 2)))
            #expect(response.meals.allSatisfy { $0.localDay.localDay == day })

            // The traveller's own day (New York) is another window; asking in Berlin's zone gives Berlin's.
            request.timeZone = "Europe/Berlin"
            let berlin = try store.mealsOfDay(traveller.caller, request)
            #expect(berlin.meals.count == Int(hours) + 2)
            #expect(berlin.dayStartMs == window.lowerBound)
            request.timeZone = ""
            let newYork = try store.mealsOfDay(traveller.caller, request)
            #expect(newYork.timeZone == "America/New_York")
            #expect(newYork.dayStartMs == referenceInterval(day, "America/New_York").lowerBound)

            // The summary puts them on the day they were logged in.
            var summaries = Workout_V1_SummariesRequest()
            summaries.fromDay = day.wire
            summaries.toDay = day.wire
            #expect(try store.summaries(member.caller, summaries).periods.map(\.meals) == [UInt32(hours) + 2])
            #expect(try store.summaries(traveller.caller, summaries).periods.map(\.meals) == [UInt32(hours) + 2])
        }
    }

    @Test("Steps per day are the maximum over sources, each source's latest report winning")
    func stepsMaximumOverSources() async throws {
        try await withHousehold(now: Self.now) { household in
            let store = household.store
            let member = try await household.addMember("Hu")
            let day = LocalDay("2026-10-20")
            let at = instant("2026-10-20T20:00:00Z")
            #expect(try await store.report(member, stepsReport(day: day, source: "phone", steps: 8_000, reportedAt: at)).day.steps == 8_000)
            // A retry of the same report is not applied again and moves no revision.
            let revision = try store.profile(member).revision
            let retry = try await store.report(member, stepsReport(day: day, source: "phone", steps: 8_000, reportedAt: at))
            #expect(!retry.applied)
            #expect(retry.day.steps == 8_000)
            #expect(try store.profile(member).revision == revision)
            // The same time with another count replaces it (a corrected figure).
            #expect(try await store.report(member, stepsReport(day: day, source: "phone", steps: 8_100, reportedAt: at)).applied)
            #expect(try await store.report(member, stepsReport(day: day, source: "phone", steps: 8_000, reportedAt: at)).applied)
            #expect(try await store.report(member, stepsReport(day: day, source: "watch", steps: 9_500, reportedAt: at + 1)).day.steps == 9_500)
            // An older phone report is ignored; a newer one replaces, even when smaller.
            let stale = try await store.report(member, stepsReport(day: day, source: "phone", steps: 12_000, reportedAt: at - 1))
            #expect(!stale.applied)
            #expect(stale.day.steps == 9_500)
            #expect(try await store.report(member, stepsReport(day: day, source: "phone", steps: 11_000, reportedAt: at + 2)).day.steps == 11_000)
            #expect(try await store.report(member, stepsReport(day: day, source: "watch", steps: 100, reportedAt: at + 3)).day.steps == 11_000)
            var request = Workout_V1_SummariesRequest()
            request.fromDay = day.adding(days: -1).wire
            request.toDay = day.adding(days: 1).wire
            #expect(try store.summaries(member.caller, request).periods.map(\.steps) == [0, 11_000, 0])
            request.granularity = .week
            #expect(try store.summaries(member.caller, request).periods.map(\.steps) == [11_000])
        }
    }
}
