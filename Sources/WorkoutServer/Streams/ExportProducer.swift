import WorkoutCore
import WorkoutProtocol

/// One `Streams.Export` in progress: reads its next chunk from the store only when the
/// connection has room to send it, so an export never sits whole in memory.
final class ExportProducer {
    // Used only on its connection's queue.
    private let household: HouseholdStore
    private var cursor: ExportCursor?
    /// The largest chunk, in encoded bytes: Export's 256 KiB, or less for a client whose
    /// frames are smaller (PROTOCOL.md 22, Streams.Export).
    private let maxChunkBytes: Int

    init(household: HouseholdStore, cursor: ExportCursor, maxChunkBytes: Int) {
        self.household = household
        self.cursor = cursor
        self.maxChunkBytes = maxChunkBytes
    }

    /// The next chunk, or `nil` after the last.
    func next() throws -> Workout_V1_ExportChunk? {
        guard var current = cursor else { return nil }
        defer { cursor = current }
        return try household.nextExportChunk(&current, maxChunkBytes: maxChunkBytes)
    }

    /// Drops the export (the call ended).
    func finish() {
        cursor = nil
    }
}
