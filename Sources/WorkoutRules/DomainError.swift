// DomainError: the one error type of the domain rules and operations.
//
// Every rule that refuses something throws a `DomainError`: a stable `code` (a struct
// over a private enum, so new codes do not break switches elsewhere), a readable
// `message` that names the field and the bound it broke (for example
// `meal.items[3].calories must be between 0 and 10000 (got -5)`), the path of the
// offending request field when there is one, and how long a throttled caller should
// wait. The router maps codes to wire statuses in one place; nothing here knows the
// wire numbers.

/// An error of the domain: what went wrong, a message naming the field and the bound,
/// the offending field's path, and (when throttled) how long to wait before retrying.
package struct DomainError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure, stable across versions.
    package let code: Code
    /// A readable English message naming the field and the bound it broke.
    package let message: String
    /// The path of the offending request field (proto field names, `.` between levels,
    /// `[i]` for list elements, e.g. `meal.items[3].calories`), or `nil` when no single
    /// field is at fault.
    package let field: String?
    /// For `resourceExhausted`: how long the caller should wait before trying again,
    /// in milliseconds; 0 otherwise.
    package let retryAfterMilliseconds: UInt32

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: A readable message; name the field and the bound.
    ///   - field: The path of the offending request field, if any.
    ///   - retryAfterMilliseconds: How long to wait before retrying (throttling only).
    package init(_ code: Code, _ message: String, field: String? = nil, retryAfterMilliseconds: UInt32 = 0) {
        self.code = code
        self.message = message
        self.field = field
        self.retryAfterMilliseconds = retryAfterMilliseconds
    }

    /// The code's canonical name and the message, e.g.
    /// `INVALID_ARGUMENT: email must contain one '@' (field email)`.
    package var description: String {
        var text = "\(code): \(message)"
        if let field { text += " (field \(field))" }
        if retryAfterMilliseconds > 0 { text += " (retry after \(retryAfterMilliseconds) ms)" }
        return text
    }

    /// A request field is out of bounds or malformed.
    ///
    /// - Parameters:
    ///   - field: The path of the field, e.g. `meal.items[3].calories`.
    ///   - message: The whole message, naming the field and the bound.
    /// - Returns: An `invalidArgument` error carrying `field`.
    package static func invalid(_ field: String, _ message: String) -> DomainError {
        DomainError(.invalidArgument, message, field: field)
    }

    /// The thing named does not exist (or is not the caller's).
    ///
    /// - Parameter message: What was not found, e.g. `no workout with id …`.
    /// - Returns: A `notFound` error.
    package static func notFound(_ message: String) -> DomainError {
        DomainError(.notFound, message)
    }

    /// The thing being created exists already (a reused record id, a taken email).
    ///
    /// - Parameters:
    ///   - message: What exists already.
    ///   - field: The request field that collided, if any.
    /// - Returns: An `alreadyExists` error.
    package static func alreadyExists(_ message: String, field: String? = nil) -> DomainError {
        DomainError(.alreadyExists, message, field: field)
    }

    /// The caller may not do this (a member calling an admin method, a wrong current
    /// password).
    ///
    /// - Parameter message: What is not allowed.
    /// - Returns: A `permissionDenied` error.
    package static func permissionDenied(_ message: String) -> DomainError {
        DomainError(.permissionDenied, message)
    }

    /// The caller is not (or no longer) signed in, or presented wrong credentials.
    ///
    /// - Parameter message: Why authentication failed, revealing nothing an attacker
    ///   could use (say "wrong email or password", never which one).
    /// - Returns: An `unauthenticated` error.
    package static func unauthenticated(_ message: String) -> DomainError {
        DomainError(.unauthenticated, message)
    }

    /// The system is not in a state that allows this (the last admin leaving).
    ///
    /// - Parameter message: Which state prevents it.
    /// - Returns: A `failedPrecondition` error.
    package static func failedPrecondition(_ message: String) -> DomainError {
        DomainError(.failedPrecondition, message)
    }

    /// The caller is throttled or asked for too much.
    ///
    /// - Parameters:
    ///   - message: What ran out.
    ///   - retryAfterMilliseconds: How long to wait before retrying; 0 if unknown.
    /// - Returns: A `resourceExhausted` error.
    package static func resourceExhausted(_ message: String, retryAfterMilliseconds: UInt32 = 0) -> DomainError {
        DomainError(.resourceExhausted, message, retryAfterMilliseconds: retryAfterMilliseconds)
    }

    /// A conditional update lost a race (`expected_revision` did not match).
    ///
    /// - Parameter message: What changed meanwhile.
    /// - Returns: An `aborted` error.
    package static func aborted(_ message: String) -> DomainError {
        DomainError(.aborted, message)
    }

    /// A position is past the end of what exists (a revision above the current one).
    ///
    /// - Parameters:
    ///   - message: Which bound was passed.
    ///   - field: The request field, if any.
    /// - Returns: An `outOfRange` error.
    package static func outOfRange(_ message: String, field: String? = nil) -> DomainError {
        DomainError(.outOfRange, message, field: field)
    }

    /// A bug or a broken invariant on the server.
    ///
    /// - Parameter message: What invariant broke.
    /// - Returns: An `internalError` error.
    package static func internalError(_ message: String) -> DomainError {
        DomainError(.internalError, message)
    }

    /// A kind of domain failure. New kinds may be added; switch with a default.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: Hashable, Sendable {
            case invalidArgument, notFound, alreadyExists, permissionDenied, unauthenticated
            case failedPrecondition, resourceExhausted, aborted, outOfRange, internalError
        }
        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// A request field is out of bounds or malformed.
        package static let invalidArgument = Code(.invalidArgument)
        /// The thing named does not exist.
        package static let notFound = Code(.notFound)
        /// The thing being created exists already.
        package static let alreadyExists = Code(.alreadyExists)
        /// The caller may not do this.
        package static let permissionDenied = Code(.permissionDenied)
        /// The caller is not signed in, or its credentials are wrong.
        package static let unauthenticated = Code(.unauthenticated)
        /// The current state does not allow this.
        package static let failedPrecondition = Code(.failedPrecondition)
        /// The caller is throttled or asked for too much.
        package static let resourceExhausted = Code(.resourceExhausted)
        /// A conditional update lost a race.
        package static let aborted = Code(.aborted)
        /// A position is past the end of what exists.
        package static let outOfRange = Code(.outOfRange)
        /// A bug or broken invariant.
        package static let internalError = Code(.internalError)

        /// The canonical (gRPC-style) name, e.g. `INVALID_ARGUMENT`.
        package var description: String {
            switch wrapped {
            case .invalidArgument: "INVALID_ARGUMENT"
            case .notFound: "NOT_FOUND"
            case .alreadyExists: "ALREADY_EXISTS"
            case .permissionDenied: "PERMISSION_DENIED"
            case .unauthenticated: "UNAUTHENTICATED"
            case .failedPrecondition: "FAILED_PRECONDITION"
            case .resourceExhausted: "RESOURCE_EXHAUSTED"
            case .aborted: "ABORTED"
            case .outOfRange: "OUT_OF_RANGE"
            case .internalError: "INTERNAL"
            }
        }
    }
}
