// Goals through the real store: the history judges each day by its own goals, the week is
// the member's ISO week across a DST change, the bounds and the rules for children refuse in
// the request's words, and progress over random days equals a model written here (not the
// domain's rules).

import Foundation
import Storage
import SwiftProtobuf
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

@Suite("Goals and progress")
struct GoalsTests {
    /// 2026-10-28T12:00:00Z, a Wednesday, three days after Berlin's clocks fell back (25 October).
    static let afterFallBack: Int64 = 1_793_188_800_000

    static func day(_ year: Int32, _ month: Int32, _ day: Int32) -> LocalDay { LocalDay(year: year, month: month, day: day)! }

    static func setGoals(_ store: HouseholdStore, _ member: Member, from: LocalDay? = nil, memberID: UUID? = nil,
                         clear: [Workout_V1_GoalKind] = [], _ change: (inout Workout_V1_Goals) -> Void) async throws -> Workout_V1_SetGoalsResponse {
        var request = Workout_V1_SetGoalsRequest()
        change(&request.set)
        request.clear = clear
        if let from { request.effectiveFrom = from.wire }
        if let memberID { request.memberID = memberID.data }
        return try await store.setGoals(member.caller, request)
    }

    static func progress(_ store: HouseholdStore, _ member: Member, on day: LocalDay) throws -> Workout_V1_ProgressResponse {
        var request = Workout_V1_ProgressRequest()
        request.day = day.wire
        return try store.progress(member.caller, request)
    }

    @Test("Each day is judged by the goals of that day; a day without data shows its targets and meets none; the week is Berlin's across the DST change")
    func historyAndDST() async throws {
        try await withHousehold(now: Self.afterFallBack, ownerZone: "Europe/Berlin") { household in
            let store = household.store
            let owner = household.owner
            // From Monday 19 October: 8,000 steps and 2,000 kcal; from Thursday 22: 10,000 steps.
            _ = try await Self.setGoals(store, owner, from: Self.day(2026, 10, 19)) { $0.dailySteps = 8_000; $0.energyKcal = 2_000; $0.weeklyWorkouts = 2 }
            _ = try await Self.setGoals(store, owner, from: Self.day(2026, 10, 22)) { $0.dailySteps = 10_000 }
            // A goal cannot be set for a day already judged by a later entry.
            await expectDomainError(.invalidArgument, field: "effective_from") {
                try await Self.setGoals(store, owner, from: Self.day(2026, 10, 20)) { $0.dailySteps = 5_000 }
            }
            for (day, steps) in [(Self.day(2026, 10, 20), UInt32(9_000)), (Self.day(2026, 10, 23), 9_000)] {
                try await store.report(owner, stepsReport(day: day, source: "phone", steps: steps, reportedAt: Self.afterFallBack - 3_600_000))
            }
            // Sunday 25 October 23:30 in Berlin (UTC+1 after the change) = 22:30Z: Sunday's meal,
            // and a workout at 23:30 local the same night.
            let sundayLate: Int64 = 1_792_967_400_000
            try await store.log(owner, meal(at: sundayLate, items: [1_000, 950]))
            try await store.log(owner, workout(at: sundayLate))
            // Monday 26 October 00:30 local = Sunday 23:30Z: the next week's.
            try await store.log(owner, workout(at: sundayLate + 3_600_000))

            let tuesday = try Self.progress(store, owner, on: Self.day(2026, 10, 20))
            #expect(tuesday.day.goals.map(\.kind) == [.energy, .dailySteps])
            #expect(tuesday.day.goals[1].target == 8_000 && tuesday.day.goals[1].actual == 9_000 && tuesday.day.goals[1].met)
            // No meal on Tuesday: the energy target shows, nothing met, all of it remains.
            #expect(tuesday.day.goals[0].target == 2_000 && tuesday.day.goals[0].actual == 0 && !tuesday.day.goals[0].met)
            #expect(tuesday.day.goals[0].remaining == 2_000)

            let friday = try Self.progress(store, owner, on: Self.day(2026, 10, 23))
            #expect(friday.day.goals[1].target == 10_000 && friday.day.goals[1].actual == 9_000 && !friday.day.goals[1].met)
            #expect(friday.day.goals[1].remaining == 1_000)

            let week = friday.week
            #expect(week.start == Self.day(2026, 10, 19).wire && week.end == Self.day(2026, 10, 25).wire)
            #expect(week.days.map { $0.goals.first { $0.kind == .dailySteps }?.target } == [8_000, 8_000, 8_000, 10_000, 10_000, 10_000, 10_000])
            let sunday = week.days[6]
            #expect(sunday.goals[0].actual == 1_950 && sunday.goals[0].met)
            // One workout that week (Sunday's); Monday's 00:30 belongs to the next.
            #expect(week.goals.map(\.kind) == [.weeklyWorkouts])
            #expect(week.goals[0].actual == 1 && week.goals[0].remaining == 1 && !week.goals[0].met)
            let steps = week.daysMet.first { $0.kind == .dailySteps }
            #expect(steps?.daysWithGoal == 7 && steps?.daysMet == 1)
            let energy = week.daysMet.first { $0.kind == .energy }
            #expect(energy?.daysWithGoal == 7 && energy?.daysMet == 1)

            // This week (Monday 26 to today, Wednesday 28): days still to come are not counted.
            let today = try Self.progress(store, owner, on: Self.day(2026, 10, 28))
            #expect(today.week.daysMet.first { $0.kind == .dailySteps }?.daysWithGoal == 3)
            #expect(today.week.goals[0].actual == 1)
            // A day before any goal: nothing to judge.
            #expect(try Self.progress(store, owner, on: Self.day(2026, 10, 18)).day.goals.isEmpty)
        }
    }

