import ArgumentParser
import WorkoutClient

/// A calendar day given on the command line (`--day`): `YYYY-MM-DD`, or `today` or
/// `yesterday` (in the member's profile zone, when the command runs).
enum DayArgument: Equatable, Sendable {
    /// A date.
    case date(LocalDate)
    /// The day `offset` days from today (0 today, -1 yesterday).
    case relative(Int)

    /// Parses a `--day` value.
    ///
    /// - Parameter text: What the user typed.
    /// - Throws: `ValidationError` naming the accepted forms.
    init(parsing text: String) throws(ValidationError) {
        switch text.lowercased() {
        case "today": self = .relative(0)
        case "yesterday": self = .relative(-1)
        default:
            guard let day = LocalDate(text), (1900...9999).contains(day.year) else {
                throw ValidationError("expected a day as YYYY-MM-DD, today or yesterday")
            }
            self = .date(day)
        }
    }

    /// The day meant, given today.
    func resolve(today: LocalDate) -> LocalDate {
        switch self {
        case .date(let day): day
        case .relative(let offset): today.adding(days: offset)
        }
    }
}
