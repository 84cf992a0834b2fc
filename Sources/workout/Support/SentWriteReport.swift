import WorkoutClient
import WorkoutOffline

/// The server's answer to a write `workout sync` sent, as `--json` prints it: the answer's own
/// object (a logged workout's `{"workout": …, "totals": …, "replayed": …}`, an updated meal's
/// `{"meal": …}`, a delete's
/// `{"deleted": true}`).
struct SentWriteReport: Encodable {
    /// The answer.
    let answer: SentWrite

    func encode(to encoder: any Encoder) throws {
        switch answer {
        case .loggedWorkout(let logged): try logged.encode(to: encoder)
        case .updatedWorkout(let updated): try updated.encode(to: encoder)
        case .deletedWorkout(let deleted): try deleted.encode(to: encoder)
        case .loggedMeal(let logged): try logged.encode(to: encoder)
        case .updatedMeal(let updated): try updated.encode(to: encoder)
        case .deletedMeal(let deleted): try deleted.encode(to: encoder)
        case .deletedWeight(let deleted): try deleted.encode(to: encoder)
        case .loggedWeight(let logged): try logged.encode(to: encoder)
        case .updatedWeight(let updated): try updated.encode(to: encoder)
        case .reportedSteps(let update): try update.encode(to: encoder)
        }
    }
}
