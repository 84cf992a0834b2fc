/// Why a Watch stream broke and is about to be resumed (what
/// `WorkoutClient.watchEvents(since:onInterruption:)` tells a session model).
package struct WatchInterruption: Sendable {
    /// What broke it.
    package var error: WorkoutError
    /// Whether the client could not open a connection at all, after every attempt its
    /// ``ReconnectPolicy`` allows (`true`), rather than losing one it had (`false`).
    package var couldNotConnect: Bool
}
