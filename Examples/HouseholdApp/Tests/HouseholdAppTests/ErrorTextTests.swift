import Testing
import WorkoutClient

extension HouseholdAppTests {
    /// The texts an app shows for an error, for each status code: in the member's words, with
    /// something to do (except after CANCELLED, which the app itself caused).
    @Suite struct ErrorTextTests {
        @Test(arguments: [
            StatusCode.unavailable, .deadlineExceeded, .cancelled, .unauthenticated, .permissionDenied, .invalidArgument,
            .notFound, .alreadyExists, .aborted, .resourceExhausted, .outOfRange, .failedPrecondition,
        ])
        func textsInTheMembersWords(code: StatusCode) {
            let error = WorkoutError(
                code: code, message: "something happened", retryAfter: code == .resourceExhausted ? .milliseconds(1500) : nil)
            #expect(error.errorDescription?.isEmpty == false)
            #expect(wordingProblems(error) == [])
        }
    }
}