    @Test("Summaries carry each period's rings: a day's daily goals, a week's weekly goals")
    func summariesCarryGoals() async throws {
        try await withHousehold(now: Self.afterFallBack, ownerZone: "UTC") { household in
            let store = household.store
            let owner = household.owner
            _ = try await Self.setGoals(store, owner, from: Self.day(2026, 10, 20)) { $0.dailySteps = 8_000; $0.weeklyWorkouts = 3 }
            try await store.report(owner, stepsReport(day: Self.day(2026, 10, 21), source: "phone", steps: 8_500, reportedAt: Self.afterFallBack - 60_000))
            try await store.log(owner, workout(at: Self.afterFallBack - 2 * 86_400_000))
            var days = Workout_V1_SummariesRequest()
            days.fromDay = Self.day(2026, 10, 19).wire
            days.toDay = Self.day(2026, 10, 21).wire
            days.granularity = .day
            let daily = try store.summaries(owner.caller, days).periods
            #expect(daily.map(\.goals.count) == [0, 1, 1], "no goal before the 20th")
            #expect(daily[2].goals.first?.kind == .dailySteps && daily[2].goals.first?.met == true && daily[1].goals.first?.met == false)
            days.granularity = .week
            days.toDay = Self.day(2026, 10, 28).wire
            let weekly = try store.summaries(owner.caller, days).periods
            #expect(weekly.count == 2)
            // The week of the 19th is judged by the goals of its last day; this week by today's.
            #expect(weekly.map { $0.goals.map(\.kind) } == [[.weeklyWorkouts], [.weeklyWorkouts]])
            #expect(weekly[0].goals.first?.actual == 0 && weekly[1].goals.first?.actual == 1 && weekly[1].goals.first?.remaining == 2)
            let today = try store.todayProgress(owner.caller)
            #expect(today.day == Self.day(2026, 10, 28).wire && today.goals.map(\.target) == [8_000])
        }
    }

