import ArgumentParser
import WorkoutClient

/// A goal named on the command line (`workout goals clear steps weight`), by the words the
/// `goals set` options use; `all` names every goal.
enum GoalKindArgument {
    /// The names, by kind, in the order `goals show` lists them.
    static let names: [(String, GoalKind)] = [
        ("energy", .energy), ("protein", .protein), ("carbs", .carbs), ("fat", .fat), ("steps", .dailySteps),
        ("active-minutes", .weeklyActiveMinutes), ("workouts", .weeklyWorkouts), ("weight", .targetWeight),
    ]

    /// The names, comma-separated, for help and messages.
    static let all = names.map(\.0).joined(separator: ", ")

    /// The goals a word names: one kind, or every kind for `all`.
    ///
    /// - Throws: `ValidationError` naming the accepted words.
    static func parse(_ text: String) throws -> [GoalKind] {
        let word = text.lowercased()
        if word == "all" { return names.map(\.1) }
        guard let kind = names.first(where: { $0.0 == word })?.1 else {
            throw ValidationError("unknown goal '\(text)'; expected \(all), or all")
        }
        return [kind]
    }

    /// The word for a kind.
    static func name(of kind: GoalKind) -> String { names.first { $0.1 == kind }?.0 ?? kind.rawValue }
}
