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