    @Test("Setting, changing and clearing keeps the history, and the answer names what is in effect today")
    func setChangeClear() async throws {
        try await withHousehold(now: Self.afterFallBack) { household in
            let store = household.store
            let owner = household.owner
            let first = try await Self.setGoals(store, owner, from: Self.day(2026, 10, 1)) {
                $0.energyKcal = 2_200
                $0.protein.percentOfEnergy = 20
                $0.fat.grams = 70
                $0.targetWeightKg = 72
                $0.targetWeightBy = Self.day(2027, 3, 1).wire
            }
            #expect(!first.unchanged && first.entry.setBy == owner.userID.data)
            // The same day again replaces that entry; clearing removes; the others stay.
            let replaced = try await Self.setGoals(store, owner, from: Self.day(2026, 10, 1), clear: [.fat]) { $0.dailySteps = 7_000 }
            #expect(!replaced.entry.goals.hasFat && replaced.entry.goals.dailySteps == 7_000 && replaced.entry.goals.energyKcal == 2_200)
            let today = try await Self.setGoals(store, owner, clear: [.targetWeight]) { $0.energyKcal = 2_000 }
            #expect(today.entry.effectiveFrom == Self.day(2026, 10, 28).wire)
            #expect(!today.entry.goals.hasTargetWeightKg && !today.entry.goals.hasTargetWeightBy && today.entry.goals.protein.percentOfEnergy == 20)
            let repeated = try await Self.setGoals(store, owner) { $0.energyKcal = 2_000 }
            #expect(repeated.unchanged && repeated.entry == today.entry)

            let goals = try store.getGoals(owner.caller, Workout_V1_GetGoalsRequest())
            #expect(goals.goals == today.entry.goals && goals.effectiveFrom == today.entry.effectiveFrom)
            // A target weight's day that has passed does not block changing another goal.
            _ = try await Self.setGoals(store, owner) { $0.targetWeightKg = 70; $0.targetWeightBy = Self.day(2026, 11, 15).wire }
            household.clock.advance(by: 20 * 86_400_000)
            #expect(try await Self.setGoals(store, owner) { $0.dailySteps = 9_000 }.entry.goals.targetWeightBy == Self.day(2026, 11, 15).wire)
            await expectDomainError(.invalidArgument, field: "set.target_weight_by") {
                try await Self.setGoals(store, owner) { $0.targetWeightKg = 69; $0.targetWeightBy = Self.day(2026, 11, 16).wire }
            }
            household.clock.advance(by: -20 * 86_400_000)
            #expect(goals.history.map(\.effectiveFrom) == [Self.day(2026, 10, 28).wire, Self.day(2026, 10, 1).wire])
            #expect(!goals.child && goals.lowestEnergyKcal == 0)

            // Protein as 20 % of 2,000 kcal is 100 g (4 kcal a gram) on today's progress; 20 % of 2,200 = 110 g on the 2nd.
            #expect(try Self.progress(store, owner, on: Self.day(2026, 10, 28)).day.goals.first { $0.kind == .protein }?.target == 100)
            #expect(try Self.progress(store, owner, on: Self.day(2026, 10, 2)).day.goals.first { $0.kind == .protein }?.target == 110)
        }
    }

    @Test("Bad goals are refused naming the field, in the person's units")
    func refusals() async throws {
        try await withHousehold(now: Self.afterFallBack) { household in
            let store = household.store
            let owner = household.owner
            func refused(_ field: String, _ words: String, from: LocalDay? = nil, clear: [Workout_V1_GoalKind] = [],
                         _ change: @escaping (inout Workout_V1_Goals) -> Void) async {
                do {
                    _ = try await Self.setGoals(store, owner, from: from, clear: clear, change)
                    Issue.record("expected a refusal on \(field)")
                } catch let error as DomainError {
                    #expect(error.code == .invalidArgument && error.field == field, "\(error)")
                    #expect(error.message.contains(words), "\(error.message)")
                } catch {
                    Issue.record("unexpected \(error)")
                }
            }
            await refused("set.energy_kcal", "between 800 and 10000 (got 300)") { $0.energyKcal = 300 }
            await refused("set.daily_steps", "between 100 and 100000 (got 500000)") { $0.dailySteps = 500_000 }
            await refused("set.protein.percent_of_energy", "needs an energy target") { $0.protein.percentOfEnergy = 30 }
            await refused("set.fat.percent_of_energy", "add up to 110 %") {
                $0.energyKcal = 2_000; $0.protein.percentOfEnergy = 40; $0.carbs.percentOfEnergy = 40; $0.fat.percentOfEnergy = 30
            }
            await refused("set.carbs", "needs grams or percent_of_energy") { $0.carbs = Workout_V1_NutrientTarget() }
            await refused("set.target_weight_by", "needs set.target_weight_kg") { $0.targetWeightBy = Self.day(2027, 1, 1).wire }
            await refused("set.target_weight_by", "must be after 2026-10-28") { $0.targetWeightKg = 70; $0.targetWeightBy = Self.day(2026, 10, 27).wire }
            await refused("clear[0]", "which set also sets", clear: [.dailySteps]) { $0.dailySteps = 8_000 }
            await refused("effective_from", "must not be after today, 2026-10-28", from: Self.day(2026, 10, 29)) { $0.dailySteps = 8_000 }
            await refused("effective_from", "at most 400 days back", from: Self.day(2025, 1, 1)) { $0.dailySteps = 8_000 }
            await expectDomainError(.invalidArgument, field: "day") { try store.progress(owner.caller, Workout_V1_ProgressRequest()) }
            let history = try store.getGoals(owner.caller, Workout_V1_GetGoalsRequest()).history
            #expect(history.isEmpty)
        }
    }

