package import WorkoutClient

/// The error `body` failed with, or `nil` when it succeeded.
package func failure(_ body: () async throws -> Void) async -> WorkoutError? {
    do {
        try await body()
        return nil
    } catch let error as WorkoutError {
        return error
    } catch {
        return WorkoutError(code: .unknown, message: "not a WorkoutError: \(error)")
    }
}
