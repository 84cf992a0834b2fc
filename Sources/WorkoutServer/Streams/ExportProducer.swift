import WorkoutProtocol

/// The chunks of one `Streams.Export` still to send, handed out as the peer drains them.
final class ExportProducer {
    // Used only on its connection's queue.
    private var chunks: [Workout_V1_ExportChunk]
    private var index = 0

    init(chunks: [Workout_V1_ExportChunk]) {
        self.chunks = chunks
    }

    /// The next chunk, or `nil` after the last.
    func next() -> Workout_V1_ExportChunk? {
        guard index < chunks.count else { return nil }
        defer {
            // Each chunk's memory goes as soon as it is encoded.
            chunks[index] = Workout_V1_ExportChunk()
            index += 1
        }
        return chunks[index]
    }

    /// Drops what is left (the call ended).
    func finish() {
        chunks = []
        index = 0
    }
}