    @Test("A child gets no energy target below maintenance and no target weight but from an admin; an admin sees a child's goals, not an adult's")
    func children() async throws {
        try await withHousehold(now: Self.afterFallBack) { household in
            let store = household.store
            let owner = household.owner
            let child = try await household.addMember("Lena")
            let adult = try await household.addMember("Mark")
            var profile = Workout_V1_UpdateProfileRequest()
            profile.age = 15
            profile.weightKg = 50
            profile.heightCm = 160
            _ = try await store.updateProfile(child.caller, profile)
            // 1.4 × (10 × 50 + 6.25 × 160 − 5 × 15 + 5) = 2,002 → 2,010 kcal.
            let seen = try store.getGoals(child.caller, Workout_V1_GetGoalsRequest())
            #expect(seen.child && seen.lowestEnergyKcal == 2_010)
            do {
                _ = try await Self.setGoals(store, child) { $0.energyKcal = 1_600 }
                Issue.record("a deficit goal for a child was accepted")
            } catch let error as DomainError {
                #expect(error.code == .invalidArgument && error.field == "set.energy_kcal")
                #expect(error.message.contains("at least 2010 kcal for a member under 18"), "\(error.message)")
            }
            // Not from an admin either.
            await expectDomainError(.invalidArgument, field: "set.energy_kcal") {
                try await Self.setGoals(store, owner, memberID: child.userID) { $0.energyKcal = 1_600 }
            }
            _ = try await Self.setGoals(store, child) { $0.energyKcal = 2_100; $0.dailySteps = 9_000 }
            await expectDomainError(.permissionDenied) { try await Self.setGoals(store, child) { $0.targetWeightKg = 45 } }
            let byAdmin = try await Self.setGoals(store, owner, memberID: child.userID) { $0.targetWeightKg = 52 }
            #expect(byAdmin.entry.setBy == owner.userID.data && byAdmin.entry.goals.targetWeightKg == 52 && byAdmin.entry.goals.dailySteps == 9_000)
            var ofChild = Workout_V1_GetGoalsRequest()
            ofChild.memberID = child.userID.data
            #expect(try store.getGoals(owner.caller, ofChild).goals.targetWeightKg == 52)
            // A child may drop the weight goal; nobody else reads or sets another's goals.
            #expect(try await Self.setGoals(store, child, clear: [.targetWeight]) { _ in }.entry.goals.hasTargetWeightKg == false)
            await expectDomainError(.permissionDenied) { try store.getGoals(adult.caller, ofChild) }
            var ofAdult = Workout_V1_GetGoalsRequest()
            ofAdult.memberID = adult.userID.data
            await expectDomainError(.permissionDenied) { try store.getGoals(owner.caller, ofAdult) }
            await expectDomainError(.permissionDenied) { try await Self.setGoals(store, owner, memberID: adult.userID) { $0.dailySteps = 1_000 } }
            ofAdult.memberID = newID()
            await expectDomainError(.notFound) { try store.getGoals(owner.caller, ofAdult) }
        }
    }

