import WorkoutClient

/// Turning a failed call into a message that says what to do, and its exit status.
extension CLIError {
    /// What the failed call was doing, for its message.
    struct Context: Sendable {
        /// The server it talked to, `host:port`.
        var server: String
        /// What the command does, completing "only household admins can …", e.g. "create invites".
        var action: String
        /// Whether the call was Login: `UNAUTHENTICATED` then means a wrong email or password,
        /// not an ended session.
        var signingIn = false
        /// Whether the call was Register: `UNAUTHENTICATED` then means the invite code was not
        /// accepted, and the server's words say why.
        var registering = false
        /// Whether the call checks the member's password (ChangePassword, DeleteAccount):
        /// `PERMISSION_DENIED` then means a wrong password, not an admin-only action.
        var checksPassword = false
        /// Whether `PERMISSION_DENIED` has reasons of its own besides the caller's role (the
        /// rules for members under 18): the server's words are then shown as they are.
        var quotesRefusals = false
        /// Request fields by the option of this command that sets them, over
        /// ``CLIError/option(forField:)``'s (e.g. `time_zone` is `--zone` for `profile set`).
        var fieldOptions: [String: String] = [:]
    }

    /// The message and exit status for a failed call.
    ///
    /// - Parameters:
    ///   - error: What the client library threw.
    ///   - context: The server and the command's action.
    init(_ error: WorkoutError, context: Context) {
        let status = ExitStatus.forStatus(error.code)
        let detail = error.message.isEmpty ? error.code.name : error.message
        switch error.code {
        case .unauthenticated where context.registering:
            self.init(status, "the invite was not accepted: \(detail); ask a household admin for a new one (workout admin invite)")
        case .unauthenticated:
            self.init(status, context.signingIn ? "wrong email or password" : "your session has ended; run `workout login`")
        case .permissionDenied where context.checksPassword:
            self.init(status, "wrong password; nothing was changed")
        case .permissionDenied where context.quotesRefusals:
            self.init(status, "not allowed: \(detail)")
        case .permissionDenied:
            self.init(status, "only household admins can \(context.action)")
        case .invalidArgument, .outOfRange:
            var text = "invalid input: \(detail)"
            // The options are keyed by the wire's field path; the message names the field as the
            // client library does (`field`).
            let wireField = error.wireField ?? error.field
            if let wireField, let words = Self.boundsInOptionWords[wireField] {
                // A field whose wire unit is not the option's (seconds, milliseconds since 1970).
                text = "invalid input: \(words)"
            } else if let wireField, let option = context.fieldOptions[wireField] ?? Self.fieldOptions[wireField],
                      let named = error.field, detail.hasPrefix(named + " ") {
                // The option for the field, the command's own first: named in its place ("--age
                // must be …"), the field's unit being the option's.
                text = "invalid input: \(option)" + detail.dropFirst(named.count)
            } else if let wireField, let option = context.fieldOptions[wireField] ?? Self.option(forField: wireField) {
                text += " (check \(option))"
            }
            self.init(status, text)
        case .notFound:
            self.init(status, "not found: \(detail)")
        case .unavailable:
            let prefix = "cannot reach the Workout server at \(context.server)"
            var text = "\(prefix) — is workoutd running?"
            let reason = detail.hasPrefix(prefix + ": ") ? String(detail.dropFirst(prefix.count + 2)) : detail
            if !reason.isEmpty { text += " (\(reason))" }
            self.init(status, text)
        case .resourceExhausted:
            var text = "the server refused for now: \(detail)"
            if let wait = error.retryAfter {
                text += "; retry after \(Self.seconds(wait)) s"
            }
            self.init(status, text)
        case .deadlineExceeded:
            self.init(status, "the server at \(context.server) did not answer in time; try again")
        case .aborted:
            self.init(status, "the record changed meanwhile; try again (\(detail))")
        case .alreadyExists:
            self.init(status, "already exists: \(detail)")
        case .failedPrecondition:
            self.init(status, "refused: \(detail)")
        case .cancelled:
            self.init(status, "cancelled")
        default:
            self.init(status, "the server failed to \(context.action): \(error.code.name): \(detail)")
        }
    }

    /// Whole seconds, rounded up (a wait of 0.2 s reads "1 s").
    private static func seconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return attoseconds > 0 ? seconds + 1 : max(seconds, 0)
    }

    /// The option or argument of a `workout` command that sets a request field, so an
    /// `INVALID_ARGUMENT` names what the user typed rather than the wire field.
    ///
    /// - Parameter field: The request field's path, e.g. `workout.duration_seconds` or
    ///   `meal.items[2].calories`.
    /// - Returns: E.g. `--minutes` or `--item #3`; `nil` for a field no option sets.
    static func option(forField field: String) -> String? {
        if field.hasPrefix("meal.items["), let close = field.firstIndex(of: "]"),
           let index = Int(field[field.index(field.startIndex, offsetBy: "meal.items[".count)..<close]) {
            return "--item #\(index + 1)"
        }
        return fieldOptions[field]
    }

    /// The bounds of request fields whose wire unit differs from their option's, said in the
    /// option's words: what the server's refusal becomes when `workout`'s own check
    /// (``InputBounds``) did not catch it first, e.g. when the server's clock is not this one's.
    private static let boundsInOptionWords: [String: String] = {
        let time = "--at must be from 2000-01-01 to no more than a day ahead of the server's clock"
        return [
            "workout.duration_seconds": "--minutes must be above 0 and at most 1,440 (24 hours)",
            "workout.performed_at_ms": time, "meal.eaten_at_ms": time, "entry.measured_at_ms": time,
        ]
    }()

    /// Request fields by the option that sets them.
    private static let fieldOptions: [String: String] = [
        "workout.workout_type": "TYPE",
        "workout.duration_seconds": "--minutes",
        "workout.calories_burned": "--calories",
        "workout.exercises_completed": "--exercises",
        "workout.performed_at_ms": "--at",
        "workout.notes": "--notes",
        "workout.time_zone": "your profile's time zone (workout profile set --zone)",
        "meal.meal_type": "--type",
        "meal.name": "--name",
        "meal.eaten_at_ms": "--at",
        "meal.items": "--item",
        "meal.time_zone": "your profile's time zone (workout profile set --zone)",
        "entry.weight_kg": "WEIGHT",
        "entry.measured_at_ms": "--at",
        "entry.note": "--note",
        "entry.time_zone": "your profile's time zone (workout profile set --zone)",
        "report.steps": "STEPS",
        "report.source": "--source",
        "report.day": "--day",
        "day": "--day",
        "time_zone": "--time-zone or your profile's time zone",
        "from_ms": "--days",
        "since_revision": "--since",
        "page_size": "--limit",
        "email": "--email",
        "password": "the password",
        "new_password": "the password",
        "invite_code": "--invite",
        "profile.email": "--email",
        "profile.first_name": "--first-name",
        "profile.last_name": "--last-name",
        "profile.time_zone": "--time-zone",
        "note": "--note",
        "expires_in_seconds": "--expires-hours",
        "role": "--role",
    ]
}
