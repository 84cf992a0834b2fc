import WorkoutProtocol

/// One message of `Streams.Watch`: changes after the revision asked for, then live ones.
public struct WatchEvent: Sendable, Hashable, Codable {
    /// Changes in ascending revision order, each record at most once; may be empty.
    public var changes: [Change]
    /// The revision the client is up to after applying this event; to resume after a
    /// disconnect, watch again from here.
    public var revision: UInt64
    /// The member's totals after these changes: set in the first event (and in the first after
    /// ``WorkoutClient/watch(since:)`` resumed a broken stream) and whenever they changed since
    /// the last event that carried them (a workout logged, edited or deleted, an achievement, a
    /// new day ending a streak); `nil` otherwise (a meal, a weigh-in, a profile edit).
    public var totals: Totals?
    /// Whether this event completes the backlog; later events are live.
    public var caughtUp: Bool
    /// Today's progress towards the member's daily goals, when it changed (and in the first
    /// event): what a ring redraws from without another call.
    public var today: DayProgress?

    /// Creates a watch event.
    ///
    /// - Parameters:
    ///   - changes: The changes.
    ///   - revision: The revision reached.
    ///   - totals: The totals, if they changed.
    ///   - caughtUp: Whether the backlog is complete.
    public init(changes: [Change], revision: UInt64, totals: Totals? = nil, caughtUp: Bool = false) {
        self.changes = changes
        self.revision = revision
        self.totals = totals
        self.caughtUp = caughtUp
    }
}

// MARK: Wire

extension WatchEvent {
    /// Creates an event from the wire; unset `totals` become `nil`.
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_WatchEvent) {
        self.init(
            changes: wire.changes.map(Change.init(wire:)), revision: wire.revision,
            totals: wire.hasTotals ? Totals(wire: wire.totals) : nil, caughtUp: wire.caughtUp
        )
        today = wire.hasToday ? DayProgress(wire: wire.today) : nil
    }
}