    @Test("An admin marks a member a child whatever age they state: the rules for children apply until the mark is lifted; admins are never children")
    func markedChild() async throws {
        try await withHousehold(now: Self.afterFallBack) { household in
            let store = household.store
            let owner = household.owner
            let teen = try await household.addMember("Tom", share: true)
            let admin = try await household.addMember("Ada", role: .admin)
            var profile = Workout_V1_UpdateProfileRequest()
            profile.age = 30              // typed an adult's age
            profile.weightKg = 60
            profile.heightCm = 170
            _ = try await store.updateProfile(teen.caller, profile)
            func mark(_ member: Member, _ child: Bool, by caller: Member? = nil) async throws -> Workout_V1_MarkChildResponse {
                var request = Workout_V1_MarkChildRequest()
                request.userID = member.userID.data
                request.child = child
                return try await store.markChild((caller ?? owner).caller, request)
            }
            // Unmarked, an adult: their own deficit, no admin access to their goals.
            _ = try await Self.setGoals(store, teen) { $0.energyKcal = 1_500 }
            await expectDomainError(.permissionDenied) { try await Self.setGoals(store, owner, memberID: teen.userID) { $0.dailySteps = 5_000 } }

            let marked = try await mark(teen, true)
            #expect(marked.member.child && marked.member.markedChild && !marked.unchanged)
            #expect(try await mark(teen, true).unchanged)
            #expect(try store.listMembers(owner.caller).first { $0.userID == teen.userID.data }?.markedChild == true)
            // The stated 30 counts as 17: 1.4 × (600 + 1,062.5 − 85 + 5) = 2,215.5 → 2,220 kcal.
            let seen = try store.getGoals(teen.caller, Workout_V1_GetGoalsRequest())
            #expect(seen.child && seen.lowestEnergyKcal == 2_220)
            await expectDomainError(.invalidArgument, field: "set.energy_kcal") { try await Self.setGoals(store, teen) { $0.energyKcal = 1_800 } }
            await expectDomainError(.permissionDenied) { try await Self.setGoals(store, teen) { $0.targetWeightKg = 55 } }
            let byAdmin = try await Self.setGoals(store, owner, memberID: teen.userID) { $0.targetWeightKg = 62; $0.energyKcal = 2_300 }
            #expect(byAdmin.entry.goals.targetWeightKg == 62)
            #expect(try store.householdView(owner.caller).first { $0.userID == teen.userID.data }?.child == true)

            // Lifted: an adult again, whose goals are their own.
            let lifted = try await mark(teen, false)
            #expect(!lifted.member.child && !lifted.member.markedChild)
            _ = try await Self.setGoals(store, teen) { $0.energyKcal = 1_600 }
            await expectDomainError(.permissionDenied) { try await Self.setGoals(store, owner, memberID: teen.userID) { $0.dailySteps = 5_000 } }

            // Never oneself, an admin or the owner; only admins mark.
            await expectDomainError(.failedPrecondition) { try await mark(admin, true) }
            await expectDomainError(.failedPrecondition) { try await mark(household.owner, true, by: admin) }
            await expectDomainError(.failedPrecondition) { try await mark(admin, true, by: admin) }
            await expectDomainError(.permissionDenied) { try await mark(admin, true, by: teen) }
            await expectDomainError(.notFound) {
                var request = Workout_V1_MarkChildRequest()
                request.userID = newID()
                request.child = true
                return try await store.markChild(owner.caller, request)
            }
        }
    }

    @Test("The household board marks a member under 18 and shows everyone by activity: this week's minutes and steps-goal days")
    func householdBoard() async throws {
        try await withHousehold(now: Self.afterFallBack, ownerZone: "UTC") { household in
            let store = household.store
            let owner = household.owner
            let child = try await household.addMember("Lena", timeZone: "UTC", share: true)
            var profile = Workout_V1_UpdateProfileRequest()
            profile.age = 14
            _ = try await store.updateProfile(child.caller, profile)
            _ = try await Self.setGoals(store, child, from: Self.day(2026, 10, 26)) { $0.dailySteps = 9_000 }
            // Monday 26 and Tuesday 27 October met, Wednesday (today) not yet; last Sunday's is another week.
            for (day, steps) in [(26, UInt32(9_500)), (27, 12_000), (28, 3_000)] {
                try await store.report(child, stepsReport(day: Self.day(2026, 10, Int32(day)), source: "phone", steps: steps, reportedAt: Self.afterFallBack - 60_000))
            }
            try await store.log(child, workout(at: Self.afterFallBack - 86_400_000, seconds: 2_700))
            try await store.log(child, workout(at: Self.afterFallBack - 4 * 86_400_000, seconds: 600))
            let board = try store.householdView(owner.caller)
            let lena = try #require(board.first { $0.userID == child.userID.data })
            #expect(lena.child && lena.activeMinutesThisWeek == 45 && lena.stepsGoalDaysThisWeek == 2)
            let olga = try #require(board.first { $0.isYou })
            #expect(!olga.child && olga.activeMinutesThisWeek == 0 && olga.stepsGoalDaysThisWeek == 0)
            // The board carries no calorie or weight figure for anyone: every field is activity.
            let fields = try lena.jsonString().lowercased()
            #expect(!fields.contains("calor") && !fields.contains("weight") && !fields.contains("kcal"), "\(fields)")
        }
    }

