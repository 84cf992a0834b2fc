import Testing
import WorkoutRules

@Suite("Health workout types")
struct HealthWorkoutTypesTests {
    @Test("Health Auto Export's names map to the one table's kinds; a leading place is where, not another kind", arguments: [
        ("Running", "running"), ("Outdoor Run", "running"), ("Indoor Run", "running"), ("Indoor Walk", "walking"),
        ("Outdoor Walk", "walking"), ("Outdoor Cycle", "cycling"), ("Indoor Cycle", "cycling"), ("Pool Swim", "swimming"),
        ("Open Water Swim", "swimming"), ("Hike", "hiking"), ("Traditional Strength Training", "strength"),
        ("High Intensity Interval Training", "hiit"), ("HIIT", "hiit"), ("Indoor Rower", "rowing"),
        ("Wheelchair Run Pace", "wheelchair_run_pace"), ("Indoor", "indoor"),
    ])
    func names(name: String, type: String) {
        #expect(HealthWorkoutTypes.workoutType(forName: name) == type)
    }

    @Test("An empty name has no type")
    func empty() {
        #expect(HealthWorkoutTypes.workoutType(forName: "") == nil)
        #expect(HealthWorkoutTypes.workoutType(forName: "Outdoor ") == "outdoor")
    }
}

@Suite("Health Connect exercise types")
struct HealthConnectExerciseTypesTests {
    @Test("Health Connect's numbers and names map to the kinds the Apple Health table gives; place and machine are the same kind", arguments: [
        ("56", "running"), ("57", "running"), ("8", "cycling"), ("9", "cycling"), ("74", "swimming"), ("73", "swimming"),
        ("70", "strength"), ("81", "strength"), ("36", "hiit"), ("79", "walking"), ("0", "other"), ("83", "yoga"),
        ("running", "running"), ("RUNNING", "running"), ("EXERCISE_TYPE_BIKING_STATIONARY", "cycling"),
        ("strength_training", "strength"), ("high_intensity_interval_training", "hiit"), ("stair climbing", "stairs"),
        ("para_gliding", "paragliding"), ("nordic_walking", "nordic_walking"),
    ])
    func types(written: String, type: String) {
        #expect(HealthConnectExerciseTypes.workoutType(for: written) == type)
    }

    @Test("A number Health Connect does not define, an empty name or one with other characters has no type")
    func unknown() {
        for written in ["9999", "-1", "1", "", "  ", "run!", String(repeating: "a", count: 65)] {
            #expect(HealthConnectExerciseTypes.workoutType(for: written) == nil, "\(written)")
        }
    }

    @Test("Every number names a type the table maps, and every type is one the Apple Health table also gives or a kind of its own")
    func tableIsWhole() {
        for (number, name) in HealthConnectExerciseTypes.nameByNumber {
            #expect(HealthConnectExerciseTypes.byName[name] != nil, "\(number) \(name)")
        }
        let appleKinds = Set(HealthWorkoutTypes.table.values)
        let ownKinds: Set<String> = ["disc_sports", "paragliding", "wheelchair"]
        for (name, type) in HealthConnectExerciseTypes.byName {
            #expect(appleKinds.contains(type) || ownKinds.contains(type), "\(name) → \(type)")
        }
    }
}

@Suite("Where a workout was done")
struct WorkoutPlaceTests {
    @Test("Health Auto Export's names say indoors or outdoors by their first word; a pool says nothing")
    func names() {
        #expect(HealthWorkoutTypes.place(forName: "Indoor Run") == .indoor)
        #expect(HealthWorkoutTypes.place(forName: "Outdoor Cycle") == .outdoor)
        #expect(HealthWorkoutTypes.place(forName: "Open Water Swim") == .outdoor)
        #expect(HealthWorkoutTypes.place(forName: "Pool Swim") == nil)
        #expect(HealthWorkoutTypes.place(forName: "Running") == nil)
        #expect(HealthWorkoutTypes.place(forName: "Indoor") == nil)
    }

    @Test("Health Connect's machines are indoors, open water outdoors, by number or name")
    func healthConnect() {
        #expect(HealthConnectExerciseTypes.place(for: "57") == .indoor)
        #expect(HealthConnectExerciseTypes.place(for: "biking_stationary") == .indoor)
        #expect(HealthConnectExerciseTypes.place(for: "EXERCISE_TYPE_ROWING_MACHINE") == .indoor)
        #expect(HealthConnectExerciseTypes.place(for: "73") == .outdoor)
        #expect(HealthConnectExerciseTypes.place(for: "56") == nil)
        #expect(HealthConnectExerciseTypes.place(for: "swimming_pool") == nil)
    }

    @Test("FIT's fitness equipment and indoor sub-sports are indoors; road, trail and open water outdoors")
    func fit() {
        #expect(WorkoutFileSports.place(fitSport: 1, subSport: 1) == .indoor)      // treadmill
        #expect(WorkoutFileSports.place(fitSport: 2, subSport: 6) == .indoor)      // indoor cycling
        #expect(WorkoutFileSports.place(fitSport: 4, subSport: 15) == .indoor)     // elliptical
        #expect(WorkoutFileSports.place(fitSport: 1, subSport: 3) == .outdoor)     // trail
        #expect(WorkoutFileSports.place(fitSport: 5, subSport: 18) == .outdoor)    // open water
        #expect(WorkoutFileSports.place(fitSport: 1, subSport: 0) == nil)
        #expect(WorkoutFileSports.place(fitSport: 1, subSport: nil) == nil)
    }
}
