import WorkoutProtocol

/// One page of a paged query: `Queries.WorkoutHistory` (``Workout``s, newest first) or
/// `Queries.WeightProgress` (``WeightEntry``s, oldest first).
public struct Page<Item: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
    /// The items of this page, in the query's order.
    public var items: [Item]
    /// The token for the next page, or `nil` when this is the last page.
    public var nextPageToken: PageToken?

    /// Creates a page.
    ///
    /// - Parameters:
    ///   - items: The items.
    ///   - nextPageToken: The token of the next page, `nil` at the end.
    public init(items: [Item], nextPageToken: PageToken? = nil) {
        self.items = items
        self.nextPageToken = nextPageToken
    }

    /// Whether more pages follow (``nextPageToken`` is set).
    public var hasMore: Bool {
        nextPageToken != nil
    }
}

// MARK: Wire

extension Page where Item == Workout {
    /// Creates a page of workouts from the wire (`WorkoutHistoryResponse`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_WorkoutHistoryResponse) {
        self.init(items: wire.workouts.map(Workout.init(wire:)), nextPageToken: PageToken(wire: wire.nextPageToken))
    }
}

extension Page where Item == WeightEntry {
    /// Creates a page of weight entries from the wire (`WeightProgressResponse`).
    ///
    /// - Parameter wire: The wire message.
    init(wire: Workout_V1_WeightProgressResponse) {
        self.init(items: wire.entries.map(WeightEntry.init(wire:)), nextPageToken: PageToken(wire: wire.nextPageToken))
    }
}
