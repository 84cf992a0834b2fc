// A workout's detail (distance, elevation, heart rates, steps) through the real store: stored
// and answered, part of what makes a retry a replay, each bound refused naming its field.

import Foundation
import Testing
import TestSupport
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

@Suite("Workout detail")
struct WorkoutDetailTests {
    static func detailed(_ workout: Workout_V1_Workout) -> Workout_V1_Workout {
        var detailed = workout
        detailed.distanceM = 5_200
        detailed.elevationGainM = 42.5
        detailed.averageHeartRate = 151
        detailed.maxHeartRate = 178
        detailed.steps = 4_870
        return detailed
    }

    @Test("The detail is stored, answered, exported and part of a replay's content; workouts without it are as before")
    func storedAndReplayed() async throws {
        try await withHousehold { household in
            let store = household.store
            let owner = household.owner
            let run = Self.detailed(workout(at: household.clock.nowMilliseconds() - 3_600_000))
            let logged = try await store.log(owner, run).workout
            #expect(logged.distanceM == 5_200 && logged.elevationGainM == 42.5 && logged.averageHeartRate == 151)
            #expect(logged.maxHeartRate == 178 && logged.steps == 4_870)
            #expect(try await store.log(owner, run).replayed)
            var longer = run
            longer.distanceM = 5_300
            await expectDomainError(.alreadyExists, field: "workout.id") { try await store.log(owner, longer) }
            #expect(try store.export(owner.caller).flatMap(\.workouts).first?.steps == 4_870)
            let plain = try await store.log(owner, workout(at: household.clock.nowMilliseconds() - 7_200_000)).workout
            #expect(plain.distanceM == 0 && plain.averageHeartRate == 0 && plain.steps == 0)
        }
    }

    /// One bound broken: which field, and how.
    enum Breach: String, CaseIterable, CustomTestStringConvertible {
        case distanceTooFar, distanceNegative, elevationNotANumber, heartRateTooLow, maxBelowAverage, tooManySteps
        var testDescription: String { rawValue }
        var field: String {
            switch self {
            case .distanceTooFar, .distanceNegative: "workout.distance_m"
            case .elevationNotANumber: "workout.elevation_gain_m"
            case .heartRateTooLow: "workout.average_heart_rate"
            case .maxBelowAverage: "workout.max_heart_rate"
            case .tooManySteps: "workout.steps"
            }
        }
        func apply(to workout: inout Workout_V1_Workout) {
            switch self {
            case .distanceTooFar: workout.distanceM = 2_000_000
            case .distanceNegative: workout.distanceM = -1
            case .elevationNotANumber: workout.elevationGainM = .nan
            case .heartRateTooLow: workout.averageHeartRate = 12
            case .maxBelowAverage: workout.maxHeartRate = 140
            case .tooManySteps: workout.steps = 300_000
            }
        }
    }

    @Test("Each bound of the detail is refused naming its field", arguments: Breach.allCases)
    func bounds(_ breach: Breach) async throws {
        try await withHousehold { household in
            var bad = Self.detailed(workout(at: household.clock.nowMilliseconds() - 3_600_000))
            breach.apply(to: &bad)
            await expectDomainError(.invalidArgument, field: breach.field) { try await household.store.log(household.owner, bad) }
        }
    }
}
