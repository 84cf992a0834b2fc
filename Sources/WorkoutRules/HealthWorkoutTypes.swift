/// Apple Health's workout activity types and the workout type each is imported as: the one
/// table of the mapping, for the client's Apple Health import and the server's Health Auto
/// Export ingest alike.
///
/// A type the table does not list is imported under its own name in snake case
/// (`HKWorkoutActivityTypeWheelchairRunPace` → `wheelchair_run_pace`), so nothing is lost and
/// an app shows it as it shows any type it does not know.
package enum HealthWorkoutTypes {
    /// `HKWorkoutActivityType…` suffix → our workout type.
    package static let table: [String: String] = [
        "AmericanFootball": "american_football",
        "Archery": "archery",
        "AustralianFootball": "australian_football",
        "Badminton": "badminton",
        "Barre": "barre",
        "Baseball": "baseball",
        "Basketball": "basketball",
        "Bowling": "bowling",
        "Boxing": "boxing",
        "CardioDance": "dance",
        "Climbing": "climbing",
        "Cooldown": "cooldown",
        "CoreTraining": "core",
        "Cricket": "cricket",
        "CrossCountrySkiing": "cross_country_skiing",
        "CrossTraining": "cross_training",
        "Curling": "curling",
        "Cycling": "cycling",
        "Dance": "dance",
        "DanceInspiredTraining": "dance",
        "DownhillSkiing": "skiing",
        "Elliptical": "elliptical",
        "EquestrianSports": "riding",
        "Fencing": "fencing",
        "Fishing": "fishing",
        "Flexibility": "stretching",
        "FunctionalStrengthTraining": "strength",
        "Golf": "golf",
        "Gymnastics": "gymnastics",
        "Handball": "handball",
        "HighIntensityIntervalTraining": "hiit",
        "Hiking": "hiking",
        "Hockey": "hockey",
        "Hunting": "hunting",
        "JumpRope": "jump_rope",
        "Kickboxing": "kickboxing",
        "Lacrosse": "lacrosse",
        "MartialArts": "martial_arts",
        "MindAndBody": "mind_and_body",
        "MixedCardio": "cardio",
        "MixedMetabolicCardioTraining": "cardio",
        "Other": "other",
        "PaddleSports": "paddling",
        "Pickleball": "pickleball",
        "Pilates": "pilates",
        "Play": "play",
        "PreparationAndRecovery": "recovery",
        "Racquetball": "racquetball",
        "Rowing": "rowing",
        "Rugby": "rugby",
        "Running": "running",
        "Sailing": "sailing",
        "SkatingSports": "skating",
        "SnowSports": "snow_sports",
        "Snowboarding": "snowboarding",
        "Soccer": "soccer",
        "SocialDance": "dance",
        "Softball": "softball",
        "Squash": "squash",
        "StairClimbing": "stairs",
        "Stairs": "stairs",
        "StepTraining": "step_training",
        "SurfingSports": "surfing",
        "Swimming": "swimming",
        "SwimBikeRun": "triathlon",
        "TableTennis": "table_tennis",
        "TaiChi": "tai_chi",
        "Tennis": "tennis",
        "TrackAndField": "track_and_field",
        "TraditionalStrengthTraining": "strength",
        "Transition": "transition",
        "Volleyball": "volleyball",
        "Walking": "walking",
        "WaterFitness": "water_fitness",
        "WaterPolo": "water_polo",
        "WaterSports": "water_sports",
        "Wrestling": "wrestling",
        "Yoga": "yoga",
    ]

    private static let prefix = "HKWorkoutActivityType"

    /// The workout type for Apple Health's `workoutActivityType`.
    ///
    /// - Parameter activityType: E.g. `HKWorkoutActivityTypeRunning`.
    /// - Returns: E.g. `running`; `nil` for an empty name.
    package static func workoutType(for activityType: String) -> String? {
        let suffix = activityType.hasPrefix(prefix) ? String(activityType.dropFirst(prefix.count)) : activityType
        guard !suffix.isEmpty else { return nil }
        if let mapped = table[suffix] { return mapped }
        var name = ""
        for character in suffix {
            if character.isUppercase, !name.isEmpty { name.append("_") }
            name.append(contentsOf: character.lowercased())
        }
        return String(decoding: Array(name.utf8.prefix(64)), as: UTF8.self)
    }

    /// The Apple Watch's spoken names for activities (what Health Auto Export writes for the
    /// Workout app's workouts) → the activity type's name.
    static let spokenNames: [String: String] = [
        "Run": "Running", "Walk": "Walking", "Cycle": "Cycling", "Swim": "Swimming", "Hike": "Hiking",
        "Rower": "Rowing", "Stair Stepper": "StairClimbing", "HIIT": "HighIntensityIntervalTraining",
    ]

    /// Where a workout was done, when its name as Health Auto Export writes it says it: the
    /// Workout app's `Indoor Run`, `Outdoor Cycle`, `Open Water Swim` (a `Pool Swim` may be
    /// either, so it says nothing).
    package static func place(forName name: String) -> WorkoutPlace? {
        let words = name.split(whereSeparator: { $0 == " " || $0 == "-" }).map { $0.lowercased() }
        guard words.count > 1 else { return nil }
        if words[0] == "indoor" { return .indoor }
        if words[0] == "outdoor" || (words.count > 2 && words[0] == "open" && words[1] == "water") { return .outdoor }
        return nil
    }

    /// The workout type for a workout's name as Health Auto Export writes it: the activity
    /// type in words (`Traditional Strength Training`, `Running`), or the Workout app's name,
    /// where a leading place (`Outdoor Run`, `Indoor Walk`, `Pool Swim`, `Open Water Swim`)
    /// says where it was, not another kind: `running`, `walking`, `swimming`.
    ///
    /// - Returns: E.g. `strength`; `nil` for an empty name.
    package static func workoutType(forName name: String) -> String? {
        var words = name.split(whereSeparator: { $0 == " " || $0 == "-" }).map(String.init)
        if words.count > 2, words[0].lowercased() == "open", words[1].lowercased() == "water" {
            words.removeFirst(2)
        } else if words.count > 1, ["indoor", "outdoor", "pool"].contains(words[0].lowercased()) {
            words.removeFirst()
        }
        if let spoken = spokenNames[words.joined(separator: " ")] { return workoutType(for: spoken) }
        return workoutType(for: words.map { word in word.prefix(1).uppercased() + word.dropFirst() }.joined())
    }
}
