import Foundation
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

/// Every bounded field out of range: INVALID_ARGUMENT naming the exact field path
/// (PROTOCOL.md section 20), and nothing stored changes.
@Suite("Bad input")
struct BadInputTests {
    /// A request with one field out of bounds.
    struct BadInput: Sendable, CustomTestStringConvertible {
        var name: String
        var field: String
        var send: @Sendable (Household, Member) async throws -> Void
        var testDescription: String { "\(name) → \(field)" }

        init(_ name: String, _ field: String, _ send: @escaping @Sendable (Household, Member) async throws -> Void) {
            self.name = name
            self.field = field
            self.send = send
        }
    }

    /// A valid workout at the household's clock, changed by `change`.
    static func badWorkout(_ household: Household, _ change: (inout Workout_V1_Workout) -> Void) -> Workout_V1_Workout {
        var sent = workout(at: household.clock.nowMilliseconds() - 60_000)
        change(&sent)
        return sent
    }

    /// A valid meal with two items at the household's clock, changed by `change`.
    static func badMeal(_ household: Household, _ change: (inout Workout_V1_Meal) -> Void) -> Workout_V1_Meal {
        var sent = meal(at: household.clock.nowMilliseconds() - 60_000, items: [100, 200, 300, 400])
        change(&sent)
        return sent
    }

    /// A valid weight entry at the household's clock, changed by `change`.
    static func badEntry(_ household: Household, _ change: (inout Workout_V1_WeightEntry) -> Void) -> Workout_V1_WeightEntry {
        var sent = weightEntry(kg: 80, at: household.clock.nowMilliseconds() - 60_000)
        change(&sent)
        return sent
    }

    /// Today in UTC at the household's clock.
    static func today(_ household: Household) -> LocalDay {
        LocalDay.containing(instant: household.clock.nowMilliseconds(), in: TimeZone(identifier: "UTC")!)
    }

