import Foundation
package import WorkoutProtocol
package import WorkoutCore
package import WorkoutRules

/// The household a run works on: who the members are, how to log in as them, and which
/// records each has. The preloader writes exactly this; the scenarios ask for it.
///
/// Each member has `recordsPerMember` meals, `mealsPerDay` a day (so a day query returns that
/// many full records), on the `days` local days that end yesterday (UTC, every member's zone),
/// each with two food items; and one workout on each of those days (so the history is full,
/// the streak runs to yesterday and the achievements are unlocked).
package struct DataPlan: Sendable, Hashable {
    /// The number of members (the owner not counted).
    package var members: Int
    /// Meals per member.
    package var recordsPerMember: Int
    /// Meals per day.
    package var mealsPerDay: Int
    /// The first preloaded day; the last is the day before `today`.
    package var firstDay: LocalDay
    /// The day the plan was made (UTC).
    package var today: LocalDay
    /// The members' email addresses: `{n}` is replaced by the member's number, from 0.
    package var memberEmailTemplate: String
    /// The owner's email (the admin account Stats is asked with).
    package var ownerEmail: String
    /// Every account's password.
    package var password: String
    /// When the plan was made, ms since the Unix epoch: the timestamp of preloaded ids.
    package var madeAtMilliseconds: Int64

    /// The defaults' member email template.
    package static let defaultMemberEmailTemplate = "member{n}@bench.example"
    /// The defaults' owner email.
    package static let defaultOwnerEmail = "owner@bench.example"
    /// The defaults' password.
    package static let defaultPassword = "workout-bench password"
    /// Every member's time zone.
    package static let timeZone = "UTC"

    /// A plan of `members` members with `recordsPerMember` meals each, `mealsPerDay` a day,
    /// ending yesterday (UTC) as of `nowMilliseconds`.
    package init(
        members: Int, recordsPerMember: Int, mealsPerDay: Int = 10, nowMilliseconds: Int64,
        memberEmailTemplate: String = DataPlan.defaultMemberEmailTemplate,
        ownerEmail: String = DataPlan.defaultOwnerEmail, password: String = DataPlan.defaultPassword
    ) {
        precondition(members >= 1 && recordsPerMember >= 0 && mealsPerDay >= 1, "invalid data plan")
        self.members = members
        self.recordsPerMember = recordsPerMember
        self.mealsPerDay = mealsPerDay
        self.memberEmailTemplate = memberEmailTemplate
        self.ownerEmail = ownerEmail
        self.password = password
        madeAtMilliseconds = nowMilliseconds
        today = LocalDay(epochDay: Int32(nowMilliseconds.floorDivided(by: LocalDay.millisecondsPerDay)))
        let days = (recordsPerMember + mealsPerDay - 1) / mealsPerDay
        firstDay = today.adding(days: -Int32(max(days, 1)))
    }

    /// The number of days with records.
    package var days: Int { (recordsPerMember + mealsPerDay - 1) / mealsPerDay }

    /// The `index`-th preloaded day (0 = the first).
    package func day(_ index: Int) -> LocalDay { firstDay.adding(days: Int32(index)) }

    /// Member `index`'s email.
    package func memberEmail(_ index: Int) -> String {
        memberEmailTemplate.replacingOccurrences(of: "{n}", with: String(index))
    }

    /// Midnight UTC of a day, in milliseconds.
    package static func start(of day: LocalDay) -> Int64 {
        Int64(day.epochDay) * LocalDay.millisecondsPerDay
    }

    /// When the `slot`-th meal of a day is eaten: from 06:00, every 16 h / `mealsPerDay`.
    package func mealTime(on day: LocalDay, slot: Int) -> Int64 {
        Self.start(of: day) + 6 * 3_600_000 + Int64(slot) * (16 * 3_600_000 / Int64(mealsPerDay))
    }

    /// When the day's workout is done: 18:30.
    package func workoutTime(on day: LocalDay) -> Int64 {
        Self.start(of: day) + 18 * 3_600_000 + 30 * 60_000
    }

    /// The records of member `member`, oldest first (the day's meals and its workout in time order), with
    /// time-ordered ids from `ids`.
    package func records(ofMember member: Int, ids: inout TimeOrderedIDGenerator) -> [ImportedRecord] {
        var random = FastRandom(seed: UInt64(member) &+ 0x5EED)
        var records: [ImportedRecord] = []
        records.reserveCapacity(recordsPerMember + days)
        var remaining = recordsPerMember
        let stamp = UInt64(madeAtMilliseconds)
        for index in 0..<days {
            let day = self.day(index)
            let workoutAt = workoutTime(on: day)
            var workoutLogged = false
            for slot in 0..<min(mealsPerDay, remaining) {
                let eatenAt = mealTime(on: day, slot: slot)
                if !workoutLogged && eatenAt > workoutAt {
                    records.append(.workout(Self.workout(id: ids.next(milliseconds: stamp), at: workoutAt, random: &random)))
                    workoutLogged = true
                }
                records.append(.meal(Self.meal(id: ids.next(milliseconds: stamp), at: eatenAt, slot: slot, random: &random)))
            }
            if !workoutLogged {
                records.append(.workout(Self.workout(id: ids.next(milliseconds: stamp), at: workoutAt, random: &random)))
            }
            remaining -= mealsPerDay
        }
        return records
    }

    /// A meal of two food items, its type following the slot.
    package static func meal(id: [UInt8], at time: Int64, slot: Int, random: inout FastRandom) -> Workout_V1_Meal {
        let types: [Workout_V1_MealType] = [.breakfast, .snack, .lunch, .snack, .dinner]
        var meal = Workout_V1_Meal()
        meal.id = Data(id)
        meal.mealType = types[slot % types.count]
        meal.eatenAtMs = time
        meal.name = "Meal \(slot + 1)"
        let portion = Double(random.next(below: 300)) + 150
        meal.items = [
            foodItem("Oat porridge", calories: portion, protein: portion / 25, carbs: portion / 6, fat: portion / 40),
            foodItem("Green tea", calories: 2, protein: 0, carbs: 0.3, fat: 0),
        ]
        return meal
    }

    /// A food item.
    static func foodItem(_ name: String, calories: Double, protein: Double, carbs: Double, fat: Double) -> Workout_V1_FoodItem {
        var item = Workout_V1_FoodItem()
        item.name = name
        item.calories = calories.rounded()
        item.proteinG = protein.rounded()
        item.carbsG = carbs.rounded()
        item.fatG = fat.rounded()
        item.servings = 1
        return item
    }

    /// A workout of 20 to 80 minutes.
    package static func workout(id: [UInt8], at time: Int64, random: inout FastRandom) -> Workout_V1_Workout {
        let types = ["run", "bike", "swim", "strength", "yoga"]
        var workout = Workout_V1_Workout()
        workout.id = Data(id)
        workout.workoutType = types[Int(random.next(below: UInt64(types.count)))]
        workout.durationSeconds = 1_200 + UInt32(random.next(below: 3_600))
        workout.caloriesBurned = Double(150 + random.next(below: 550))
        workout.exercisesCompleted = UInt32(random.next(below: 12))
        workout.performedAtMs = time
        return workout
    }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    func floorDivided(by divisor: Int64) -> Int64 {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? quotient - 1 : quotient
    }
}
