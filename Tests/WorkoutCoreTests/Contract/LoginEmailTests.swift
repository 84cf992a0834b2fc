import Foundation
import Testing
import WorkoutCore
import WorkoutProtocol
import WorkoutRules

/// PROTOCOL.md 17 and 22: Login answers INVALID_ARGUMENT `email` for an email that is not an
/// email at all (no account can have one, so the answer reveals nothing), and the same
/// UNAUTHENTICATED "wrong email or password" for any well-formed email, account or not.
@Suite("Login with a malformed email")
struct LoginEmailTests {
    @Test("An email out of bounds is INVALID_ARGUMENT email, and is not counted as a failed login",
          arguments: ["x", "no-at-sign.example.com", "two@@example.com", "@example.com", "anna@", "anna @example.com",
                      String(repeating: "a", count: 250) + "@x.io"])
    func malformed(_ email: String) async throws {
        try await withHousehold(configure: { $0.throttle.freeFailuresPerSource = 1; $0.throttle.freeFailuresPerAccountAndSource = 1; $0.throttle.freeFailuresPerAccount = 1 }) { household in
            var login = Workout_V1_LoginRequest()
            login.email = email
            login.password = "whatever it is"
            for _ in 0..<3 {
                await expectDomainError(.invalidArgument, field: "email") {
                    try await household.store.login(login, source: "10.0.0.7", agent: "tests")
                }
            }
        }
    }

    @Test("A well-formed email without an account gets the same answer as a wrong password")
    func wellFormed() async throws {
        try await withHousehold { household in
            var nobody = Workout_V1_LoginRequest()
            nobody.email = "nobody@example.com"
            nobody.password = testPassword
            var wrong = Workout_V1_LoginRequest()
            wrong.email = "owner@example.com"
            wrong.password = "not the password"
            var messages: [String] = []
            for request in [nobody, wrong] {
                do {
                    _ = try await household.store.login(request, source: "10.0.0.\(messages.count + 1)", agent: "tests")
                    Issue.record("logged in with \(request.email)")
                } catch let error as DomainError {
                    #expect(error.code == .unauthenticated)
                    messages.append(error.message)
                }
            }
            #expect(messages == ["wrong email or password", "wrong email or password"])
        }
    }
}
