import Testing
import TestSupport
import WorkoutRules

@Suite("Domain errors")
struct DomainErrorTests {
    @Test("Convenience constructors set the code and, where given, the field", arguments: [
        (DomainError.invalid("email", "email must contain '@'"), DomainError.Code.invalidArgument, Optional("email"), "INVALID_ARGUMENT"),
        (.notFound("no such session"), .notFound, nil, "NOT_FOUND"),
        (.alreadyExists("email taken", field: "email"), .alreadyExists, "email", "ALREADY_EXISTS"),
        (.permissionDenied("admins only"), .permissionDenied, nil, "PERMISSION_DENIED"),
        (.unauthenticated("wrong email or password"), .unauthenticated, nil, "UNAUTHENTICATED"),
        (.failedPrecondition("last admin"), .failedPrecondition, nil, "FAILED_PRECONDITION"),
        (.resourceExhausted("too many attempts", retryAfterMilliseconds: 5000), .resourceExhausted, nil, "RESOURCE_EXHAUSTED"),
        (.aborted("revision changed"), .aborted, nil, "ABORTED"),
        (.outOfRange("since_revision above current", field: "since_revision"), .outOfRange, "since_revision", "OUT_OF_RANGE"),
        (.internalError("broken invariant"), .internalError, nil, "INTERNAL"),
    ])
    func constructors(error: DomainError, code: DomainError.Code, field: String?, name: String) {
        #expect(error.code == code)
        #expect(error.field == field)
        #expect(error.code.description == name)
        #expect(error.description.hasPrefix("\(name): \(error.message)"))
    }

    @Test("Throttling errors carry the wait and say so")
    func retryAfter() {
        let error = DomainError.resourceExhausted("too many login attempts", retryAfterMilliseconds: 30_000)
        #expect(error.retryAfterMilliseconds == 30_000)
        #expect(error.description == "RESOURCE_EXHAUSTED: too many login attempts (retry after 30000 ms)")
        #expect(DomainError.invalid("x", "x bad").retryAfterMilliseconds == 0)
    }

    @Test("Errors compare by code, message, field and wait")
    func equality() {
        #expect(DomainError.invalid("a", "m") == DomainError(.invalidArgument, "m", field: "a"))
        #expect(DomainError.invalid("a", "m") != DomainError.invalid("b", "m"))
        #expect(DomainError.notFound("m") != DomainError.aborted("m"))
        #expect(DomainError.invalid("email", "email bad").description == "INVALID_ARGUMENT: email bad (field email)")
    }
}