    @Test("The weight trend follows the weigh-ins, with the rate per week and the day the target is reached")
    func weightTrend() async throws {
        try await withHousehold(now: Self.afterFallBack, ownerZone: "UTC") { household in
            let store = household.store
            let owner = household.owner
            // Every other day for four weeks, 0.5 kg a week down from 80 kg.
            let today = Self.day(2026, 10, 28)
            for back in stride(from: 28, through: 0, by: -2) {
                let day = today.adding(days: Int32(-back))
                let kg = 80 - 0.5 * Double(28 - back) / 7
                try await store.log(owner, weightEntry(kg: kg, at: Int64(day.epochDay) * 86_400_000 + 7 * 3_600_000))
            }
            _ = try await Self.setGoals(store, owner) { $0.targetWeightKg = 75 }
            let trend = try Self.progress(store, owner, on: today).weight
            #expect(trend.hasTrend_p && trend.targetKg == 75 && !trend.reached)
            #expect(abs(trend.changePerWeekKg + 0.5) < 0.001, "\(trend.changePerWeekKg)")
            // The smoothed weight lags the last weigh-in (78 kg) on a falling line.
            #expect(trend.trendKg > 78 && trend.trendKg < 79.5, "\(trend.trendKg)")
            let expected = today.adding(days: Int32(((75 - trend.trendKg) / (trend.changePerWeekKg / 7)).rounded(.up)))
            #expect(trend.projected == expected.wire)
            // No entries in the 90 days before: no trend.
            #expect(!(try Self.progress(store, owner, on: Self.day(2026, 6, 1)).weight.hasTrend_p))
        }
    }

