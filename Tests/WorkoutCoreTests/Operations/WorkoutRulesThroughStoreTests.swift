import Foundation
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

/// The app's rules (points, levels, achievements, streaks) as the store applies them, end
/// to end through logWorkout, updateWorkout, deleteWorkout, getProfile and achievements.
@Suite("Workout rules through the store")
struct WorkoutRulesThroughStoreTests {
    /// Points of the achievements in the catalog, by id.
    static let achievementPoints = Dictionary(uniqueKeysWithValues: AchievementCatalog.all.map { ($0.id, UInt64($0.points)) })

    @Test("Each workout gives 50 points, each achievement unlocks exactly once, and achievement points move the level")
    func pointsAchievementsAndLevel() async throws {
        try await withHousehold(now: instant("2026-05-20T06:00:00Z")) { household in
            let store = household.store
            let anna = try await household.addMember("Anna")
            // Ten workouts on ten consecutive Berlin days, 2026-05-20 ... 2026-05-29.
            let unlocksAt: [Int: [String]] = [1: ["workout_1"], 3: ["streak_3"], 7: ["streak_7"], 10: ["workout_10"]]
            var unlocked: [String: Int64] = [:]
            var ids: [Data] = []
            var last: Workout_V1_Workout?
            for index in 1...10 {
                // Logged a minute after it ended, so "today" is its day.
                let performed = local(String(format: "2026-05-%02d 18:00", 19 + index), "Europe/Berlin")
                household.clock.set(performed + 60_000)
                let sent = workout(at: performed, calories: 100)
                ids.append(sent.id)
                let response = try await store.log(anna, sent)
                #expect(!response.replayed)
                #expect(response.unlocked.map(\.achievementID) == unlocksAt[index] ?? [], "workout \(index)")
                for achievement in response.unlocked {
                    #expect(achievement.unlocked)
                    // Dated by the workout that reached the target, not by the minute it was logged.
                    #expect(achievement.unlockedAtMs == performed)
                    #expect(UInt64(achievement.points) == Self.achievementPoints[achievement.achievementID])
                    unlocked[achievement.achievementID] = achievement.unlockedAtMs
                }
                let points = 50 * UInt64(index) + unlocked.keys.map { Self.achievementPoints[$0]! }.reduce(0, +)
                #expect(response.totals.totalWorkouts == UInt32(index))
                #expect(response.totals.totalCaloriesBurned == 100 * Double(index))
                #expect(response.totals.points == points)
                #expect(response.totals.level == UInt32(points / 1_000 + 1))
                #expect(response.totals.currentStreakDays == UInt32(index))
                #expect(response.totals.longestStreakDays == UInt32(index))
                #expect(response.totals.achievementsUnlocked == UInt32(unlocked.count))
                last = sent
            }
            // 500 for the workouts + 100 + 100 + 250 + 250 for the achievements: level 2.
            var totals = try store.profile(anna).totals
            #expect(totals.points == 1_200)
            #expect(totals.level == 2)

            // A replay of the tenth unlocks nothing and adds nothing.
            let replay = try await store.log(anna, last!)
            #expect(replay.replayed)
            #expect(replay.unlocked.isEmpty)
            #expect(replay.totals == totals)

            // An eleventh workout on the same day: +50 points, no unlock, the streak stays at 10.
            let eleventh = try await store.log(anna, workout(at: local("2026-05-29 07:00", "Europe/Berlin")))
            #expect(eleventh.unlocked.isEmpty)
            #expect(eleventh.totals.points == 1_250)
            #expect(eleventh.totals.currentStreakDays == 10)
            ids.append(eleventh.workout.id)

            // Deleting two workouts takes their points away but no achievement.
            try await store.deleteWorkout(anna, id: ids[1])
            let afterDeletes = try await store.deleteWorkout(anna, id: ids[10])
            #expect(afterDeletes.totals.totalWorkouts == 9)
            #expect(afterDeletes.totals.points == 9 * 50 + 700)
            #expect(afterDeletes.totals.level == 2)
            #expect(afterDeletes.totals.achievementsUnlocked == 4)
            #expect(afterDeletes.totals.currentStreakDays == 8)
            #expect(afterDeletes.totals.longestStreakDays == 8)

            // Back to ten workouts: workout_10 is not unlocked a second time.
            let again = try await store.log(anna, workout(at: local("2026-05-21 09:00", "Europe/Berlin")))
            #expect(again.unlocked.isEmpty)
            #expect(again.totals.totalWorkouts == 10)
            #expect(again.totals.points == 1_200)
            #expect(again.totals.currentStreakDays == 10)

            let list = try store.achievements(anna.caller)
            for achievement in list {
                #expect(achievement.unlocked == (unlocked[achievement.achievementID] != nil), "\(achievement.achievementID)")
                if let at = unlocked[achievement.achievementID] { #expect(achievement.unlockedAtMs == at) }
            }
            let fifty = try #require(list.first { $0.achievementID == "workout_50" })
            #expect(fifty.progress == 10)
            #expect(fifty.target == 50)
            totals = try store.profile(anna).totals
            #expect(totals.achievementsUnlocked == 4)
        }
    }

    /// A streak scenario: workouts at local wall-clock times in zones, and the day to judge on.
    struct StreakCase: Sendable, CustomTestStringConvertible {
        var name: String
        var profileZone: String
        var workouts: [(time: String, zone: String)]
        var today: (time: String, zone: String)
        var current: UInt32
        var longest: UInt32
        var testDescription: String { name }
    }

    static let streakCases: [StreakCase] = [
        StreakCase(name: "across midnight", profileZone: "Europe/Berlin",
                   workouts: [("2026-05-10 23:59", "Europe/Berlin"), ("2026-05-11 00:01", "Europe/Berlin")],
                   today: ("2026-05-11 12:00", "Europe/Berlin"), current: 2, longest: 2),
        StreakCase(name: "several workouts a day count once", profileZone: "Europe/Berlin",
                   workouts: [("2026-05-10 06:00", "Europe/Berlin"), ("2026-05-10 12:00", "Europe/Berlin"), ("2026-05-10 23:00", "Europe/Berlin")],
                   today: ("2026-05-10 23:30", "Europe/Berlin"), current: 1, longest: 1),
        StreakCase(name: "New York at 23:30, then Berlin the next local day", profileZone: "America/New_York",
                   workouts: [("2026-03-10 23:30", "America/New_York"), ("2026-03-11 18:00", "Europe/Berlin")],
                   today: ("2026-03-11 20:00", "Europe/Berlin"), current: 2, longest: 2),
        StreakCase(name: "Berlin just after midnight, then New York the same local day", profileZone: "Europe/Berlin",
                   workouts: [("2026-03-11 00:30", "Europe/Berlin"), ("2026-03-11 22:00", "America/New_York")],
                   today: ("2026-03-11 22:30", "America/New_York"), current: 1, longest: 1),
        StreakCase(name: "a later instant on an earlier local day", profileZone: "America/New_York",
                   workouts: [("2026-03-12 00:30", "Europe/Berlin"), ("2026-03-11 22:00", "America/New_York")],
                   today: ("2026-03-12 08:00", "Europe/Berlin"), current: 2, longest: 2),
        StreakCase(name: "Berlin's 23-hour day", profileZone: "Europe/Berlin",
                   workouts: [("2026-03-28 23:30", "Europe/Berlin"), ("2026-03-29 03:30", "Europe/Berlin"), ("2026-03-29 23:30", "Europe/Berlin"),
                              ("2026-03-30 00:30", "Europe/Berlin")],
                   today: ("2026-03-30 12:00", "Europe/Berlin"), current: 3, longest: 3),
        StreakCase(name: "Berlin's 25-hour day", profileZone: "Europe/Berlin",
                   workouts: [("2026-10-24 23:30", "Europe/Berlin"), ("2026-10-25 02:30", "Europe/Berlin"), ("2026-10-25 23:30", "Europe/Berlin"),
                              ("2026-10-26 00:10", "Europe/Berlin")],
                   today: ("2026-10-26 00:20", "Europe/Berlin"), current: 3, longest: 3),
        StreakCase(name: "New York's spring-forward day", profileZone: "America/New_York",
                   workouts: [("2026-03-07 23:00", "America/New_York"), ("2026-03-08 03:30", "America/New_York"), ("2026-03-09 00:30", "America/New_York")],
                   today: ("2026-03-09 08:00", "America/New_York"), current: 3, longest: 3),
        StreakCase(name: "a gap resets the current streak", profileZone: "Europe/Berlin",
                   workouts: [("2026-05-10 08:00", "Europe/Berlin"), ("2026-05-11 08:00", "Europe/Berlin"), ("2026-05-13 08:00", "Europe/Berlin")],
                   today: ("2026-05-13 20:00", "Europe/Berlin"), current: 1, longest: 2),
        StreakCase(name: "yesterday's run still counts today", profileZone: "Europe/Berlin",
                   workouts: [("2026-05-10 08:00", "Europe/Berlin"), ("2026-05-11 08:00", "Europe/Berlin")],
                   today: ("2026-05-12 23:00", "Europe/Berlin"), current: 2, longest: 2),
        StreakCase(name: "a day without a workout ends it", profileZone: "Europe/Berlin",
                   workouts: [("2026-05-10 08:00", "Europe/Berlin"), ("2026-05-11 08:00", "Europe/Berlin")],
                   today: ("2026-05-13 00:30", "Europe/Berlin"), current: 0, longest: 2),
        StreakCase(name: "the longest run is kept", profileZone: "Europe/Berlin",
                   workouts: [("2026-05-01 08:00", "Europe/Berlin"), ("2026-05-02 08:00", "Europe/Berlin"), ("2026-05-03 08:00", "Europe/Berlin"),
                              ("2026-05-05 08:00", "Europe/Berlin"), ("2026-05-06 08:00", "Europe/Berlin")],
                   today: ("2026-05-06 09:00", "Europe/Berlin"), current: 2, longest: 3),
        StreakCase(name: "back-dated workouts fill the run", profileZone: "Europe/Berlin",
                   workouts: [("2026-05-12 08:00", "Europe/Berlin"), ("2026-05-10 08:00", "Europe/Berlin"), ("2026-05-11 08:00", "Europe/Berlin")],
                   today: ("2026-05-12 09:00", "Europe/Berlin"), current: 3, longest: 3),
    ]

    @Test("Streaks count consecutive local days in the zone each workout was logged in", arguments: streakCases)
    func streaks(_ scenario: StreakCase) async throws {
        let instants = scenario.workouts.map { local($0.time, $0.zone) }
        try await withHousehold(now: instants.max()! + 60_000) { household in
            let member = try await household.addMember("Bo", timeZone: scenario.profileZone)
            for (index, sent) in scenario.workouts.enumerated() {
                let response = try await household.store.log(member, workout(at: instants[index], zone: sent.zone))
                #expect(response.workout.localDay.localDay == LocalDay(String(sent.time.prefix(10))), "\(sent)")
                #expect(response.workout.timeZone == sent.zone)
            }
            household.clock.set(local(scenario.today.time, scenario.today.zone))
            let totals = try household.store.profile(member).totals
            #expect(totals.totalWorkouts == UInt32(scenario.workouts.count))
            #expect(totals.currentStreakDays == scenario.current)
            #expect(totals.longestStreakDays == scenario.longest)
        }
    }

    @Test("Moving today past a gap drops the current streak, and the next workout starts a new one")
    func gapWithTheClock() async throws {
        try await withHousehold(now: local("2026-05-11 20:00", "Europe/Berlin")) { household in
            let store = household.store
            let member = try await household.addMember("Cy")
            try await store.log(member, workout(at: local("2026-05-10 08:00", "Europe/Berlin")))
            try await store.log(member, workout(at: local("2026-05-11 08:00", "Europe/Berlin")))
            #expect(try store.profile(member).totals.currentStreakDays == 2)
            household.clock.advance(by: 24 * hour)                                    // 2026-05-12: yesterday counts
            #expect(try store.profile(member).totals.currentStreakDays == 2)
            household.clock.advance(by: 24 * hour)                                    // 2026-05-13: the run is over
            var totals = try store.profile(member).totals
            #expect(totals.currentStreakDays == 0)
            #expect(totals.longestStreakDays == 2)
            #expect(totals.lastWorkoutDay.localDay == LocalDay("2026-05-11"))
            totals = try await store.log(member, workout(at: household.clock.nowMilliseconds())).totals
            #expect(totals.currentStreakDays == 1)
            #expect(totals.longestStreakDays == 2)
        }
    }

    @Test("A profile zone change moves today, not the days already logged")
    func profileZoneChange() async throws {
        try await withHousehold(now: local("2026-03-11 18:30", "Europe/Berlin")) { household in
            let store = household.store
            let member = try await household.addMember("Di", timeZone: "America/New_York")
            let first = try await store.log(member, workout(at: local("2026-03-10 23:30", "America/New_York")))
            var update = Workout_V1_UpdateProfileRequest()
            update.timeZone = "Europe/Berlin"
            _ = try await store.updateProfile(member.caller, update)
            let second = try await store.log(member, workout(at: local("2026-03-11 18:00", "Europe/Berlin")))
            #expect(first.workout.timeZone == "America/New_York")
            #expect(first.workout.localDay.localDay == LocalDay("2026-03-10"))
            #expect(second.workout.timeZone == "Europe/Berlin")
            #expect(second.workout.localDay.localDay == LocalDay("2026-03-11"))
            #expect(second.totals.currentStreakDays == 2)
            let stored = try store.allWorkouts(member)
            #expect(stored.map(\.localDay.localDay) == [LocalDay("2026-03-11"), LocalDay("2026-03-10")])
        }
    }

    @Test("An edit that closes a gap unlocks the streak achievement, once; a stale expected revision is ABORTED")
    func editClosingAGap() async throws {
        try await withHousehold(now: local("2026-05-05 12:00", "Europe/Berlin")) { household in
            let store = household.store
            let member = try await household.addMember("Fin")
            try await store.log(member, workout(at: local("2026-05-01 18:00", "Europe/Berlin")))
            try await store.log(member, workout(at: local("2026-05-02 18:00", "Europe/Berlin")))
            var fourth = try await store.log(member, workout(at: local("2026-05-04 18:00", "Europe/Berlin"))).workout
            let revision = fourth.revision
            fourth.performedAtMs = local("2026-05-03 18:00", "Europe/Berlin")
            var request = Workout_V1_UpdateWorkoutRequest()
            request.workout = fourth
            request.expectedRevision = revision
            let closed = try await store.updateWorkout(member.caller, request)
            #expect(closed.unlocked.map(\.achievementID) == ["streak_3"])
            #expect(closed.totals.longestStreakDays == 3)
            #expect(closed.totals.points == 150 + 100 + 100)
            await expectDomainError(.aborted) { try await store.updateWorkout(member.caller, request) }
            request.expectedRevision = 0
            fourth.performedAtMs = local("2026-05-04 18:00", "Europe/Berlin")
            request.workout = fourth
            let reopened = try await store.updateWorkout(member.caller, request)
            fourth.performedAtMs = local("2026-05-03 18:00", "Europe/Berlin")
            request.workout = fourth
            let closedAgain = try await store.updateWorkout(member.caller, request)
            #expect(reopened.totals.longestStreakDays == 2)
            #expect(closedAgain.unlocked.isEmpty)
            #expect(closedAgain.totals.points == 350)
            #expect(closedAgain.totals.achievementsUnlocked == 2)
        }
    }

    @Test("Editing a workout onto another day and deleting workouts recompute totals and streaks; unlocked achievements stay")
    func editAndDeleteRecompute() async throws {
        try await withHousehold(now: local("2026-05-06 12:00", "Europe/Berlin")) { household in
            let store = household.store
            let member = try await household.addMember("Ed")
            var sent: [Workout_V1_Workout] = []
            for (day, calories, seconds) in [(1, 100.0, UInt32(600)), (2, 200, 1_200), (3, 300, 1_800)] {
                let one = workout(at: local("2026-05-0\(day) 18:00", "Europe/Berlin"), seconds: seconds, calories: calories)
                sent.append(one)
                try await store.log(member, one)
            }
            var totals = try store.profile(member).totals
            #expect(totals.points == 150 + 100 + 100)                                 // workout_1 and streak_3
            #expect(totals.longestStreakDays == 3)

            // Workout 2 moves to 2026-05-05 and burns 250: days 1, 3, 5.
            var moved = sent[1]
            moved.performedAtMs = local("2026-05-05 07:00", "Europe/Berlin")
            moved.caloriesBurned = 250
            let update = try await store.update(member, moved)
            #expect(update.workout.localDay.localDay == LocalDay("2026-05-05"))
            #expect(update.unlocked.isEmpty)
            totals = update.totals
            #expect(totals.totalWorkouts == 3)
            #expect(totals.totalCaloriesBurned == 650)
            #expect(totals.totalActiveSeconds == 3_600)
            #expect(totals.currentStreakDays == 1)
            #expect(totals.longestStreakDays == 1)
            #expect(totals.lastWorkoutDay.localDay == LocalDay("2026-05-05"))
            #expect(totals.points == 350)
            #expect(totals.achievementsUnlocked == 2)
            var summaries = Workout_V1_SummariesRequest()
            summaries.fromDay = LocalDay("2026-05-01").wire
            summaries.toDay = LocalDay("2026-05-05").wire
            let days = try store.summaries(member.caller, summaries).periods
            #expect(days.map(\.workouts) == [1, 0, 1, 0, 1])
            #expect(days.map(\.caloriesBurned) == [100, 0, 300, 0, 250])

            // Only the zone changes: Kiritimati (UTC+14) puts 18:00 Berlin on the next day.
            var rezoned = sent[2]
            rezoned.timeZone = "Pacific/Kiritimati"
            let rezone = try await store.update(member, rezoned)
            #expect(rezone.workout.localDay.localDay == LocalDay("2026-05-04"))
            #expect(rezone.totals.currentStreakDays == 2)
            #expect(rezone.totals.longestStreakDays == 2)

            // Back to 2026-05-02 and Berlin: three days in a row again, streak_3 not unlocked twice.
            moved.performedAtMs = sent[1].performedAtMs
            try await store.update(member, moved)
            let back = try await store.update(member, sent[2])
            #expect(back.unlocked.isEmpty)
            #expect(back.totals.longestStreakDays == 3)
            #expect(back.totals.points == 350)

            // Deleting the third day's workout.
            let deleted = try await store.deleteWorkout(member, id: sent[2].id)
            #expect(deleted.deleted)
            #expect(deleted.totals.totalWorkouts == 2)
            #expect(deleted.totals.totalCaloriesBurned == 350)
            #expect(deleted.totals.longestStreakDays == 2)
            #expect(deleted.totals.lastWorkoutDay.localDay == LocalDay("2026-05-02"))

            // Deleting everything: only the achievements' points remain.
            try await store.deleteWorkout(member, id: sent[0].id)
            let empty = try await store.deleteWorkout(member, id: sent[1].id).totals
            #expect(empty.totalWorkouts == 0)
            #expect(empty.totalCaloriesBurned == 0)
            #expect(empty.totalActiveSeconds == 0)
            #expect(empty.currentStreakDays == 0)
            #expect(empty.longestStreakDays == 0)
            #expect(!empty.hasLastWorkoutDay)
            #expect(empty.points == 200)
            #expect(empty.level == 1)
            #expect(empty.achievementsUnlocked == 2)
            #expect(try store.achievements(member.caller).filter(\.unlocked).map(\.achievementID).sorted() == ["streak_3", "workout_1"])
        }
    }
}
