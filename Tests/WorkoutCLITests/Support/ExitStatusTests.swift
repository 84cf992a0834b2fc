import Testing
import WorkoutClient
@testable import workout

/// Exit codes and messages for every way a call can fail.
@Suite("Exit codes and error messages")
struct ExitStatusTests {
    @Test("Each status maps to its documented exit code", arguments: [
        (StatusCode.ok, 0),
        (.invalidArgument, 65), (.outOfRange, 65),
        (.notFound, 66),
        (.unavailable, 69),
        (.resourceExhausted, 75), (.deadlineExceeded, 75), (.aborted, 75),
        (.unauthenticated, 77), (.permissionDenied, 77),
        (.alreadyExists, 1), (.failedPrecondition, 1), (.internal, 1), (.unknown, 1), (.cancelled, 1),
        (.unimplemented, 1), (.dataLoss, 1), (StatusCode(rawValue: 99), 1),
    ])
    func mapping(code: StatusCode, exit: Int) {
        #expect(Int(ExitStatus.forStatus(code).rawValue) == exit)
    }

    @Test("The help's list names every exit code")
    func documented() {
        for status in ExitStatus.allCases {
            #expect(ExitStatus.documentation.contains(String(format: "%3d  ", status.rawValue)), "\(status)")
        }
    }

    static let context = CLIError.Context(server: "nas.local:7420", action: "create invites")

    @Test("UNAUTHENTICATED: a wrong password at login, an ended session otherwise")
    func unauthenticated() {
        let error = WorkoutError(code: .unauthenticated, message: "wrong email or password")
        var signingIn = Self.context
        signingIn.signingIn = true
        #expect(CLIError(error, context: signingIn) == CLIError(.notPermitted, "wrong email or password"))
        #expect(CLIError(error, context: Self.context) == CLIError(.notPermitted, "your session has ended; run `workout login`"))
        #expect(CLIError.notSignedIn.status == .notPermitted)
    }

    @Test("PERMISSION_DENIED names what only admins can do")
    func permissionDenied() {
        let failure = CLIError(WorkoutError(code: .permissionDenied, message: "admins only"), context: Self.context)
        #expect(failure == CLIError(.notPermitted, "only household admins can create invites"))
    }

    @Test("INVALID_ARGUMENT keeps the server's explanation and names the option in the field's place", arguments: [
        ("workout.calories_burned", "invalid input: --calories must be between 1 and 10 (got 0)"),
        ("entry.weight_kg", "invalid input: WEIGHT must be between 1 and 10 (got 0)"),
        ("meal.items[2].calories", "invalid input: meal.items[2].calories must be between 1 and 10 (got 0) (check --item #3)"),
    ])
    func invalidArgument(field: String, message: String) {
        let error = WorkoutError(code: .invalidArgument, message: "\(field) must be between 1 and 10 (got 0)", field: field)
        let failure = CLIError(error, context: Self.context)
        #expect(failure.status == .invalidInput)
        #expect(failure.message == message)
    }

    @Test("A bound in seconds or milliseconds since 1970 is said in the option's unit instead", arguments: [
        ("workout.duration_seconds", "invalid input: --minutes must be above 0 and at most 1,440 (24 hours)"),
        ("workout.performed_at_ms", "invalid input: --at must be from 2000-01-01 to no more than a day ahead of the server's clock"),
        ("entry.measured_at_ms", "invalid input: --at must be from 2000-01-01 to no more than a day ahead of the server's clock"),
    ])
    func boundsInOptionWords(field: String, message: String) {
        let error = WorkoutError(
            code: .invalidArgument, message: "\(field) must be between 946684800000 and 1798761600000 (got 1830297600000)", field: field)
        #expect(CLIError(error, context: Self.context) == CLIError(.invalidInput, message))
    }

    @Test("UNAVAILABLE says which server cannot be reached and asks whether workoutd runs")
    func unavailable() {
        let error = WorkoutError(code: .unavailable, message: "cannot reach the Workout server at nas.local:7420: connection refused")
        let failure = CLIError(error, context: Self.context)
        #expect(failure == CLIError(.unavailable, "cannot reach the Workout server at nas.local:7420 — is workoutd running? (connection refused)"))
    }

    @Test("RESOURCE_EXHAUSTED gives the wait, rounded up to whole seconds")
    func resourceExhausted() {
        let error = WorkoutError(code: .resourceExhausted, message: "too many failed logins", retryAfter: .milliseconds(4200))
        #expect(CLIError(error, context: Self.context) == CLIError(.temporary, "the server refused for now: too many failed logins; retry after 5 s"))
    }

    @Test("NOT_FOUND, DEADLINE_EXCEEDED and the rest")
    func others() {
        #expect(CLIError(WorkoutError(code: .notFound, message: "no such invite"), context: Self.context) == CLIError(.notFound, "not found: no such invite"))
        #expect(CLIError(WorkoutError(code: .deadlineExceeded, message: ""), context: Self.context).status == .temporary)
        #expect(CLIError(WorkoutError(code: .internal, message: "boom"), context: Self.context) == CLIError(.failure, "the server failed to create invites: INTERNAL: boom"))
    }
}
