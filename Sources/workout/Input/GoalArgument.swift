import ArgumentParser
import WorkoutClient

/// A fitness goal given on the command line (`--goal`): `lose-weight`, `maintain-weight`,
/// `gain-muscle`, `improve-endurance`, `general-fitness` (or the library's camel-case names),
/// or `none`.
enum GoalArgument {
    /// The accepted names, for help.
    static let names = FitnessGoal.allCases.map(name).joined(separator: ", ")

    /// A goal's command-line name: `lose-weight`.
    static func name(_ goal: FitnessGoal) -> String {
        var text = ""
        for character in goal.rawValue {
            if character.isUppercase { text += "-" + character.lowercased() } else { text.append(character) }
        }
        return text
    }

    /// Parses a `--goal` value.
    ///
    /// - Throws: `ValidationError` listing the goals.
    static func parse(_ text: String) throws -> Setting<FitnessGoal> {
        let wanted = text.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: "_", with: "-")
        if wanted == "none" { return .clear }
        guard let goal = FitnessGoal.allCases.first(where: { name($0) == wanted || $0.rawValue.lowercased() == wanted }) else {
            throw ValidationError("expected one of \(names), or none")
        }
        return .set(goal)
    }
}
