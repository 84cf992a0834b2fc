import Foundation
import WorkoutCore
package import WorkoutProtocol

/// The endpoints the HTTP face alone serves, outside the method catalog: what automations
/// post in formats of their own.
package enum IngestRoutes {
    /// `POST /ingest/health-auto-export`: Health Auto Export's REST JSON, turned into import
    /// batches (a device token with the `import` scope, or a session).
    package static let healthAutoExport = MethodDescriptor.httpOnly(
        number: 901, name: "Ingest.HealthAutoExport",
        summary: "Health Auto Export's REST JSON, imported as ImportRecords batches.")

    /// The path of each, for ``HTTPRoutes``.
    package static let byPath: [String: MethodDescriptor] = ["/ingest/health-auto-export": healthAutoExport]

    /// What the ingest answers: what was stored, unchanged and skipped. `stepsReports` counts the
    /// sources' days whose sum of samples changed; `stepsSamples` the samples stored or corrected.
    struct Answer: Encodable {
        var workouts: UInt32 = 0
        var meals: UInt32 = 0
        var weightEntries: UInt32 = 0
        var stepsReports: UInt32 = 0
        var stepsSamples: UInt32 = 0
        var unchanged: UInt32 = 0
        var skipped: [String: Int] = [:]
    }

    /// Imports a Health Auto Export body for `caller`, batch by batch (each all or nothing;
    /// ids derived from the source, so a batch sent again changes nothing).
    static func importHealthAutoExport(_ body: [UInt8], caller: Caller, household: HouseholdStore) async throws -> [UInt8] {
        let export = try HealthAutoExport(json: body, batchSize: HouseholdStore.maxImportBatchRecords)
        var answer = Answer(skipped: export.skipped)
        for batch in export.batches {
            var request = Workout_V1_ImportRecordsRequest()
            request.records = batch
            let imported = try await household.importRecords(caller, request)
            answer.workouts += imported.workouts
            answer.meals += imported.meals
            answer.weightEntries += imported.weightEntries
            answer.stepsReports += imported.stepsReports
            answer.stepsSamples += imported.stepsSamples
            answer.unchanged += imported.unchanged
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(answer))
    }
}
