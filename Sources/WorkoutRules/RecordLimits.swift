// RecordLimits: the bounds of a record's fields (PROTOCOL.md section 20), in one place:
// `RecordValidation` checks a record against them, for the server's domain and the client
// alike, so the two cannot drift apart. Lengths are UTF-8 bytes, as on the wire.

/// The bounds of the fields of workouts, meals, weigh-ins and steps reports.
package enum RecordLimits {
    /// A workout's type (`running`, `yoga`, …), in bytes.
    package static let workoutTypeBytes = 1...64
    /// A workout's duration, in seconds: up to a day.
    package static let workoutDurationSeconds = 1...86_400
    /// The energy a workout burned, in kcal.
    package static let workoutCalories: ClosedRange<Double> = 0...20_000
    /// Exercises completed in a workout.
    package static let workoutExercises = 0...1_000
    /// A workout's notes, in bytes.
    package static let workoutNotesBytes = 0...1_000
    /// A workout's distance, metres (0 is not stated).
    package static let workoutDistanceMetres: ClosedRange<Double> = 1...1_000_000
    /// A workout's elevation gain, metres.
    package static let workoutElevationMetres: ClosedRange<Double> = 0...20_000
    /// A heart rate during a workout, beats a minute (0 is not stated).
    package static let workoutHeartRate = 25...250
    /// Steps during a workout.
    package static let workoutSteps = 0...200_000

    /// A meal's name, in bytes (empty: unnamed).
    package static let mealNameBytes = 0...128
    /// The most food items a meal holds.
    package static let mealItemsMax = 100
    /// A food item's name, in bytes.
    package static let foodNameBytes = 1...128
    /// A food item's energy, in kcal.
    package static let foodCalories: ClosedRange<Double> = 0...10_000
    /// A food item's protein, carbohydrates or fat, in grams.
    package static let foodGrams: ClosedRange<Double> = 0...1_000
    /// A food item's servings (0: not stated).
    package static let foodServings: ClosedRange<Double> = 0.01...100

    /// A weigh-in, in kg.
    package static let weightKg: ClosedRange<Double> = 10...500
    /// A weigh-in's note, in bytes.
    package static let weightNoteBytes = 0...256

    /// A steps report's source (`phone`, `watch`, …), in bytes.
    package static let stepsSourceBytes = 1...64
    /// Steps in a day, from one source.
    package static let stepsPerDay = 0...200_000
    /// Steps in one sample (an interval of a phone's health store).
    package static let stepsPerSample = 0...200_000
    /// The longest interval a steps sample may cover: a day.
    package static let longestStepsSampleMilliseconds: Int64 = 86_400_000

    /// A member's age in years, when stated (0 on the wire means not stated).
    package static let profileAge = 5...120
    /// How long an invite code stays valid, in seconds, when the admin says (0 on the wire
    /// means the server's default).
    package static let inviteLifetimeSeconds = 60...2_592_000
}

extension ClosedRange where Bound == Int {
    /// These bounds for a `uint32` wire field: the limits are stated in `Int`, as the client's
    /// values are, and the server checks the unsigned field against them. The bounds are never
    /// negative nor past `UInt32.max`.
    package var asUInt32: ClosedRange<UInt32> { UInt32(lowerBound)...UInt32(upperBound) }
}
