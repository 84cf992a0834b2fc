import Foundation

/// The sports workout files name (a FIT file's `sport` and `sub_sport`, a TCX activity's
/// `Sport`, a GPX track's `type`) as our workout types: the kinds the Apple Health table
/// (``HealthWorkoutTypes``) gives, so a Garmin run is `running` as an Apple Watch run is. Where a
/// file splits a kind by place or machine (a treadmill, a pool, an indoor trainer), the kind is
/// the same.
package enum WorkoutFileSports {
    /// FIT's `sport` values (the FIT profile's `Sport` type) → our workout type.
    package static let fitSports: [Int: String] = [
        0: "other", 1: "running", 2: "cycling", 3: "transition", 4: "cardio", 5: "swimming", 6: "basketball",
        7: "soccer", 8: "tennis", 9: "american_football", 10: "cross_training", 11: "walking", 12: "cross_country_skiing",
        13: "skiing", 14: "snowboarding", 15: "rowing", 16: "hiking", 17: "hiking", 19: "paddling",
        21: "cycling", 25: "golf", 27: "riding", 28: "hunting", 29: "fishing", 30: "skating", 31: "climbing",
        32: "sailing", 33: "skating", 35: "snow_sports", 37: "paddling", 38: "surfing", 39: "water_sports",
        40: "water_sports", 41: "paddling", 42: "paddling", 43: "water_sports", 44: "water_sports", 47: "boxing",
        48: "stairs", 49: "baseball", 53: "water_sports", 62: "hiit", 64: "racquetball", 65: "wheelchair",
        66: "wheelchair", 67: "mind_and_body", 69: "disc_sports", 71: "cricket", 72: "rugby", 73: "hockey",
        74: "lacrosse", 75: "volleyball", 80: "martial_arts", 83: "dance", 84: "jump_rope",
    ]

    /// FIT's `sub_sport` values that name another kind than their sport does: a fitness
    /// machine's or a training session's kind (the FIT profile's `SubSport` type).
    package static let fitSubSports: [Int: String] = [
        1: "running", 6: "cycling", 14: "rowing", 15: "elliptical", 16: "stairs", 17: "swimming", 18: "swimming",
        19: "stretching", 20: "strength", 26: "cardio", 27: "walking", 43: "yoga", 44: "pilates", 45: "running",
    ]

    /// The sports FIT calls `training` and `fitness_equipment`, whose sub-sport says the kind.
    private static let fitSportsNamedBySubSport: Set<Int> = [4, 10]

    /// The workout type of a FIT session's `sport` and `sub_sport`.
    ///
    /// - Returns: E.g. `running`; `other` for a sport the profile does not name (a newer one).
    package static func workoutType(fitSport sport: Int, subSport: Int?) -> String {
        if fitSportsNamedBySubSport.contains(sport), let subSport, let kind = fitSubSports[subSport] { return kind }
        return fitSports[sport] ?? "other"
    }

    /// The names TCX (`Running`, `Biking`, `Other`) and GPX tracks (Strava's `running`,
    /// `cycling`, Garmin's `running`, `walking`) write → our workout type.
    package static let names: [String: String] = [
        "run": "running", "running": "running", "trail_running": "running", "treadmill_running": "running",
        "ride": "cycling", "biking": "cycling", "cycling": "cycling", "road_biking": "cycling", "mountain_biking": "cycling",
        "e_bike_ride": "cycling", "virtual_ride": "cycling", "walk": "walking", "walking": "walking",
        "hike": "hiking", "hiking": "hiking", "swim": "swimming", "swimming": "swimming",
        "rowing": "rowing", "row": "rowing", "other": "other",
    ]

    /// The workout type of a sport's name in a TCX or GPX file.
    ///
    /// - Returns: E.g. `cycling` for `Biking`; a name the table does not hold in our form (lower
    ///   case, `_` between words, `nordic_walking`); `nil` for an empty name or one with other
    ///   characters.
    package static func workoutType(named written: String) -> String? {
        var name = ""
        var previousWasLower = false
        for character in written.trimmingCharacters(in: .whitespaces) {
            if character == " " || character == "-" || character == "_" {
                if !name.hasSuffix("_") { name.append("_") }
                previousWasLower = false
            } else if character.isUppercase {
                // CamelCase (`TrailRun`) becomes words; `RUNNING` one word.
                if previousWasLower { name.append("_") }
                name.append(contentsOf: character.lowercased())
                previousWasLower = false
            } else {
                name.append(character)
                previousWasLower = true
            }
        }
        guard !name.isEmpty, name.utf8.count <= 64,
              name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" })
        else { return nil }
        return names[name] ?? name
    }
}

/// Where a workout was done, as the importers read it from a file or a phone's push: the
/// wire's `WorkoutLocation` numbers (1 indoors, 2 outdoors).
package enum WorkoutPlace: Int, Sendable, Hashable {
    case indoor = 1
    case outdoor = 2
}

extension WorkoutFileSports {
    /// FIT's sub-sports that say indoors (treadmill, spin, indoor cycling, rowing, skiing,
    /// walking and running) and outdoors (street, trail, road, mountain, open water, gravel).
    static let fitIndoorSubSports: Set<Int> = [1, 5, 6, 14, 25, 27, 45]
    static let fitOutdoorSubSports: Set<Int> = [2, 3, 7, 8, 18, 46]

    /// Where a FIT session was done, when its sport and sub-sport say it: fitness equipment is
    /// indoors; a sub-sport above says either.
    package static func place(fitSport sport: Int, subSport: Int?) -> WorkoutPlace? {
        if sport == 4 { return .indoor }
        guard let subSport else { return nil }
        if fitIndoorSubSports.contains(subSport) { return .indoor }
        if fitOutdoorSubSports.contains(subSport) { return .outdoor }
        return nil
    }
}
