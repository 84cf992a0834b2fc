/// Why a call was made, which says what its answer leads to.
enum CallPurpose: UInt8, Sendable {
    /// A measured call of the scenario.
    case load
    /// Auth.Login while setting up (the answer's token is kept).
    case login
    /// Auth.Resume while setting up a connection of a member already signed in, or before
    /// ending a session.
    case resume
    /// Auth.Logout ending a session the run signed in (after the run).
    case logout
    /// Admin.Stats (the answer is decoded).
    case stats
    /// Admin.Stats at the end of a soak's minute (the answer is decoded; the slot's tag is the minute).
    case minuteStats
    /// Streams.Watch, open for the whole run (its end is a failure).
    case watch
    /// Queries.MealsOfDay checking the preloaded data before the run (the answer is decoded).
    case probe
    /// Admin.Stats asked only so that the Stats connection is not idle long enough for the
    /// server's idle limit to end it (a long warm-up; a long window without a soak's minutes).
    case keepAlive
}

/// A call in flight on a connection: its id, when it was sent (or, in rate mode, meant to be
/// sent), why, and a tag the answer carries back. A slot with call id 0 is free.
struct CallSlot: Sendable {
    var callID: UInt32 = 0
    var sentAt: UInt64 = 0
    var purpose: CallPurpose = .load
    var tag: UInt32 = 0
}