    @Test("Progress over random days of meals, workouts, steps and goals equals a model written in the test", arguments: [1, 2, 3] as [UInt64])
    func oracle(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        try await withHousehold(now: Self.afterFallBack, ownerZone: "UTC") { household in
            let store = household.store
            let owner = household.owner
            let today = Self.day(2026, 10, 28)
            let firstDay = today.adding(days: -27)
            // The model: what each day holds, and the goals by the day they took effect.
            var eaten: [Int32: (kcal: Double, protein: Double)] = [:]
            var workouts: [Int32: Double] = [:]
            var steps: [Int32: UInt32] = [:]
            var goalChanges: [(day: Int32, energy: Double?, protein: Double?, steps: UInt32?, workouts: UInt32?)] = []
            var changeDay = firstDay.epochDay + Int32.random(in: 0...3, using: &random)
            while changeDay <= today.epochDay {
                let energy: Double? = Bool.random(using: &random) ? Double(Int.random(in: 16...30, using: &random) * 100) : nil
                let protein: Double? = Bool.random(using: &random) ? Double(Int.random(in: 50...150, using: &random)) : nil
                let stepsGoal: UInt32? = Bool.random(using: &random) ? UInt32.random(in: 40...120, using: &random) * 100 : nil
                let workoutsGoal: UInt32? = Bool.random(using: &random) ? UInt32.random(in: 1...4, using: &random) : nil
                var clear: [Workout_V1_GoalKind] = []
                if energy == nil { clear.append(.energy) }
                if protein == nil { clear.append(.protein) }
                if stepsGoal == nil { clear.append(.dailySteps) }
                if workoutsGoal == nil { clear.append(.weeklyWorkouts) }
                household.clock.set(Int64(changeDay) * 86_400_000 + 6 * 3_600_000)
                _ = try await Self.setGoals(store, owner, clear: clear) { goals in
                    if let energy { goals.energyKcal = energy }
                    if let protein { goals.protein.grams = protein }
                    if let stepsGoal { goals.dailySteps = stepsGoal }
                    if let workoutsGoal { goals.weeklyWorkouts = workoutsGoal }
                }
                goalChanges.append((changeDay, energy, protein, stepsGoal, workoutsGoal))
                changeDay += Int32.random(in: 2...9, using: &random)
            }
            household.clock.set(Self.afterFallBack)
            for epochDay in firstDay.epochDay...today.epochDay {
                let dayStart = Int64(epochDay) * 86_400_000
                for _ in 0..<Int.random(in: 0...3, using: &random) {
                    let items = (0..<Int.random(in: 1...3, using: &random)).map { _ in Double(Int.random(in: 1...9, using: &random) * 100) }
                    let logged = meal(at: dayStart + Int64.random(in: 0..<86_400_000, using: &random), items: items)
                    try await store.log(owner, logged)
                    eaten[epochDay, default: (0, 0)].kcal += logged.items.reduce(0) { $0 + $1.calories }
                    eaten[epochDay, default: (0, 0)].protein += logged.items.reduce(0) { $0 + $1.proteinG }
                }
                if Int.random(in: 0..<3, using: &random) == 0 {
                    let seconds = UInt32.random(in: 10...90, using: &random) * 60
                    try await store.log(owner, workout(at: dayStart + Int64.random(in: 0..<86_400_000, using: &random), seconds: seconds))
                    workouts[epochDay, default: 0] += 1
                }
                if Bool.random(using: &random) {
                    for source in ["phone", "watch"] where Bool.random(using: &random) {
                        let count = UInt32.random(in: 0...15_000, using: &random)
                        try await store.report(owner, stepsReport(day: LocalDay(epochDay: epochDay), source: source, steps: count, reportedAt: dayStart + 80_000_000))
                        steps[epochDay] = max(steps[epochDay] ?? 0, count)
                    }
                }
            }

            func goalsOn(_ epochDay: Int32) -> (day: Int32, energy: Double?, protein: Double?, steps: UInt32?, workouts: UInt32?)? {
                goalChanges.last { $0.day <= epochDay }
            }
            func within10(_ actual: Double, _ target: Double) -> Bool { actual > 0 && actual >= target * 0.9 && actual <= target * 1.1 }
            func expectedDay(_ epochDay: Int32) -> [(Workout_V1_GoalKind, Double, Double, Bool)] {
                guard let goals = goalsOn(epochDay) else { return [] }
                var list: [(Workout_V1_GoalKind, Double, Double, Bool)] = []
                let food = eaten[epochDay] ?? (0, 0)
                if let energy = goals.energy { list.append((.energy, energy, food.kcal, within10(food.kcal, energy))) }
                if let protein = goals.protein { list.append((.protein, protein, food.protein, food.protein >= protein)) }
                if let target = goals.steps { let walked = Double(steps[epochDay] ?? 0); list.append((.dailySteps, Double(target), walked, walked >= Double(target))) }
                return list
            }
            for epochDay in firstDay.epochDay...today.epochDay where Int.random(in: 0..<3, using: &random) == 0 || epochDay == today.epochDay {
                let day = LocalDay(epochDay: epochDay)
                let answer = try Self.progress(store, owner, on: day)
                let expected = expectedDay(epochDay)
                #expect(answer.day.goals.map(\.kind) == expected.map(\.0), "\(day)")
                for (got, want) in zip(answer.day.goals, expected) {
                    #expect(got.target == want.1 && abs(got.actual - want.2) < 1e-9 && got.met == want.3, "\(day) \(got.kind)")
                }
                // The week: Monday to Sunday by the model's own count of days since 1970-01-01 (a Thursday).
                let monday = epochDay - Int32((Int(epochDay) + 3) % 7)
                let weekDays = monday...(monday + 6)
                let weekWorkouts = weekDays.reduce(0.0) { $0 + (workouts[$1] ?? 0) }
                let weekly = goalsOn(epochDay)?.workouts.map { [(Workout_V1_GoalKind.weeklyWorkouts, Double($0), weekWorkouts, weekWorkouts >= Double($0))] } ?? []
                #expect(answer.week.goals.map(\.kind) == weekly.map(\.0), "\(day)")
                for (got, want) in zip(answer.week.goals, weekly) { #expect(got.target == want.1 && got.actual == want.2 && got.met == want.3) }
                var metCounts: [Workout_V1_GoalKind: (with: UInt32, met: UInt32)] = [:]
                for weekDay in weekDays where weekDay <= today.epochDay {
                    for (kind, _, _, met) in expectedDay(weekDay) {
                        metCounts[kind, default: (0, 0)].with += 1
                        if met { metCounts[kind, default: (0, 0)].met += 1 }
                    }
                }
                let answered = Dictionary(uniqueKeysWithValues: answer.week.daysMet.map { ($0.kind, ($0.daysWithGoal, $0.daysMet)) })
                #expect(answered.count == metCounts.count, "\(day)")
                for (kind, counts) in metCounts { #expect(answered[kind]?.0 == counts.with && answered[kind]?.1 == counts.met, "\(day) \(kind)") }
            }
        }
    }
}
