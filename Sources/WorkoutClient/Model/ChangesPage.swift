import WorkoutProtocol

/// One page of a member's changes after a revision (`Queries.Changes`), for syncing a
/// local copy. While ``hasMore`` is true, ask again from ``revision``.
public struct ChangesPage: Sendable, Hashable, Codable {
    /// Changes in ascending revision order; each record at most once, in its current
    /// state (or as a tombstone).
    public var changes: [Change]
    /// The revision the client is up to after applying this page: ask from here next.
    public var revision: UInt64
    /// Whether more changes follow.
    public var hasMore: Bool
    /// The member's current totals.
    public var totals: Totals

    /// Creates a page of changes.
    ///
    /// - Parameters:
    ///   - changes: The changes.
    ///   - revision: The revision reached.
    ///   - hasMore: Whether more follow.
    ///   - totals: The member's totals.
    public init(changes: [Change], revision: UInt64, hasMore: Bool = false, totals: Totals = .init()) {
        self.changes = changes
        self.revision = revision
        self.hasMore = hasMore
        self.totals = totals
    }
}

// MARK: Wire

extension ChangesPage {
    /// Creates a page of changes from the wire (`ChangesResponse`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_ChangesResponse) {
        self.init(
            changes: wire.changes.map(Change.init(wire:)), revision: wire.revision, hasMore: wire.hasMore_p,
            totals: Totals(wire: wire.totals)
        )
    }
}