    static let cases: [BadInput] = [
        // Workouts.
        BadInput("negative calories", "workout.calories_burned") { h, m in try await h.store.log(m, badWorkout(h) { $0.caloriesBurned = -1 }) },
        BadInput("NaN calories", "workout.calories_burned") { h, m in try await h.store.log(m, badWorkout(h) { $0.caloriesBurned = .nan }) },
        BadInput("infinite calories", "workout.calories_burned") { h, m in try await h.store.log(m, badWorkout(h) { $0.caloriesBurned = .infinity }) },
        BadInput("20,001 calories", "workout.calories_burned") { h, m in try await h.store.log(m, badWorkout(h) { $0.caloriesBurned = 20_001 }) },
        BadInput("a 30-hour workout", "workout.duration_seconds") { h, m in try await h.store.log(m, badWorkout(h) { $0.durationSeconds = 30 * 3_600 }) },
        BadInput("a workout of no time", "workout.duration_seconds") { h, m in try await h.store.log(m, badWorkout(h) { $0.durationSeconds = 0 }) },
        BadInput("a workout in 1999", "workout.performed_at_ms") { h, m in
            try await h.store.log(m, badWorkout(h) { $0.performedAtMs = instant("1999-12-31T23:59:59Z") })
        },
        BadInput("a workout two days in the future", "workout.performed_at_ms") { h, m in
            try await h.store.log(m, badWorkout(h) { $0.performedAtMs = h.clock.nowMilliseconds() + 2 * 86_400_000 })
        },
        BadInput("a workout one day and a millisecond ahead", "workout.performed_at_ms") { h, m in
            try await h.store.log(m, badWorkout(h) { $0.performedAtMs = h.clock.nowMilliseconds() + 86_400_001 })
        },
        BadInput("a 65-byte workout type", "workout.workout_type") { h, m in
            try await h.store.log(m, badWorkout(h) { $0.workoutType = String(repeating: "x", count: 65) })
        },
        BadInput("a 66-byte workout type of 33 two-byte letters", "workout.workout_type") { h, m in
            try await h.store.log(m, badWorkout(h) { $0.workoutType = String(repeating: "é", count: 33) })
        },
        BadInput("an empty workout type", "workout.workout_type") { h, m in try await h.store.log(m, badWorkout(h) { $0.workoutType = "" }) },
        BadInput("1,001 exercises", "workout.exercises_completed") { h, m in try await h.store.log(m, badWorkout(h) { $0.exercisesCompleted = 1_001 }) },
        BadInput("1,001 bytes of notes", "workout.notes") { h, m in
            try await h.store.log(m, badWorkout(h) { $0.notes = String(repeating: "n", count: 1_001) })
        },
        BadInput("a 15-byte workout id", "workout.id") { h, m in try await h.store.log(m, badWorkout(h) { $0.id = Data(repeating: 7, count: 15) }) },
        BadInput("an all-zero workout id", "workout.id") { h, m in try await h.store.log(m, badWorkout(h) { $0.id = Data(count: 16) }) },
        BadInput("an unknown time zone", "workout.time_zone") { h, m in try await h.store.log(m, badWorkout(h) { $0.timeZone = "Europe/Atlantis" }) },
        BadInput("a 65-byte time zone", "workout.time_zone") { h, m in
            try await h.store.log(m, badWorkout(h) { $0.timeZone = "America/" + String(repeating: "A", count: 57) })
        },
        BadInput("an update to a 30-hour workout", "workout.duration_seconds") { h, m in
            var changed = try h.store.allWorkouts(m)[0]
            changed.durationSeconds = 30 * 3_600
            try await h.store.update(m, changed)
        },
        BadInput("a delete with a 15-byte id", "id") { h, m in try await h.store.deleteWorkout(m, id: Data(repeating: 1, count: 15)) },

        // Meals.
        BadInput("101 food items", "meal.items") { h, m in
            try await h.store.log(m, badMeal(h) { $0.items = meal(at: 0, items: Array(repeating: 10, count: 101)).items })
        },
        BadInput("negative calories in the fourth item", "meal.items[3].calories") { h, m in
            try await h.store.log(m, badMeal(h) { $0.items[3].calories = -5 })
        },
        BadInput("10,001 calories in an item", "meal.items[0].calories") { h, m in try await h.store.log(m, badMeal(h) { $0.items[0].calories = 10_001 }) },
        BadInput("NaN protein", "meal.items[1].protein_g") { h, m in try await h.store.log(m, badMeal(h) { $0.items[1].proteinG = .nan }) },
        BadInput("1,001 g of carbs", "meal.items[2].carbs_g") { h, m in try await h.store.log(m, badMeal(h) { $0.items[2].carbsG = 1_001 }) },
        BadInput("negative fat", "meal.items[0].fat_g") { h, m in try await h.store.log(m, badMeal(h) { $0.items[0].fatG = -0.5 }) },
        BadInput("a hundredth of a serving too little", "meal.items[0].servings") { h, m in
            try await h.store.log(m, badMeal(h) { $0.items[0].servings = 0.001 })
        },
        BadInput("an unnamed item", "meal.items[1].name") { h, m in try await h.store.log(m, badMeal(h) { $0.items[1].name = "" }) },
        BadInput("an unspecified meal type", "meal.meal_type") { h, m in try await h.store.log(m, badMeal(h) { $0.mealType = .unspecified }) },
        BadInput("a 129-byte meal name", "meal.name") { h, m in try await h.store.log(m, badMeal(h) { $0.name = String(repeating: "m", count: 129) }) },
        BadInput("a meal in 1999", "meal.eaten_at_ms") { h, m in try await h.store.log(m, badMeal(h) { $0.eatenAtMs = instant("1999-06-01T12:00:00Z") }) },
        BadInput("a meal in an unknown zone", "meal.time_zone") { h, m in try await h.store.log(m, badMeal(h) { $0.timeZone = "EST" }) },
        BadInput("a meal with a 17-byte id", "meal.id") { h, m in try await h.store.log(m, badMeal(h) { $0.id = Data(repeating: 3, count: 17) }) },

        // Weight entries.
        BadInput("a NaN weight", "entry.weight_kg") { h, m in try await h.store.log(m, badEntry(h) { $0.weightKg = .nan }) },
        BadInput("9 kg", "entry.weight_kg") { h, m in try await h.store.log(m, badEntry(h) { $0.weightKg = 9 }) },
        BadInput("501 kg", "entry.weight_kg") { h, m in try await h.store.log(m, badEntry(h) { $0.weightKg = 501 }) },
        BadInput("a 257-byte note", "entry.note") { h, m in try await h.store.log(m, badEntry(h) { $0.note = String(repeating: "w", count: 257) }) },
        BadInput("a weight two days ahead", "entry.measured_at_ms") { h, m in
            try await h.store.log(m, badEntry(h) { $0.measuredAtMs = h.clock.nowMilliseconds() + 2 * 86_400_000 })
        },
        BadInput("a weight with a 15-byte id", "entry.id") { h, m in try await h.store.log(m, badEntry(h) { $0.id = Data(repeating: 9, count: 15) }) },

        // Steps.
        BadInput("200,001 steps", "report.steps") { h, m in
            try await h.store.report(m, stepsReport(day: today(h), source: "phone", steps: 200_001, reportedAt: h.clock.nowMilliseconds()))
        },
        BadInput("an empty steps source", "report.source") { h, m in
            try await h.store.report(m, stepsReport(day: today(h), source: "", steps: 1, reportedAt: h.clock.nowMilliseconds()))
        },
        BadInput("steps the day after tomorrow", "report.day") { h, m in
            try await h.store.report(m, stepsReport(day: today(h).adding(days: 2), source: "phone", steps: 1, reportedAt: h.clock.nowMilliseconds()))
        },
        BadInput("steps on February 30", "report.day") { h, m in
            var report = stepsReport(day: today(h), source: "phone", steps: 1, reportedAt: h.clock.nowMilliseconds())
            report.day.month = 2
            report.day.day = 30
            try await h.store.report(m, report)
        },
        BadInput("steps reported in 1999", "report.reported_at_ms") { h, m in
            try await h.store.report(m, stepsReport(day: today(h), source: "phone", steps: 1, reportedAt: instant("1999-01-01T00:00:00Z")))
        },

        // Queries.
        BadInput("a history page of 101", "page_size") { h, m in _ = try h.store.workoutHistory(m.caller, .with { $0.pageSize = 101 }) },
        BadInput("a 257-byte page token", "page_token") { h, m in
            _ = try h.store.workoutHistory(m.caller, .with { $0.pageToken = Data(count: 257) })
        },
        BadInput("a history range ending before it starts", "to_ms") { h, m in
            _ = try h.store.workoutHistory(m.caller, .with {
                $0.fromMs = h.clock.nowMilliseconds() - 1_000
                $0.toMs = h.clock.nowMilliseconds() - 2_000
            })
        },
        BadInput("a history range from 1999", "from_ms") { h, m in
            _ = try h.store.workoutHistory(m.caller, .with { $0.fromMs = instant("1999-01-01T00:00:00Z") })
        },
        BadInput("a weight page of 1,001", "page_size") { h, m in _ = try h.store.weightProgress(m.caller, .with { $0.pageSize = 1_001 }) },
        BadInput("meals of a day in an unknown zone", "time_zone") { h, m in
            _ = try h.store.mealsOfDay(m.caller, .with {
                $0.day = today(h).wire
                $0.timeZone = "Mars/Olympus_Mons"
            })
        },
        BadInput("meals of a day in 1999", "day") { h, m in
            _ = try h.store.mealsOfDay(m.caller, .with { $0.day = .with { $0.year = 1999; $0.month = 12; $0.day = 31 } })
        },
        BadInput("meals of no day", "day") { h, m in _ = try h.store.mealsOfDay(m.caller, .init()) },
        BadInput("summaries ending before they start", "to_day") { h, m in
            _ = try h.store.summaries(m.caller, .with {
                $0.fromDay = today(h).wire
                $0.toDay = today(h).adding(days: -1).wire
            })
        },
        BadInput("401 days of summaries", "to_day") { h, m in
            _ = try h.store.summaries(m.caller, .with {
                $0.fromDay = today(h).adding(days: -400).wire
                $0.toDay = today(h).wire
            })
        },
        BadInput("summaries from February 29 of a common year", "from_day") { h, m in
            _ = try h.store.summaries(m.caller, .with {
                $0.fromDay = .with { $0.year = 2026; $0.month = 2; $0.day = 29 }
                $0.toDay = today(h).wire
            })
        },
        BadInput("a change page of 501", "page_size") { h, m in _ = try h.store.changes(m.caller, .with { $0.pageSize = 501 }) },

        // Profile.
        BadInput("an age of 4", "age") { h, m in _ = try await h.store.updateProfile(m.caller, .with { $0.age = 4 }) },
        BadInput("a NaN height", "height_cm") { h, m in _ = try await h.store.updateProfile(m.caller, .with { $0.heightCm = .nan }) },
        BadInput("a profile weight of 501 kg", "weight_kg") { h, m in _ = try await h.store.updateProfile(m.caller, .with { $0.weightKg = 501 }) },
        BadInput("an empty first name", "first_name") { h, m in _ = try await h.store.updateProfile(m.caller, .with { $0.firstName = "" }) },
        BadInput("a first name with a newline", "first_name") { h, m in _ = try await h.store.updateProfile(m.caller, .with { $0.firstName = "A\nB" }) },
        BadInput("a 65-byte last name", "last_name") { h, m in
            _ = try await h.store.updateProfile(m.caller, .with { $0.lastName = String(repeating: "l", count: 65) })
        },
        BadInput("an email without @", "email") { h, m in _ = try await h.store.updateProfile(m.caller, .with { $0.email = "nobody.example.com" }) },
        BadInput("an email with a space", "email") { h, m in _ = try await h.store.updateProfile(m.caller, .with { $0.email = "no body@example.com" }) },
        BadInput("a profile zone that is an offset", "time_zone") { h, m in _ = try await h.store.updateProfile(m.caller, .with { $0.timeZone = "UTC+1" }) },

        // Accounts.
        BadInput("a 7-byte new password", "password") { h, _ in
            let code = try await h.store.createInvite(h.owner.caller, .with { $0.role = .member }).code
            _ = try await h.store.register(AccountsTests.registration(code: code, email: "short@example.com", password: "1234567"), source: "", agent: "")
        },
        BadInput("a registration with a bad email", "profile.email") { h, _ in
            let code = try await h.store.createInvite(h.owner.caller, .with { $0.role = .member }).code
            _ = try await h.store.register(AccountsTests.registration(code: code, email: "@example.com"), source: "", agent: "")
        },
        BadInput("a registration in an unknown zone", "profile.time_zone") { h, _ in
            let code = try await h.store.createInvite(h.owner.caller, .with { $0.role = .member }).code
            var request = AccountsTests.registration(code: code, email: "zone@example.com")
            request.profile.timeZone = "Nowhere/Special"
            _ = try await h.store.register(request, source: "", agent: "")
        },
        BadInput("a registration without a time zone", "profile.time_zone") { h, _ in
            let code = try await h.store.createInvite(h.owner.caller, .with { $0.role = .member }).code
            var request = AccountsTests.registration(code: code, email: "nozone@example.com")
            request.profile.timeZone = ""
            _ = try await h.store.register(request, source: "", agent: "")
        },
        BadInput("a registration with an unknown fitness goal", "profile.fitness_goal") { h, _ in
            let code = try await h.store.createInvite(h.owner.caller, .with { $0.role = .member }).code
            var request = AccountsTests.registration(code: code, email: "goal@example.com")
            request.profile.fitnessGoal = .UNRECOGNIZED(77)
            _ = try await h.store.register(request, source: "", agent: "")
        },
        BadInput("a profile update with an unknown fitness goal", "fitness_goal") { h, m in
            _ = try await h.store.updateProfile(m.caller, .with { $0.fitnessGoal = .UNRECOGNIZED(77) })
        },
        BadInput("an empty login password", "password") { h, m in
            _ = try await h.store.login(AccountsTests.login(m.email, ""), source: "", agent: "")
        },
        BadInput("a 65-byte device name", "device_name") { h, m in
            var request = AccountsTests.login(m.email, m.password)
            request.deviceName = String(repeating: "d", count: 65)
            _ = try await h.store.login(request, source: "", agent: "")
        },
        BadInput("an invite of 59 seconds", "expires_in_seconds") { h, _ in
            _ = try await h.store.createInvite(h.owner.caller, .with {
                $0.role = .member
                $0.expiresInSeconds = 59
            })
        },
        BadInput("an invite for an owner", "role") { h, _ in _ = try await h.store.createInvite(h.owner.caller, .with { $0.role = .owner }) },
        BadInput("a 129-byte invite note", "note") { h, _ in
            _ = try await h.store.createInvite(h.owner.caller, .with {
                $0.role = .member
                $0.note = String(repeating: "i", count: 129)
            })
        },
        BadInput("a 65-byte invite code", "invite_code") { h, _ in
            _ = try await h.store.register(AccountsTests.registration(code: String(repeating: "A", count: 65), email: "code@example.com"), source: "", agent: "")
        },
        BadInput("a removal of a 15-byte user id", "user_id") { h, _ in
            try await h.store.removeMember(h.owner.caller, .with { $0.userID = Data(count: 15) })
        },
    ]

