/// Waits until `condition` holds, checking every 20 ms, at most `timeout`.
///
/// - Throws: ``TestFailure`` naming `what` when the time is up.
@MainActor func waitUntil(_ what: String, timeout: Duration = .seconds(20), _ condition: @MainActor () -> Bool) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while !condition() {
        if clock.now > deadline { throw TestFailure("timed out after \(timeout) waiting until \(what)") }
        try await Task.sleep(for: .milliseconds(20))
    }
}
