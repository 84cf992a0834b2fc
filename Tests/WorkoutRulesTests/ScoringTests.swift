import Testing
import TestSupport
import WorkoutRules

@Suite("Scoring")
struct ScoringTests {
    @Test("Each workout is worth 50 points")
    func fiftyPerWorkout() {
        #expect(Scoring.pointsPerWorkout == 50)
        #expect(Scoring.points(workouts: 0, achievementPoints: 0) == 0)
        #expect(Scoring.points(workouts: 1, achievementPoints: 0) == 50)
        for workouts in UInt32(0)..<200 {
            #expect(Scoring.points(workouts: workouts + 1, achievementPoints: 350) - Scoring.points(workouts: workouts, achievementPoints: 350) == 50)
        }
    }

    @Test("Points are 50 per workout plus the unlocked achievements' points", arguments: [
        (UInt32(1), UInt64(100), UInt64(150)), (10, 350, 850), (3, 0, 150), (UInt32.max, UInt64.max, UInt64.max),
    ])
    func points(workouts: UInt32, achievementPoints: UInt64, expected: UInt64) {
        #expect(Scoring.points(workouts: workouts, achievementPoints: achievementPoints) == expected)
    }

    @Test("The level is points / 1000 + 1", arguments: [
        (UInt64(0), UInt32(1)), (50, 1), (999, 1), (1000, 2), (1999, 2), (2000, 3), (2500, 3), (9999, 10),
        (UInt64.max, UInt32.max),
    ])
    func level(points: UInt64, level: UInt32) {
        #expect(Scoring.level(points: points) == level)
    }
}
