import WorkoutClient

/// How a `workout` command failed: one message for standard error, and the exit status
/// that says what kind of failure it was.
struct CLIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The exit status.
    var status: ExitStatus
    /// What went wrong, for the person at the terminal (without the `workout: ` prefix).
    var message: String

    /// Makes an error.
    ///
    /// - Parameters:
    ///   - status: The exit status.
    ///   - message: What went wrong.
    init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    var description: String { message }

    /// Not signed in on this machine (no stored credentials).
    static let notSignedIn = CLIError(.notPermitted, "not signed in; run `workout login` first")
}
