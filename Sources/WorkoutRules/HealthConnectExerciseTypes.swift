import Foundation

/// Health Connect's exercise types (Android's `ExerciseSessionRecord.EXERCISE_TYPE_…`) as our
/// workout types: the same kinds the Apple Health table (``HealthWorkoutTypes``) gives, so a
/// run is `running` whichever phone logged it. Where Health Connect splits a kind by place or
/// machine (`running_treadmill`, `biking_stationary`, `swimming_pool`), the kind is the same.
package enum HealthConnectExerciseTypes {
    /// Health Connect's name of each exercise type (its `EXERCISE_TYPE_INT_TO_STRING_MAP`) →
    /// our workout type.
    package static let byName: [String: String] = [
        "badminton": "badminton", "baseball": "baseball", "basketball": "basketball",
        "biking": "cycling", "biking_stationary": "cycling", "boot_camp": "cross_training", "boxing": "boxing",
        "calisthenics": "strength", "cricket": "cricket", "dancing": "dance", "elliptical": "elliptical",
        "exercise_class": "cardio", "fencing": "fencing", "football_american": "american_football",
        "football_australian": "australian_football", "frisbee_disc": "disc_sports", "golf": "golf",
        "guided_breathing": "mind_and_body", "gymnastics": "gymnastics", "handball": "handball",
        "high_intensity_interval_training": "hiit", "hiking": "hiking", "ice_hockey": "hockey",
        "ice_skating": "skating", "martial_arts": "martial_arts", "paddling": "paddling",
        "paragliding": "paragliding", "para_gliding": "paragliding", "pilates": "pilates",
        "racquetball": "racquetball", "rock_climbing": "climbing", "roller_hockey": "hockey",
        "rowing": "rowing", "rowing_machine": "rowing", "rugby": "rugby", "running": "running",
        "running_treadmill": "running", "sailing": "sailing", "scuba_diving": "water_sports",
        "skating": "skating", "skiing": "skiing", "snowboarding": "snowboarding", "snowshoeing": "snow_sports",
        "soccer": "soccer", "softball": "softball", "squash": "squash", "stair_climbing": "stairs",
        "stair_climbing_machine": "stairs", "strength_training": "strength", "stretching": "stretching",
        "surfing": "surfing", "swimming_open_water": "swimming", "swimming_pool": "swimming",
        "table_tennis": "table_tennis", "tennis": "tennis", "volleyball": "volleyball", "walking": "walking",
        "water_polo": "water_polo", "weightlifting": "strength", "wheelchair": "wheelchair",
        "workout": "other", "other_workout": "other", "yoga": "yoga",
    ]

    /// Health Connect's number of each exercise type → its name (the constants of
    /// `androidx.health.connect.client.records.ExerciseSessionRecord`).
    package static let nameByNumber: [Int: String] = [
        0: "other_workout", 2: "badminton", 4: "baseball", 5: "basketball", 8: "biking", 9: "biking_stationary",
        10: "boot_camp", 11: "boxing", 13: "calisthenics", 14: "cricket", 16: "dancing", 25: "elliptical",
        26: "exercise_class", 27: "fencing", 28: "football_american", 29: "football_australian",
        31: "frisbee_disc", 32: "golf", 33: "guided_breathing", 34: "gymnastics", 35: "handball",
        36: "high_intensity_interval_training", 37: "hiking", 38: "ice_hockey", 39: "ice_skating",
        44: "martial_arts", 46: "paddling", 47: "paragliding", 48: "pilates", 50: "racquetball",
        51: "rock_climbing", 52: "roller_hockey", 53: "rowing", 54: "rowing_machine", 55: "rugby",
        56: "running", 57: "running_treadmill", 58: "sailing", 59: "scuba_diving", 60: "skating",
        61: "skiing", 62: "snowboarding", 63: "snowshoeing", 64: "soccer", 65: "softball", 66: "squash",
        68: "stair_climbing", 69: "stair_climbing_machine", 70: "strength_training", 71: "stretching",
        72: "surfing", 73: "swimming_open_water", 74: "swimming_pool", 75: "table_tennis", 76: "tennis",
        78: "volleyball", 79: "walking", 80: "water_polo", 81: "weightlifting", 82: "wheelchair", 83: "yoga",
    ]

    /// Health Connect's types that say where: machines indoors, open water outdoors (a pool
    /// may be either, so it says nothing).
    static let indoorNames: Set<String> = ["running_treadmill", "biking_stationary", "rowing_machine", "stair_climbing_machine"]
    static let outdoorNames: Set<String> = ["swimming_open_water"]

    /// Where an exercise session was done, when its type says it (`"57"`, `running_treadmill`:
    /// indoors).
    package static func place(for written: String) -> WorkoutPlace? {
        let trimmed = written.trimmingCharacters(in: .whitespaces)
        var name = Int(trimmed).flatMap { nameByNumber[$0] } ?? trimmed.lowercased().replacingOccurrences(of: " ", with: "_")
        if name.hasPrefix("exercise_type_") { name.removeFirst("exercise_type_".count) }
        if indoorNames.contains(name) { return .indoor }
        if outdoorNames.contains(name) { return .outdoor }
        return nil
    }

    /// The workout type of an exercise session's `type` as the phone bridges write it: Health
    /// Connect's number (`"56"`, what `exerciseType.toString()` gives) or its name (`running`,
    /// `RUNNING`, `EXERCISE_TYPE_RUNNING`).
    ///
    /// - Returns: E.g. `running`; `nil` for a number Health Connect does not define or an empty
    ///   name. A name the table does not hold is kept in our form (lower case, `_` between
    ///   words), as the Apple Health import keeps an activity it does not know.
    package static func workoutType(for written: String) -> String? {
        let trimmed = written.trimmingCharacters(in: .whitespaces)
        if let number = Int(trimmed) {
            return nameByNumber[number].flatMap { byName[$0] }
        }
        var name = trimmed.lowercased().replacingOccurrences(of: " ", with: "_").replacingOccurrences(of: "-", with: "_")
        if name.hasPrefix("exercise_type_") { name.removeFirst("exercise_type_".count) }
        guard !name.isEmpty, name.utf8.count <= 64, name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" })
        else { return nil }
        return byName[name] ?? name
    }
}
