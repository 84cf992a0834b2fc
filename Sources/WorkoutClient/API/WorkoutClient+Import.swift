import Foundation
import WorkoutProtocol

extension WorkoutClient {
    /// The most records one ``importRecords(_:)`` batch may hold (the server's bound).
    public static let maxImportBatchRecords = 1_000

    /// Imports a batch of the member's history in one write, as if each record had been
    /// logged live (totals, streak, points, level, achievements; the change log and Watch see
    /// every record).
    ///
    /// Records keep the ids they carry, so sending a batch again — a retry, an import run
    /// twice, an import resumed after it was stopped — stores nothing twice: those records
    /// count as `unchanged`. `ImportSession` (the WorkoutImport product) cuts a file's records
    /// into batches, paces them and reports progress.
    ///
    /// - Parameter records: 1...``maxImportBatchRecords`` records, applied in this order
    ///   (oldest first is cheapest for the server).
    /// - Returns: What the batch stored and left unchanged, the achievements it unlocked, the
    ///   totals and the revision after it.
    /// - Throws: ``WorkoutError``: `INVALID_ARGUMENT` naming the record's field
    ///   (`records[3].workout.duration_seconds`) — nothing of the batch is stored;
    ///   `ALREADY_EXISTS` when a record's id was used for different content or a deleted
    ///   record; `RESOURCE_EXHAUSTED` with a retry-after when the member sends batches faster
    ///   than the server's `limits.import_batches_per_minute`.
    public func importRecords(_ records: [ImportRecord]) async throws(WorkoutError) -> ImportedBatch {
        let now = Date()
        for (index, record) in records.enumerated() {
            try RecordChecks.check(record, prefix: "records[\(index)].\(record.kind.rawValue)", now: now)
        }
        var request = Workout_V1_ImportRecordsRequest()
        request.records = try records.map { record throws(WorkoutError) in try record.wire() }
        return ImportedBatch(wire: try await call(MethodCatalog.importRecords, request, idempotent: true))
    }
}
