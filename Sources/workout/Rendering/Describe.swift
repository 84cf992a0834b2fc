import WorkoutClient

/// Short descriptions of records shared by several commands.
enum Describe {
    /// A workout's detail, as parts of a line: "indoors", "5.2 km", "climbed 42 m", "avg 151 bpm", "max 178 bpm", "4,870 steps".
    static func workoutDetail(_ workout: Workout) -> [String] {
        var parts: [String] = []
        switch workout.location {
        case .indoor?: parts.append("indoors")
        case .outdoor?: parts.append("outdoors")
        case nil: break
        }
        if let metres = workout.distanceM { parts.append("\(Format.number(metres / 1_000, decimals: 2)) km") }
        if let climb = workout.elevationGainM, climb > 0 { parts.append("climbed \(Format.number(climb, decimals: 0)) m") }
        if let average = workout.averageHeartRate { parts.append("avg \(average) bpm") }
        if let maximum = workout.maxHeartRate { parts.append("max \(maximum) bpm") }
        if let steps = workout.steps { parts.append(Format.count(steps, "step")) }
        return parts
    }

    /// A member's name: the display name, else first and last name.
    static func name(_ profile: Profile) -> String {
        if !profile.displayName.isEmpty { return profile.displayName }
        return [profile.firstName, profile.lastName].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// A member's name from the admin list: first and last name.
    static func name(_ member: MemberInfo) -> String {
        [member.firstName, member.lastName].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// "Level 2, 1,150 points, streak 3 days (longest 5), 23 workouts".
    static func totals(_ totals: Totals) -> String {
        "level \(totals.level), \(Format.count(totals.points, "point")), streak \(Format.count(totals.currentStreakDays, "day")) (longest \(totals.longestStreakDays)), \(Format.count(totals.totalWorkouts, "workout")) in all"
    }

    /// "First workout (+100 points): Log your first workout".
    static func achievement(_ achievement: Achievement) -> String {
        var text = "\(achievement.title) (+\(Format.count(achievement.points, "point")))"
        if !achievement.details.isEmpty { text += ": \(achievement.details)" }
        return text
    }
}
