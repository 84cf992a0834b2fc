import WorkoutCore

/// An open `Streams.Watch` call: whose changes, from which revision, and its subscription.
final class WatchState {
    // Used only on its connection's queue.
    let caller: Caller
    var cursor: UInt64
    var subscription: Int?
    let startedAt: UInt64
    var sentTotals = false

    init(caller: Caller, cursor: UInt64, startedAt: UInt64) {
        self.caller = caller
        self.cursor = cursor
        self.startedAt = startedAt
    }
}
