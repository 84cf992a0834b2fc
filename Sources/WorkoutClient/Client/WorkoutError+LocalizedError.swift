public import Foundation

extension WorkoutError: LocalizedError {
    /// The message as a sentence for people: ``message`` with a full stop, its first letter
    /// capitalized when it starts with a plain word (a field path such as
    /// `workout.durationSeconds` is left as it is), or the code's name when the server gave no
    /// message.
    public var errorDescription: String? {
        guard !message.isEmpty else { return code.description }
        let firstWord = message.prefix { !$0.isWhitespace }
        let plainWord = firstWord.allSatisfy { $0.isLetter && $0.isLowercase }
        let sentence = plainWord ? firstWord.prefix(1).uppercased() + message.dropFirst() : message
        return sentence.hasSuffix(".") || sentence.hasSuffix("…") ? sentence : sentence + "."
    }

    /// What the member or the app can do about the error, in the member's words: for a trust
    /// failure, what that failure calls for (``TrustFailure``); otherwise what the ``code`` calls
    /// for, as the table in <doc:HandlingErrors> says. `nil` for `CANCELLED` (the app itself
    /// stopped the call: nothing to do) and for codes that call for nothing a member can do.
    public var recoverySuggestion: String? {
        if let trust { return trust.recoverySuggestion }
        switch code {
        case .unavailable:
            if let retryAfter { return "The server asks to try again in \(Self.seconds(retryAfter))." }
            return "Check the network and that the server is running; writes can wait in an outbox meanwhile."
        case .deadlineExceeded: return "Try again."
        case .cancelled: return nil
        case .unauthenticated: return "Sign in again."
        case .permissionDenied: return "Ask the household's admin, or check the current password."
        case .invalidArgument: return "Correct the value and try again."
        case .notFound: return "Refresh: it may have been deleted on another device."
        case .alreadyExists: return "Use a new id for new content, or sign in to the existing account."
        case .aborted: return "Reload the record, then apply the change again."
        case .resourceExhausted:
            if let retryAfter { return "Try again in \(Self.seconds(retryAfter))." }
            return "Wait a moment, then try again."
        case .outOfRange: return "Sync again from the beginning (revision 0)."
        case .failedPrecondition: return "Check the server's address, its fingerprint and how the client connects (TLS or plain TCP)."
        default: return nil
        }
    }

    /// `2 seconds`, `1 second`, `0.5 seconds`.
    private static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let rounded = (value * 10).rounded(.up) / 10
        let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        return text + (rounded == 1 ? " second" : " seconds")
    }
}
