import WorkoutClient

/// The exit codes `workout` ends with, which scripts can rely on (the BSD `sysexits.h`
/// numbers where one fits).
///
/// Listed in `workout --help` and its manual (`Sources/workout/README.md`); ``documentation``
/// is that list.
enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Success.
    case success = 0
    /// Anything not listed below (an unexpected server error, a file that cannot be written).
    case failure = 1
    /// Usage: an unknown option, a malformed argument (ArgumentParser's validation), no
    /// terminal to ask for a password on (`EX_USAGE`).
    case usage = 64
    /// A value out of the server's bounds, found by `workout` before sending or by the server:
    /// `INVALID_ARGUMENT`, `OUT_OF_RANGE` (`EX_DATAERR`).
    case invalidInput = 65
    /// No such record, member, invite or session: `NOT_FOUND` (`EX_NOINPUT`).
    case notFound = 66
    /// The server cannot be reached or is shutting down: `UNAVAILABLE` (`EX_UNAVAILABLE`).
    case unavailable = 69
    /// Try again later: `RESOURCE_EXHAUSTED`, `DEADLINE_EXCEEDED`, `ABORTED` (`EX_TEMPFAIL`).
    case temporary = 75
    /// Not signed in, a session that has ended, a wrong password, or an admin-only command:
    /// `UNAUTHENTICATED`, `PERMISSION_DENIED` (`EX_NOPERM`).
    case notPermitted = 77

    /// The exit status for a failed call's status code.
    ///
    /// - Parameter code: The wire status.
    /// - Returns: The exit status scripts see.
    static func forStatus(_ code: StatusCode) -> ExitStatus {
        switch code {
        case .ok: .success
        case .invalidArgument, .outOfRange: .invalidInput
        case .notFound: .notFound
        case .unavailable: .unavailable
        case .resourceExhausted, .deadlineExceeded, .aborted: .temporary
        case .unauthenticated, .permissionDenied: .notPermitted
        default: .failure
        }
    }

    /// One line per code, for `--help` and the manual.
    static let documentation = """
          0  success
          1  anything else (an unexpected server error, a file that cannot be written)
         64  usage: unknown option, malformed argument, no terminal for a password
         65  invalid input: a value out of the server's bounds (INVALID_ARGUMENT, OUT_OF_RANGE)
         66  not found: no such record, member, invite or session (NOT_FOUND)
         69  the server cannot be reached or is shutting down (UNAVAILABLE)
         75  temporary, try again later
             (RESOURCE_EXHAUSTED, DEADLINE_EXCEEDED, ABORTED)
         77  not signed in, session ended, wrong password, or admins only
             (UNAUTHENTICATED, PERMISSION_DENIED)
        """
}
