import Foundation
import Testing
import WorkoutBenchKit
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

/// The data a run preloads and asks for.
@Suite("Data plan")
struct DataPlanTests {
    static let now: Int64 = 1_780_315_200_000   // 2026-06-01T12:00:00Z

    @Test("3,650 meals at 10 a day span the 365 days that end yesterday, each day holding 10 meals and one workout, oldest first")
    func yardstickShape() {
        let plan = DataPlan(members: 100, recordsPerMember: 3_650, mealsPerDay: 10, nowMilliseconds: Self.now)
        #expect(plan.days == 365)
        #expect(plan.today == LocalDay(year: 2026, month: 6, day: 1))
        #expect(plan.day(364) == LocalDay(year: 2026, month: 5, day: 31))
        var ids = TimeOrderedIDGenerator(seed: 3)
        let records = plan.records(ofMember: 4, ids: &ids)
        #expect(records.count == 3_650 + 365)
        var mealsByDay: [Int64: Int] = [:]
        var workouts = 0
        var times: [Int64] = []
        for record in records {
            switch record {
            case .meal(let meal):
                mealsByDay[meal.eatenAtMs / 86_400_000, default: 0] += 1
                #expect(meal.items.count == 2)
                times.append(meal.eatenAtMs)
            case .workout(let workout):
                workouts += 1
                times.append(workout.performedAtMs)
            case .weight:
                Issue.record("the plan has no weight entries")
            }
        }
        #expect(workouts == 365)
        #expect(mealsByDay.count == 365 && mealsByDay.values.allSatisfy { $0 == 10 })
        #expect(times == times.sorted())
        #expect(times.last! < DataPlan.start(of: plan.today))
        #expect(times.first! >= DataPlan.start(of: plan.firstDay))
    }

    @Test("Member emails follow the template; a partial last day holds the remainder")
    func emailsAndRemainder() {
        let plan = DataPlan(members: 3, recordsPerMember: 25, mealsPerDay: 10, nowMilliseconds: Self.now, memberEmailTemplate: "kid{n}@home.example")
        #expect(plan.memberEmail(0) == "kid0@home.example" && plan.memberEmail(12) == "kid12@home.example")
        #expect(plan.days == 3)
        var ids = TimeOrderedIDGenerator(seed: 3)
        let meals = plan.records(ofMember: 0, ids: &ids).filter { if case .meal = $0 { true } else { false } }
        #expect(meals.count == 25)
    }

    @Test("The preload writes the plan: a preloaded day query returns its meals, the members log in, the totals count the workouts")
    func preloadWritesThePlan() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-plan-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let plan = DataPlan(members: 3, recordsPerMember: 30, mealsPerDay: 10, nowMilliseconds: Int64(Date().timeIntervalSince1970 * 1000))
        let summary = try Preloader(plan: plan).run(directory: directory) { _ in }
        #expect(summary.records == 3 * (30 + 3))
        var configuration = HouseholdStore.Configuration()
        configuration.passwordParameters = .fastForTests
        let store = try HouseholdStore(directory: directory, configuration: configuration)
        defer { store.close() }
        #expect(try store.listMembersLocally().count == 4)
        var login = Workout_V1_LoginRequest()
        login.email = plan.memberEmail(2)
        login.password = plan.password
        let member = try await store.login(login, source: "127.0.0.1", agent: "tests")
        var query = Workout_V1_MealsOfDayRequest()
        query.day = plan.day(1).wire
        #expect(try store.mealsOfDay(member.caller, query).meals.count == 10)
        #expect(member.totals.totalWorkouts == 3 && member.totals.longestStreakDays == 3 && member.totals.currentStreakDays == 3)
        #expect(throws: BenchFailure.self) { try Preloader(plan: plan).run(directory: directory) { _ in } }
    }
}
