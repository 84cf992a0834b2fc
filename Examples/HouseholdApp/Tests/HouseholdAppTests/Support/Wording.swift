import WorkoutClient

/// Words an app-facing message must not contain: the protocol's services, frames and units.
let protocolWords = ["Auth.", "Logging.", "Queries.", "Sync.", "Profile.", " ms", "millisecond", "HELLO", "GOAWAY", "frame"]

/// What is wrong with `error`'s texts for an app to show: a protocol word in its description
/// or recovery suggestion, or no recovery suggestion (which only `CANCELLED` may lack).
func wordingProblems(_ error: WorkoutError) -> [String] {
    var problems: [String] = []
    for text in [error.errorDescription ?? "", error.recoverySuggestion ?? ""] {
        for word in protocolWords where text.contains(word) {
            problems.append("'\(word)' in: \(text)")
        }
    }
    if error.recoverySuggestion == nil, error.code != .cancelled {
        problems.append("no recovery suggestion for \(error.code)")
    }
    return problems
}