    @Test("A field out of bounds is INVALID_ARGUMENT naming its path, and nothing stored changes", arguments: cases)
    func outOfBounds(_ input: BadInput) async throws {
        try await withHousehold { household in
            let store = household.store
            let member = try await household.addMember("Lu")
            try await store.fillHistory(member, household.clock, days: 2)
            let before = try AuthorizationTests.snapshot(store, member)
            let members = try store.listMembers(household.owner.caller)
            await expectDomainError(.invalidArgument, field: input.field) { try await input.send(household, member) }
            #expect(try AuthorizationTests.snapshot(store, member) == before)
            #expect(try store.listMembers(household.owner.caller) == members)
        }
    }

    @Test("Bounds are inclusive: the extreme valid values are accepted")
    func extremesAccepted() async throws {
        try await withHousehold { household in
            let store = household.store
            let member = try await household.addMember("Mae")
            let now = household.clock.nowMilliseconds()
            try await store.log(member, workout(at: Bounds.earliestEventTime, type: String(repeating: "x", count: 64), seconds: 86_400, calories: 20_000,
                                                exercises: 1_000, notes: String(repeating: "n", count: 1_000)))
            try await store.log(member, workout(at: now + 86_400_000, seconds: 1, calories: 0))
            var biggest = meal(at: now, items: Array(repeating: 8_000, count: 100))
            biggest.name = String(repeating: "m", count: 128)
            biggest.items[0].name = String(repeating: "i", count: 128)
            biggest.items[0].calories = 10_000
            biggest.items[0].proteinG = 1_000
            biggest.items[0].carbsG = 1_000
            biggest.items[0].fatG = 1_000
            biggest.items[0].servings = 100
            biggest.items[1].servings = 0.01
            try await store.log(member, biggest)
            try await store.log(member, weightEntry(kg: 10, at: now, note: String(repeating: "w", count: 256)))
            try await store.log(member, weightEntry(kg: 500, at: now))
            try await store.report(member, stepsReport(day: LocalDay.containing(instant: now, in: TimeZone(identifier: "UTC")!).adding(days: 1),
                                                       source: String(repeating: "s", count: 64), steps: 200_000, reportedAt: now))
            #expect(try store.workoutHistory(member.caller, .with { $0.pageSize = 100 }).workouts.count == 2)
            #expect(try store.profile(member).totals.totalWorkouts == 2)
        }
    }
}
