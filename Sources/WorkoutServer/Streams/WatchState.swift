import WorkoutCore

/// An open `Streams.Watch` call: whose changes, from which revision, and its subscription.
final class WatchState {
    // Used only on its connection's queue.
    let caller: Caller
    /// The revision sent last; the next event starts after it.
    var cursor: UInt64
    var subscription: Int?
    /// Whether the event that ends the backlog (`caught_up`) went out.
    var caughtUp = false
    var sentTotals = false

    init(caller: Caller, cursor: UInt64) {
        self.caller = caller
        self.cursor = cursor
    }
}
