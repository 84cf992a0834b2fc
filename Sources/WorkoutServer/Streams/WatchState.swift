import WorkoutCore
import WorkoutProtocol

/// An open `Streams.Watch` call: whose changes, from which revision, and its subscription.
final class WatchState {
    // Used only on its connection's queue.
    let caller: Caller
    /// The revision sent last; the next event starts after it.
    var cursor: UInt64
    var subscription: Int?
    /// Whether the event that ends the backlog (`caught_up`) went out.
    var caughtUp = false
    /// The totals the last event that carried totals carried; `nil` before the first event.
    /// An event carries totals only when they differ from these (PROTOCOL.md, Streams.Watch).
    var sentTotals: Workout_V1_Totals?
    /// Today's progress as last sent, to send it again only when it changed.
    var sentToday: Workout_V1_DayProgress?

    init(caller: Caller, cursor: UInt64) {
        self.caller = caller
        self.cursor = cursor
    }
}
